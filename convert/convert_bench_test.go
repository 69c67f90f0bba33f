package convert

import (
	"fmt"
	"testing"
)

// BenchmarkPack compares, per element width and stride, the Packer against
// a plain copy of the same number of dst bytes (the bandwidth ceiling) and
// against a naive byte-by-byte loop (what a generic per-element converter
// costs). b.SetBytes counts the bytes written to dst. The 64 KiB chunk
// stays in the L2 cache; 1 MiB is a typical write size. From 1 MiB on,
// Go's memmove switches to non-temporal stores that bypass the cache, so
// there copy measures memory bandwidth and an in-cache Pack can beat it.
// Compare with scripts/convert-bench.sh or benchstat.
func BenchmarkPack(b *testing.B) {
	widths := []struct {
		width int
		typ   Type
	}{{4, Int32}, {8, Float64}, {16, Complex128}}
	chunks := []struct {
		name string
		size int
	}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}
	for _, w := range widths {
		for _, stride := range []int{1, 2} {
			// The kinds of one chunk size run back to back so that load
			// from elsewhere on the machine hits them alike.
			for _, c := range chunks {
				for _, kind := range []string{"copy", "native", "swap", "naive"} {
					name := fmt.Sprintf("width=%d/stride=%d/kind=%s/chunk=%s", w.width, stride, kind, c.name)
					b.Run(name, func(b *testing.B) { benchPack(b, w.typ, stride, kind, c.size) })
				}
			}
		}
	}
}

func benchPack(b *testing.B, typ Type, stride int, kind string, chunk int) {
	dst := make([]byte, chunk)
	src := make([]byte, chunk*stride)
	Fill(src, typ, 0)
	f := benchKernel(b, typ, stride, kind)
	b.SetBytes(int64(chunk))
	for b.Loop() {
		f(dst, src)
	}
}

func benchKernel(b *testing.B, typ Type, stride int, kind string) func(dst, src []byte) {
	switch kind {
	case "copy":
		return func(dst, src []byte) { copy(dst, src) }
	case "naive":
		return func(dst, src []byte) { packBytewise(dst, src, typ.Size(), typ.SwapWidth(), stride) }
	}
	o := Native
	if kind == "swap" {
		o = Swap
	}
	p, err := NewPacker(typ, o, stride)
	if err != nil {
		b.Fatal(err)
	}
	return p.Pack
}
