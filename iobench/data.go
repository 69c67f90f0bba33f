package iobench

import (
	"encoding/binary"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/iobench/iobench/convert"
)

// The random pattern is a counter-based generator, wyrand: word k of the
// stream is wyrand's mixing function (one 64x64->128-bit multiply) of the
// Weyl sequence value seed + (k+1)*randomGamma.
// Any word can be computed on its own, so a window source repeats the
// stream exactly, --verify regenerates any element without replaying the
// stream, and a fill runs at memory speed (BenchmarkFillRandom): a few
// multiply per 8 bytes, no state carried from word to word.
const randomGamma = 0xa0761d6478bd642f

// dataSeed keys the random stream of this writer: writer w's is the
// stream of Seed from word w<<40 on, so writers never share a word unless
// one writes 8 TiB; writer 0's is Seed's own.
func (c Config) dataSeed() uint64 { return c.Seed + uint64(c.Writer)<<40*randomGamma }

// randomWord is word k of the random stream of seed.
func randomWord(seed uint64, k int64) uint64 { return mix64(seed + uint64(k+1)*randomGamma) }

// mix64 is wyrand's output function.
func mix64(z uint64) uint64 {
	hi, lo := bits.Mul64(z, z^0xe7037ed1a0b428db)
	return hi ^ lo
}

// fillRandom writes the random stream's bytes [off, off+len(dst)) into
// dst; off is a multiple of 8 (len(dst) need not be).
func fillRandom(dst []byte, seed uint64, off int64) {
	fillSplit(dst, func(part []byte, at int) { fillRandomPart(part, seed, (off+int64(at))/8) })
}

// fillSplit has fill write dst, split across the CPUs when large: one
// core's generator runs below the speed of memory (BenchmarkFillRandom).
// Each part starts at a multiple of 16 bytes, so at a whole element of
// any type and a whole word of the random stream; at is its offset.
func fillSplit(dst []byte, fill func(part []byte, at int)) {
	parts := runtime.GOMAXPROCS(0)
	if len(dst) < parallelFill || parts < 2 {
		fill(dst, 0)
		return
	}
	per := (len(dst)/parts + 15) &^ 15
	var wg sync.WaitGroup
	for start := 0; start < len(dst); start += per {
		part := dst[start:min(start+per, len(dst))]
		wg.Go(func() { fill(part, start) })
	}
	wg.Wait()
}

// parallelFill is the smallest fill worth splitting across CPUs.
const parallelFill = 1 << 20

// fillRandomPart writes words k, k+1, ... of the stream into dst.
func fillRandomPart(dst []byte, seed uint64, k int64) {
	n := len(dst) / 8
	if n > 0 && uintptr(unsafe.Pointer(&dst[0]))%8 == 0 {
		// Aligned: store whole words.
		w := unsafe.Slice((*uint64)(unsafe.Pointer(&dst[0])), n)
		g := uint64(randomGamma) // a variable: its multiples wrap, as the stream's do
		z := seed + uint64(k+1)*g
		for i := range w {
			w[i] = mix64(z)
			z += g
		}
	} else {
		for i := range n {
			binary.NativeEndian.PutUint64(dst[8*i:], randomWord(seed, k+int64(i)))
		}
	}
	if tail := dst[8*n:]; len(tail) > 0 {
		var last [8]byte
		binary.NativeEndian.PutUint64(last[:], randomWord(seed, k+int64(n)))
		copy(tail, last[:])
	}
}

// randomAt writes the random stream's bytes [off, off+len(dst)) into
// dst, for any off: what verification expects of one element.
func randomAt(dst []byte, seed uint64, off int64) {
	var w [8]byte
	for i := range dst {
		pos := off + int64(i)
		if i == 0 || pos%8 == 0 {
			binary.NativeEndian.PutUint64(w[:], randomWord(seed, pos/8))
		}
		dst[i] = w[pos%8]
	}
}

// fillPattern writes the pattern's native-order bytes for source elements
// first, first+1, ... into dst.
func fillPattern(p DataPattern, dst []byte, t convert.Type, first int64, seed uint64) {
	switch p {
	case DataRandom:
		fillRandom(dst, seed, first*int64(t.Size()))
	case DataZero:
		clear(dst) // touches every page, as the other patterns do
	default:
		size := int64(t.Size())
		fillSplit(dst, func(part []byte, at int) { convert.Fill(part, t, first+int64(at)/size) })
	}
}

// expectPattern writes into dst the bytes a file of element type t in byte order
// o holds for source element v of the pattern: computed afresh, not read
// from the source, so verification checks the source and the conversion.
func expectPattern(p DataPattern, dst []byte, t convert.Type, o convert.Order, v int64, seed uint64) {
	switch p {
	case DataRandom:
		randomAt(dst, seed, v*int64(t.Size()))
		if o.NeedsSwap() {
			for w := t.SwapWidth(); len(dst) > 0; dst = dst[w:] {
				slices.Reverse(dst[:w])
			}
		}
	case DataZero:
		clear(dst)
	default:
		convert.Value(dst, t, o, v)
	}
}
