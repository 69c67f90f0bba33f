package convert

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The portable kernels. Each is one loop specialised for its element size
// and swap width; bits.ReverseBytes32/64 compile to a single BSWAP (or
// REV) instruction. The loops are unrolled by four because the loop
// overhead otherwise costs as much as the work (measured in
// convert_bench_test.go). They read the buffers as uint32 or uint64 slices:
// see mustAlign for the alignment this needs. They are not one generic
// loop: Go compiles that once per shape and calls the operation through
// a dictionary, 4x slower (generic_bench_test.go).

// u32s views b as native uint32s; trailing bytes are left out. Too short
// a b gives nil: even an empty view converts the start to *uint32, which
// must not reach past b's allocation (checkptr, run by -race, checks it).
func u32s(b []byte) []uint32 {
	if len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}

// u64s views b as native uint64s; trailing bytes are left out, as in u32s.
func u64s(b []byte) []uint64 {
	if len(b) < 8 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)
}

// swapHalves reverses the bytes of each 32-bit half of x in place:
// reversing all eight bytes also exchanges the halves, and the rotation
// puts them back. It lets one 64-bit load convert two 4-byte units.
func swapHalves(x uint64) uint64 { return bits.RotateLeft64(bits.ReverseBytes64(x), 32) }

func copyKernel(dst, src []byte, _ int) { copy(dst, src) }

// swap32 reverses each 4-byte unit of src into dst, two units at a time.
func swap32(dst, src []byte, _ int) {
	d, s := u64s(dst), u64s(src)
	s = s[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, ss := d[i:i+4:i+4], s[i:i+4:i+4]
		dd[0] = swapHalves(ss[0])
		dd[1] = swapHalves(ss[1])
		dd[2] = swapHalves(ss[2])
		dd[3] = swapHalves(ss[3])
	}
	for ; i < len(d); i++ {
		d[i] = swapHalves(s[i])
	}
	if len(dst)%8 != 0 { // an odd number of units: one is left
		k := len(dst) - 4
		ne := binary.NativeEndian
		ne.PutUint32(dst[k:], bits.ReverseBytes32(ne.Uint32(src[k:])))
	}
}

// swap64 reverses each 8-byte unit of src into dst.
func swap64(dst, src []byte, _ int) {
	d, s := u64s(dst), u64s(src)
	s = s[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, ss := d[i:i+4:i+4], s[i:i+4:i+4]
		dd[0] = bits.ReverseBytes64(ss[0])
		dd[1] = bits.ReverseBytes64(ss[1])
		dd[2] = bits.ReverseBytes64(ss[2])
		dd[3] = bits.ReverseBytes64(ss[3])
	}
	for ; i < len(d); i++ {
		d[i] = bits.ReverseBytes64(s[i])
	}
}

// gather32 copies every k-th 4-byte element of src into dst.
func gather32(dst, src []byte, k int) {
	d, s := u32s(dst), u32s(src)
	j, i := 0, 0
	for ; j+4 <= len(d); j, i = j+4, i+4*k {
		dd := d[j : j+4 : j+4]
		_ = s[i+3*k] // one bounds check for the four loads
		dd[0] = s[i]
		dd[1] = s[i+k]
		dd[2] = s[i+2*k]
		dd[3] = s[i+3*k]
	}
	for ; j < len(d); j, i = j+1, i+k {
		d[j] = s[i]
	}
}

// gather32Swap copies every k-th 4-byte element of src into dst, reversed.
func gather32Swap(dst, src []byte, k int) {
	d, s := u32s(dst), u32s(src)
	j, i := 0, 0
	for ; j+4 <= len(d); j, i = j+4, i+4*k {
		dd := d[j : j+4 : j+4]
		_ = s[i+3*k]
		dd[0] = bits.ReverseBytes32(s[i])
		dd[1] = bits.ReverseBytes32(s[i+k])
		dd[2] = bits.ReverseBytes32(s[i+2*k])
		dd[3] = bits.ReverseBytes32(s[i+3*k])
	}
	for ; j < len(d); j, i = j+1, i+k {
		d[j] = bits.ReverseBytes32(s[i])
	}
}

// gather64 copies every k-th 8-byte element of src into dst.
func gather64(dst, src []byte, k int) {
	d, s := u64s(dst), u64s(src)
	j, i := 0, 0
	for ; j+4 <= len(d); j, i = j+4, i+4*k {
		dd := d[j : j+4 : j+4]
		_ = s[i+3*k]
		dd[0] = s[i]
		dd[1] = s[i+k]
		dd[2] = s[i+2*k]
		dd[3] = s[i+3*k]
	}
	for ; j < len(d); j, i = j+1, i+k {
		d[j] = s[i]
	}
}

// gather64Swap copies every k-th 8-byte element of src into dst, reversed.
func gather64Swap(dst, src []byte, k int) {
	d, s := u64s(dst), u64s(src)
	j, i := 0, 0
	for ; j+4 <= len(d); j, i = j+4, i+4*k {
		dd := d[j : j+4 : j+4]
		_ = s[i+3*k]
		dd[0] = bits.ReverseBytes64(s[i])
		dd[1] = bits.ReverseBytes64(s[i+k])
		dd[2] = bits.ReverseBytes64(s[i+2*k])
		dd[3] = bits.ReverseBytes64(s[i+3*k])
	}
	for ; j < len(d); j, i = j+1, i+k {
		d[j] = bits.ReverseBytes64(s[i])
	}
}

// gather64Swap32 copies every k-th complex64 of src into dst with each
// 4-byte half reversed.
func gather64Swap32(dst, src []byte, k int) {
	d, s := u64s(dst), u64s(src)
	j, i := 0, 0
	for ; j+4 <= len(d); j, i = j+4, i+4*k {
		dd := d[j : j+4 : j+4]
		_ = s[i+3*k]
		dd[0] = swapHalves(s[i])
		dd[1] = swapHalves(s[i+k])
		dd[2] = swapHalves(s[i+2*k])
		dd[3] = swapHalves(s[i+3*k])
	}
	for ; j < len(d); j, i = j+1, i+k {
		d[j] = swapHalves(s[i])
	}
}

// gather128 copies every k-th 16-byte element of src into dst.
func gather128(dst, src []byte, k int) {
	d, s := u64s(dst), u64s(src)
	for j, i := 0, 0; j+2 <= len(d); j, i = j+2, i+2*k {
		dd, ss := d[j:j+2:j+2], s[i:i+2:i+2]
		dd[0] = ss[0]
		dd[1] = ss[1]
	}
}

// gather128Swap copies every k-th complex128 of src into dst with each
// 8-byte half reversed.
func gather128Swap(dst, src []byte, k int) {
	d, s := u64s(dst), u64s(src)
	for j, i := 0, 0; j+2 <= len(d); j, i = j+2, i+2*k {
		dd, ss := d[j:j+2:j+2], s[i:i+2:i+2]
		dd[0] = bits.ReverseBytes64(ss[0])
		dd[1] = bits.ReverseBytes64(ss[1])
	}
}

// packBytewise is the slow, alignment-free loop: element j of size bytes
// comes from src[j*stride*size:], each unit bytes reversed (unit 1 copies).
// It serves unaligned buffers where mustAlign holds, and is the naive
// baseline of the benchmarks.
func packBytewise(dst, src []byte, size, unit, stride int) {
	for j := 0; j+size <= len(dst); j += size {
		e := src[j*stride : j*stride+size]
		for u := 0; u < size; u += unit {
			for b := 0; b < unit; b++ {
				dst[j+u+b] = e[u+unit-1-b]
			}
		}
	}
}
