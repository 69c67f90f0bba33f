package libcheck

import "fmt"

// Pattern is what a writer hands its runtime, for Predict.
type Pattern struct {
	Bytes       int64 // all the data
	BufferBytes int64 // the runtime's buffer in effect (DefaultBuffer resolves "none set")
	RecordBytes int64 // bytes per transfer statement or fwrite; 0: one for all the data
	Swap        bool  // byte-swapped on the way, in SwapChunk pieces
}

// Calls are write(2) calls: how many, and the smallest and largest.
type Calls struct {
	Count    int64 `json:"count"`
	Smallest int64 `json:"smallest"`
	Largest  int64 `json:"largest"`
}

// maxRW is the most one write(2) moves on Linux (MAX_RW_COUNT, INT_MAX
// rounded down to a 4 KiB page); both runtimes call again for the rest.
const maxRW = 0x7ffff000

// raw counts one runtime-level write of n bytes.
func (c *Calls) raw(n int64) {
	for n > 0 {
		k := min(n, maxRW)
		if c.Count == 0 || k < c.Smallest {
			c.Smallest = k
		}
		c.Largest = max(c.Largest, k)
		c.Count++
		n -= k
	}
}

// buffered is one runtime's buffering rule: put is one piece handed to
// the buffered layer, flush the final flush at close, fill the buffer's
// state at a record boundary (for skipping repeated cycles).
type buffered interface {
	put(n int64)
	flush()
	fill() int64
	calls() *Calls
}

// Predict is the write(2) calls rt makes for p, from the runtime's
// buffering code (see gfortranBuffer and stdioBuffer).
func Predict(rt Runtime, p Pattern) (Calls, error) {
	if err := p.validate(); err != nil {
		return Calls{}, err
	}
	var b buffered
	switch rt {
	case Gfortran:
		b = &gfortranBuffer{size: p.BufferBytes}
	case Stdio:
		b = &stdioBuffer{size: p.BufferBytes}
	case MPIIO, HDF5:
		return Calls{}, fmt.Errorf("%s's calls depend on more than a buffer: use PredictMPIIO or PredictHDF5", rt)
	default:
		_, err := ParseRuntime(string(rt))
		return Calls{}, err
	}
	simulate(b, p)
	return *b.calls(), nil
}

func (p Pattern) validate() error {
	switch {
	case p.Bytes <= 0:
		return fmt.Errorf("pattern: %d bytes: nothing to write", p.Bytes)
	case p.BufferBytes <= 0:
		return fmt.Errorf("pattern: buffer of %d bytes: give the size in effect (DefaultBuffer)", p.BufferBytes)
	case p.RecordBytes < 0 || p.RecordBytes%ElementBytes != 0:
		return fmt.Errorf("pattern: record of %d bytes: want 0 or a multiple of %d", p.RecordBytes, ElementBytes)
	}
	return nil
}

// simulate feeds p's records to b. A record size that repeats runs
// through a cycle of buffer states; once a state at a record boundary
// repeats, whole cycles are counted at once, so a sweep of small records
// over gigabytes costs one cycle of work.
func simulate(b buffered, p Pattern) {
	rec := p.RecordBytes
	if rec == 0 || rec > p.Bytes {
		rec = p.Bytes
	}
	full, last := p.Bytes/rec, p.Bytes%rec
	type mark struct{ rec, calls int64 }
	seen := map[int64]mark{}
	for i := int64(0); i < full; i++ {
		if seen != nil {
			if m, ok := seen[b.fill()]; ok {
				period := i - m.rec
				cycles := (full - i) / period
				b.calls().Count += cycles * (b.calls().Count - m.calls)
				i += cycles * period
				seen = nil // the rest is shorter than a cycle
				if i == full {
					break
				}
			} else {
				seen[b.fill()] = mark{i, b.calls().Count}
			}
		}
		putRecord(b, rec, p.Swap)
	}
	if last > 0 {
		putRecord(b, last, p.Swap)
	}
	b.flush()
}

// putRecord hands one record over: whole, or in SwapChunk pieces when
// converted (libgfortran's unformatted_write swaps BSWAP_BUFSZ bytes at a
// time into a stack buffer and writes each; the stdio writer does the
// same).
func putRecord(b buffered, n int64, swap bool) {
	if !swap {
		b.put(n)
		return
	}
	for n > 0 {
		k := min(n, SwapChunk)
		b.put(k)
		n -= k
	}
}

// gfortranBuffer is libgfortran's buf_write and buf_flush
// (libgfortran/io/unix.c): a piece that fits behind the dirty bytes is
// copied, unless the buffer is empty and the piece is larger than half
// of it, which goes straight to write(2) so a large array is never
// copied; otherwise the buffer is flushed first, and the piece then
// buffered if it is at most half the buffer, else written directly.
type gfortranBuffer struct {
	size, dirty int64
	c           Calls
}

func (g *gfortranBuffer) put(n int64) {
	if !(g.dirty == 0 && n > g.size/2) && g.dirty+n <= g.size {
		g.dirty += n
		return
	}
	g.flush()
	if n <= g.size/2 {
		g.dirty = n
		return
	}
	g.c.raw(n)
}

func (g *gfortranBuffer) flush() {
	g.c.raw(g.dirty)
	g.dirty = 0
}

func (g *gfortranBuffer) fill() int64   { return g.dirty }
func (g *gfortranBuffer) calls() *Calls { return &g.c }

// stdioBuffer is glibc's _IO_new_file_xsputn (libio/fileops.c) on a
// fully buffered stream: fill the space left in the buffer; if data
// remain, flush the full buffer, write directly the largest multiple of
// the buffer size that remains (any amount for buffers under 128
// bytes), and buffer the rest. A fresh stream has no space until its
// first overflow sets the buffer up, so a first fwrite larger than the
// buffer goes out directly.
type stdioBuffer struct {
	size, used int64
	started    bool
	c          Calls
}

func (s *stdioBuffer) put(n int64) {
	if s.started {
		fit := min(s.size-s.used, n)
		s.used += fit
		n -= fit
	}
	if n == 0 {
		return
	}
	s.started = true
	s.flush()
	direct := n
	if s.size >= 128 {
		direct = n - n%s.size
	}
	s.c.raw(direct)
	s.used = n - direct
}

func (s *stdioBuffer) flush() {
	s.c.raw(s.used)
	s.used = 0
}

// fill tells a fresh stream (-1) from an empty set-up one (0).
func (s *stdioBuffer) fill() int64 {
	if !s.started {
		return -1
	}
	return s.used
}

func (s *stdioBuffer) calls() *Calls { return &s.c }
