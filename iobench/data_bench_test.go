package iobench

import (
	"testing"

	"github.com/iobench/iobench/convert"
)

// BenchmarkFillRandom is how fast --data random fills the source, beside
// the ramp and zero patterns and a plain copy of memory: 64 MiB, already
// faulted in, in the 16 MiB pieces newSource fills.
func BenchmarkFillRandom(b *testing.B) {
	buf := make([]byte, 64<<20)
	src := make([]byte, len(buf))
	for _, p := range []DataPattern{DataRandom, DataRamp, DataZero} {
		b.Run("data="+string(p), func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for range b.N {
				for off := 0; off < len(buf); off += fillChunk {
					fillPattern(p, buf[off:off+fillChunk], convert.Float64, int64(off/8), 1)
				}
			}
		})
	}
	b.Run("memcpy", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for range b.N {
			copy(buf, src)
		}
	})
}
