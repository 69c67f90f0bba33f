package convert

import (
	"fmt"
	"runtime"
	"unsafe"
)

// kernel packs len(dst)/size elements from src, taking every stride-th one.
// Pack has checked the lengths: src holds exactly the bytes it reads.
type kernel func(dst, src []byte, stride int)

// Packer moves elements between a native-order array and a contiguous
// buffer in a file's byte order. It has no mutable state: one Packer may be
// used by many goroutines at once.
type Packer struct {
	t      Type
	o      Order
	stride int
	swap   bool
	pack   kernel // chosen once so the per-chunk call needs no dispatch
	unpack kernel // the stride-1 kernel; swapping is its own inverse
}

// NewPacker returns a Packer for elements of type t written in order o,
// taking every stride-th element of the source (stride 1 is contiguous).
func NewPacker(t Type, o Order, stride int) (*Packer, error) {
	if !t.valid() {
		return nil, fmt.Errorf("unknown type %v", t)
	}
	if o < Native || o > Swap {
		return nil, fmt.Errorf("unknown byte order %v", o)
	}
	if stride < 1 {
		return nil, fmt.Errorf("stride %d: must be at least 1", stride)
	}
	swap := o.NeedsSwap()
	return &Packer{
		t: t, o: o, stride: stride, swap: swap,
		pack:   pickKernel(t, swap, stride),
		unpack: pickKernel(t, swap, 1),
	}, nil
}

// Type returns the element type of p.
func (p *Packer) Type() Type { return p.t }

// Order returns the file byte order of p.
func (p *Packer) Order() Order { return p.o }

// Stride returns the element stride of p.
func (p *Packer) Stride() int { return p.stride }

// Identity reports whether Pack is a plain copy (no swap, stride 1): the
// caller can then write straight from the source without copying.
func (p *Packer) Identity() bool { return !p.swap && p.stride == 1 }

// Pack fills dst with n = len(dst)/p.Type().Size() elements: element j is
// read from src[j*stride*size:] and byte-swapped in SwapWidth units if the
// order needs it. src starts at the first element of the chunk and must hold
// at least ((n-1)*stride+1)*size bytes. Pack panics if len(dst) is not a
// multiple of the element size or src is too short, as copy would if it
// checked: both are programming errors.
func (p *Packer) Pack(dst, src []byte) {
	n := p.count("Pack", dst)
	if n == 0 {
		return
	}
	need := ((n-1)*p.stride + 1) * p.t.Size()
	if len(src) < need {
		panic(fmt.Sprintf("convert: Pack: src has %d bytes, %d elements at stride %d need %d",
			len(src), n, p.stride, need))
	}
	src = src[:need]
	if mustAlign && misaligned(dst, src) {
		packBytewise(dst, src, p.t.Size(), p.unit(), p.stride)
		return
	}
	p.pack(dst, src, p.stride)
}

// Unpack is the inverse of Pack for reads: it converts the contiguous file
// bytes in src (in p's order) to native elements in dst, n =
// len(dst)/p.Type().Size() of them. The stride is ignored: dst is
// contiguous. src must hold at least len(dst) bytes.
func (p *Packer) Unpack(dst, src []byte) {
	n := p.count("Unpack", dst)
	if len(src) < len(dst) {
		panic(fmt.Sprintf("convert: Unpack: src has %d bytes, %d elements need %d",
			len(src), n, len(dst)))
	}
	src = src[:len(dst)]
	if mustAlign && misaligned(dst, src) {
		packBytewise(dst, src, p.t.Size(), p.unit(), 1)
		return
	}
	p.unpack(dst, src, 1)
}

// count returns the number of elements dst holds.
func (p *Packer) count(op string, dst []byte) int {
	size := p.t.Size()
	if len(dst)%size != 0 {
		panic(fmt.Sprintf("convert: %s: len(dst) %d is not a multiple of the %v size %d",
			op, len(dst), p.t, size))
	}
	return len(dst) / size
}

// unit returns the number of bytes reversed together, 1 when nothing is.
func (p *Packer) unit() int {
	if !p.swap {
		return 1
	}
	return p.t.SwapWidth()
}

// mustAlign is true on architectures where the typed loads of the kernels
// could fault or trap on unaligned addresses. amd64, 386, arm64, ppc64x and
// s390x handle unaligned loads in hardware; elsewhere unaligned buffers take
// the slow byte loop instead.
const mustAlign = runtime.GOARCH != "amd64" && runtime.GOARCH != "386" &&
	runtime.GOARCH != "arm64" && runtime.GOARCH != "ppc64" &&
	runtime.GOARCH != "ppc64le" && runtime.GOARCH != "s390x"

// misaligned reports whether dst or src does not start on a multiple of 8.
// Some 4-byte kernels move two elements per 8-byte load, so 8 is asked of
// all; the kernels step in multiples of the element size, so the start
// decides.
func misaligned(dst, src []byte) bool {
	a := uintptr(unsafe.Pointer(unsafe.SliceData(dst))) | uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return a&7 != 0
}

// pickKernel selects the loop for one type, swap and stride case. Every
// case has a portable Go loop; archKernel may offer a faster one.
func pickKernel(t Type, swap bool, stride int) kernel {
	if k := archKernel(t, swap, stride); k != nil {
		return k
	}
	return portableKernel(t, swap, stride)
}

// portableKernel selects the Go loop for one type, swap and stride case.
func portableKernel(t Type, swap bool, stride int) kernel {
	if stride == 1 {
		switch {
		case !swap:
			return copyKernel
		case t.SwapWidth() == 4:
			return swap32
		default:
			return swap64
		}
	}
	switch {
	case t.Size() == 4 && swap:
		return gather32Swap
	case t.Size() == 4:
		return gather32
	case t.Size() == 16 && swap:
		return gather128Swap
	case t.Size() == 16:
		return gather128
	case !swap:
		return gather64
	case t.SwapWidth() == 4: // complex64: two 4-byte halves
		return gather64Swap32
	default:
		return gather64Swap
	}
}
