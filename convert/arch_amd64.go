//go:build !purego

package convert

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// On amd64 with AVX2 (x/sys/cpu checks the CPU and the OS) the byte swap,
// the stride-2 gathers and the 16-byte gathers run 32 bytes per
// instruction in arch_amd64.s. The scalar loops store at most 8 bytes at a
// time: on 64 KiB chunks their swap reached 42-47% of memmove and their
// stride-2 gathers 19-38%, against targets of 70% and 50% (BenchmarkPack
// with -tags purego). The portable kernels finish the ragged ends and serve
// every other case. Build with -tags purego to leave the assembly out.

// archEnabled reports whether archKernel may return a kernel. Tests switch
// it off to exercise the portable loops too.
var archEnabled = cpu.X86.HasAVX2

// VPSHUFB controls, the same for both 128-bit lanes: destination byte i
// takes source byte mask[i].
var (
	maskKeep   = lanes([16]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	maskSwap32 = lanes([16]byte{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12})
	maskSwap64 = lanes([16]byte{7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8})
)

// lanes repeats a 16-byte control for both lanes of a YMM register.
func lanes(m [16]byte) *[32]byte {
	var l [32]byte
	copy(l[:16], m[:])
	copy(l[16:], m[:])
	return &l
}

// shuffleAVX2 applies mask to each 32-byte block of src[:n] into dst;
// n is a multiple of 32.
//
//go:noescape
func shuffleAVX2(dst, src *byte, n int, mask *[32]byte)

// even32AVX2 writes n bytes (a multiple of 32) of dst from 2n bytes of src,
// keeping every second 4-byte element, then applies mask.
//
//go:noescape
func even32AVX2(dst, src *byte, n int, mask *[32]byte)

// even64AVX2 is even32AVX2 for 8-byte elements.
//
//go:noescape
func even64AVX2(dst, src *byte, n int, mask *[32]byte)

// gather128AVX writes n bytes (a multiple of 32) of dst from 16-byte
// elements step bytes apart in src, applying mask to each.
//
//go:noescape
func gather128AVX(dst, src *byte, n, step int, mask *[32]byte)

// archKernel returns the AVX2 kernel for a case, or nil where the portable
// loop is as good (a plain copy is memmove already) or there is none.
func archKernel(t Type, swap bool, stride int) kernel {
	if !archEnabled || (stride == 1 && !swap) {
		return nil
	}
	mask := maskKeep
	if swap && t.SwapWidth() == 4 {
		mask = maskSwap32
	} else if swap {
		mask = maskSwap64
	}
	tail := portableKernel(t, swap, stride)
	switch {
	case stride == 1:
		return blocks(shuffleAVX2, mask, 1, tail)
	case t.Size() == 16:
		return func(dst, src []byte, k int) {
			n := len(dst) &^ 31
			if n == 0 {
				tail(dst, src, k)
				return
			}
			gather128AVX(unsafe.SliceData(dst), unsafe.SliceData(src), n, 16*k, mask)
			if n < len(dst) { // src[n*k:] would be past the end otherwise
				tail(dst[n:], src[n*k:], k)
			}
		}
	case stride == 2 && t.Size() == 4:
		return blocks(even32AVX2, mask, 2, tail)
	case stride == 2:
		return blocks(even64AVX2, mask, 2, tail)
	}
	return nil
}

// blocks runs asm over the whole 32-byte blocks of dst and tail over the
// rest. asm reads stride bytes of src per byte of dst, in whole blocks:
// where src ends short of the last block (the final element of a strided
// chunk has no gap after it), that block is left to tail so asm never
// reads past src.
func blocks(asm func(dst, src *byte, n int, mask *[32]byte), mask *[32]byte, stride int, tail kernel) kernel {
	return func(dst, src []byte, k int) {
		n := min(len(dst), len(src)/stride) &^ 31
		if n > 0 {
			asm(unsafe.SliceData(dst), unsafe.SliceData(src), n, mask)
		}
		tail(dst[n:], src[n*stride:], k)
	}
}
