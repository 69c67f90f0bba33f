package iobench

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/convert"
)

// source holds the native-order values the sweep writes. Element j of the
// backing data holds the value j, or j mod period for a window.
type source struct {
	data    []byte
	elem    int64 // bytes per element
	stride  int64 // output element e is source element e*stride
	period  int64 // in source elements; 0 for a full array
	pattern DataPattern
	seed    uint64 // of DataRandom
}

// SourceBytes is the memory a source of this plan takes, in bytes.
func (c Config) SourceBytes() int64 {
	if c.Source == SourceWindow {
		return 2 * c.windowPeriod() * c.ElemSize()
	}
	return c.Count * int64(c.Stride) * c.ElemSize()
}

// stampsBlocks says whether each write call's first element carries its
// own offset: with --verify over a window source, whose pattern repeats
// every window, so that a block written at another offset is caught.
// (The zero pattern has nothing to stamp.)
func (c Config) stampsBlocks() bool {
	return c.Verify && c.Source == SourceWindow && c.DataKind() != DataZero
}

// windowPeriod is the number of source elements after which a window
// source repeats: enough for the largest write, whole.
func (c Config) windowPeriod() int64 {
	return c.MaxSize() / c.ElemSize() * int64(c.Stride)
}

// fillChunk is how much of the source is filled between checks for an
// interrupt: about 10 ms of work, so Ctrl-C answers at once even while a
// 2 GB array fills.
const fillChunk = 16 << 20

// newSource allocates and fills the source, stopping with ErrInterrupted
// once stop reports true, and telling progress the bytes filled so far.
func newSource(c Config, stop func() bool, progress func(int64)) (*source, error) {
	s := &source{elem: c.ElemSize(), stride: int64(c.Stride), pattern: c.DataKind(), seed: c.dataSeed()}
	if c.Source == SourceWindow {
		s.period = c.windowPeriod()
	}
	data, err := allocAligned(c.SourceBytes())
	if err != nil {
		return nil, fmt.Errorf("allocating the %d-byte %s source: %w", c.SourceBytes(), c.Source, err)
	}
	s.data = data
	parts := [][]byte{s.data}
	if s.period > 0 {
		half := s.period * s.elem
		parts = [][]byte{s.data[:half], s.data[half:]}
	}
	var done int64
	for _, p := range parts {
		if err := s.fillStoppable(p, c.Type, stop, func(n int64) { progress(done + n) }); err != nil {
			s.free()
			return nil, err
		}
		done += int64(len(p))
	}
	progress(0)
	return s, nil
}

// fillStoppable fills dst with the pattern from element 0 on, in
// fillChunk pieces.
func (s *source) fillStoppable(dst []byte, t convert.Type, stop func() bool, progress func(int64)) error {
	elem := s.elem
	chunk := fillChunk / elem * elem
	for off := int64(0); off < int64(len(dst)); off += chunk {
		if stop() {
			return ErrInterrupted
		}
		end := min(off+chunk, int64(len(dst)))
		fillPattern(s.pattern, dst[off:end], t, off/elem, s.seed)
		progress(end)
	}
	return nil
}

// region is the source bytes behind output elements [first, first+n).
func (s *source) region(first, n int64) []byte {
	start := first * s.stride
	if s.period > 0 {
		start %= s.period
	}
	end := start + (n-1)*s.stride + 1
	return s.data[start*s.elem : end*s.elem]
}

// unwrapped is the number output element e holds in the full array:
// what a block's stamp carries.
func (s *source) unwrapped(e int64) int64 { return e * s.stride }

// value is the number stored in output element e.
func (s *source) value(e int64) int64 {
	v := e * s.stride
	if s.period > 0 {
		v %= s.period
	}
	return v
}

func (s *source) free() { freeAligned(s.data) }

// allocAligned maps anonymous memory: page-aligned (O_DIRECT needs that)
// and returned to the OS at once when freed, outside the Go heap.
func allocAligned(n int64) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	return unix.Mmap(-1, 0, int(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
}

func freeAligned(b []byte) {
	if b != nil {
		_ = unix.Munmap(b)
	}
}
