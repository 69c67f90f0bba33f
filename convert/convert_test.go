package convert

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// littleHost is the test's own answer to the question hostLittle answers.
var littleHost = binary.NativeEndian.Uint64([]byte{1, 0, 0, 0, 0, 0, 0, 0}) == 1

// refOrder returns the encoding/binary order o stands for on this host.
func refOrder(o Order) binary.ByteOrder {
	switch {
	case o == BigEndian, o == Swap && littleHost:
		return binary.BigEndian
	case o == LittleEndian, o == Swap && !littleHost:
		return binary.LittleEndian
	}
	return binary.NativeEndian
}

// refValue encodes element i through encoding/binary's typed encoder.
func refValue(t *testing.T, typ Type, o Order, i int64) []byte {
	t.Helper()
	var v any
	switch typ {
	case Int32:
		v = int32(i)
	case Int64:
		v = i
	case Float32:
		v = float32(i)
	case Float64:
		v = float64(i)
	case Complex64:
		v = complex(float32(i), 0)
	case Complex128:
		v = complex(float64(i), 0)
	}
	var buf bytes.Buffer
	if err := binary.Write(&buf, refOrder(o), v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// refPack is the reference for Pack: element by element, byte by byte.
func refPack(typ Type, o Order, stride int, src []byte, n int) []byte {
	size, w := typ.Size(), typ.SwapWidth()
	out := make([]byte, 0, n*size)
	for j := range n {
		e := src[j*stride*size : j*stride*size+size]
		for u := 0; u < size; u += w {
			unit := bytes.Clone(e[u : u+w])
			if o.NeedsSwap() {
				for a, b := 0, w-1; a < b; a, b = a+1, b-1 {
					unit[a], unit[b] = unit[b], unit[a]
				}
			}
			out = append(out, unit...)
		}
	}
	return out
}

// diffBytes is cmp.Diff(want, got) with a fast path for the usual case.
func diffBytes(want, got []byte) string {
	if bytes.Equal(want, got) && (want == nil) == (got == nil) {
		return ""
	}
	return cmp.Diff(want, got)
}

// forEachArch runs f with the architecture kernels on and, where there are
// any, off, so the portable loops are tested on every machine.
func forEachArch(t *testing.T, f func(t *testing.T)) {
	modes := []bool{false}
	if archEnabled {
		modes = append(modes, true)
	}
	for _, on := range modes {
		t.Run(fmt.Sprintf("arch=%v", on), func(t *testing.T) {
			saved := archEnabled
			archEnabled = on
			defer func() { archEnabled = saved }()
			f(t)
		})
	}
}

// offsetBuf returns n bytes starting off bytes past an 8-byte boundary,
// preset to a pattern no kernel writes by accident.
func offsetBuf(n, off int) []byte {
	b := make([]byte, n+off+8)
	for i := range b {
		b[i] = 0xA5
	}
	return b[off : off+n : off+n]
}

func TestParseOrder(t *testing.T) {
	for _, o := range Orders() {
		got, err := ParseOrder(o.String())
		if err != nil || got != o {
			t.Errorf("ParseOrder(%q) = %v, %v; want %v, nil", o.String(), got, err, o)
		}
	}
	for _, s := range []string{"", "big", "BIG-ENDIAN", "little_endian"} {
		_, err := ParseOrder(s)
		want := fmt.Sprintf("unknown value %q (valid: native, big-endian, little-endian, swap)", s)
		if err == nil || err.Error() != want {
			t.Errorf("ParseOrder(%q) error = %v; want %s", s, err, want)
		}
	}
	if got := Order(9).String(); got != "Order(9)" {
		t.Errorf("Order(9).String() = %q", got)
	}
}

func TestParseType(t *testing.T) {
	for _, typ := range Types() {
		got, err := ParseType(typ.String())
		if err != nil || got != typ {
			t.Errorf("ParseType(%q) = %v, %v; want %v, nil", typ.String(), got, err, typ)
		}
	}
	for _, s := range []string{"", "int", "real*8", "Float64"} {
		_, err := ParseType(s)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("unknown value %q (valid: int32, int64,", s)) {
			t.Errorf("ParseType(%q) error = %v", s, err)
		}
	}
	if got := Type(-1).String(); got != "Type(-1)" {
		t.Errorf("Type(-1).String() = %q", got)
	}
}

func TestNeedsSwap(t *testing.T) {
	tests := []struct {
		o    Order
		want bool
	}{
		{Native, false},
		{BigEndian, littleHost},
		{LittleEndian, !littleHost},
		{Swap, true},
	}
	for _, tt := range tests {
		if got := tt.o.NeedsSwap(); got != tt.want {
			t.Errorf("%v.NeedsSwap() = %v; want %v", tt.o, got, tt.want)
		}
	}
}

func TestSizes(t *testing.T) {
	tests := []struct {
		typ         Type
		size, width int
	}{
		{Int32, 4, 4},
		{Int64, 8, 8},
		{Float32, 4, 4},
		{Float64, 8, 8},
		{Complex64, 8, 4},
		{Complex128, 16, 8},
	}
	for _, tt := range tests {
		if got := tt.typ.Size(); got != tt.size {
			t.Errorf("%v.Size() = %d; want %d", tt.typ, got, tt.size)
		}
		if got := tt.typ.SwapWidth(); got != tt.width {
			t.Errorf("%v.SwapWidth() = %d; want %d", tt.typ, got, tt.width)
		}
	}
}

func TestValue(t *testing.T) {
	indices := []int64{0, 1, -1, 255, 1<<24 + 1, 1 << 31, 1<<40 + 3, math.MaxInt64}
	for _, typ := range Types() {
		for _, o := range Orders() {
			for _, i := range indices {
				got := make([]byte, typ.Size())
				Value(got, typ, o, i)
				if diff := cmp.Diff(refValue(t, typ, o, i), got); diff != "" {
					t.Errorf("Value(%v, %v, %d) (-want +got):\n%s", typ, o, i, diff)
				}
			}
		}
	}
}

func TestFill(t *testing.T) {
	const n, first = 37, -5
	for _, typ := range Types() {
		got := make([]byte, n*typ.Size())
		Fill(got, typ, first)
		var want bytes.Buffer
		for i := range int64(n) {
			want.Write(refValue(t, typ, Native, first+i))
		}
		if diff := cmp.Diff(want.Bytes(), got); diff != "" {
			t.Errorf("Fill(%v, %d) (-want +got):\n%s", typ, first, diff)
		}
	}
}

// TestPack checks every type, order and stride twice: a Fill-ed source
// must give the bytes Value promises, and random bits (NaN payloads and
// all) must match the byte-by-byte reference. dst and src start on and off
// 8-byte boundaries.
func TestPack(t *testing.T) {
	forEachArch(t, func(t *testing.T) {
		for _, typ := range Types() {
			for _, o := range Orders() {
				for _, stride := range []int{1, 2, 3} {
					// 16 and 1003 reach the one-block tails of the
					// assembly loops.
					for _, n := range []int{0, 1, 7, 16, 1000, 1003} {
						for _, off := range []int{0, 1, 4} {
							name := fmt.Sprintf("%v/%v/stride=%d/n=%d/off=%d", typ, o, stride, n, off)
							t.Run(name, func(t *testing.T) { testPack(t, typ, o, stride, n, off) })
						}
					}
				}
			}
		}
	})
}

func testPack(t *testing.T, typ Type, o Order, stride, n, off int) {
	p, err := NewPacker(typ, o, stride)
	if err != nil {
		t.Fatal(err)
	}
	size := typ.Size()
	need := 0
	if n > 0 {
		need = ((n-1)*stride + 1) * size
	}
	src := offsetBuf(need, off)
	const first = 1 << 20
	Fill(src, typ, first)
	dst := offsetBuf(n*size, off)
	p.Pack(dst, src)
	want := []byte{}
	for j := range int64(n) {
		want = append(want, refValue(t, typ, o, first+j*int64(stride))...)
	}
	if diff := diffBytes(want, dst); diff != "" {
		t.Errorf("Pack of Fill (-want +got):\n%s", diff)
	}

	rng := rand.New(rand.NewPCG(uint64(n), uint64(stride)))
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	p.Pack(dst, src)
	if diff := diffBytes(refPack(typ, o, stride, src, n), dst); diff != "" {
		t.Errorf("Pack of random bits (-want +got):\n%s", diff)
	}
}

func TestUnpack(t *testing.T) {
	forEachArch(t, func(t *testing.T) {
		for _, typ := range Types() {
			for _, o := range Orders() {
				for _, n := range []int{0, 1, 7, 16, 1000, 1003} {
					t.Run(fmt.Sprintf("%v/%v/n=%d", typ, o, n), func(t *testing.T) {
						testUnpack(t, typ, o, n)
					})
				}
			}
		}
	})
}

func testUnpack(t *testing.T, typ Type, o Order, n int) {
	size := typ.Size()
	native := offsetBuf(n*size, 0)
	Fill(native, typ, 42)
	file := offsetBuf(n*size, 0)
	for j := range n {
		Value(file[j*size:], typ, o, 42+int64(j))
	}
	// Strided packers unpack contiguously: the stride must not matter.
	for _, stride := range []int{1, 3} {
		p, err := NewPacker(typ, o, stride)
		if err != nil {
			t.Fatal(err)
		}
		got := offsetBuf(n*size, 4)
		p.Unpack(got, file)
		if diff := diffBytes(native, got); diff != "" {
			t.Errorf("stride %d: Unpack of Value bytes (-want +got):\n%s", stride, diff)
		}
	}

	p, err := NewPacker(typ, o, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	x := make([]byte, n*size)
	for i := range x {
		x[i] = byte(rng.Uint32())
	}
	packed := offsetBuf(n*size, 1)
	p.Pack(packed, x)
	got := make([]byte, n*size)
	p.Unpack(got, packed)
	if diff := diffBytes(x, got); diff != "" {
		t.Errorf("Unpack(Pack(x)) (-want x +got):\n%s", diff)
	}
}

// TestPackBytewise covers the loop unaligned buffers take where mustAlign
// holds, which Pack never reaches on amd64.
func TestPackBytewise(t *testing.T) {
	for _, typ := range Types() {
		for _, o := range Orders() {
			for _, stride := range []int{1, 2, 3} {
				const n = 19
				src := make([]byte, ((n-1)*stride+1)*typ.Size())
				for i := range src {
					src[i] = byte(i * 7)
				}
				p, err := NewPacker(typ, o, stride)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]byte, n*typ.Size())
				packBytewise(got, src, typ.Size(), p.unit(), stride)
				if diff := cmp.Diff(refPack(typ, o, stride, src, n), got); diff != "" {
					t.Errorf("%v/%v/stride=%d (-want +got):\n%s", typ, o, stride, diff)
				}
			}
		}
	}
}

func TestNewPackerErrors(t *testing.T) {
	tests := []struct {
		typ    Type
		o      Order
		stride int
		want   string
	}{
		{Int32, Native, 0, "stride 0: must be at least 1"},
		{Int32, Native, -2, "stride -2: must be at least 1"},
		{Type(6), Native, 1, "unknown type Type(6)"},
		{Float64, Order(-1), 1, "unknown byte order Order(-1)"},
	}
	for _, tt := range tests {
		_, err := NewPacker(tt.typ, tt.o, tt.stride)
		if err == nil || err.Error() != tt.want {
			t.Errorf("NewPacker(%v, %v, %d) error = %v; want %s", tt.typ, tt.o, tt.stride, err, tt.want)
		}
	}
}

func TestIdentity(t *testing.T) {
	tests := []struct {
		o      Order
		stride int
		want   bool
	}{
		{Native, 1, true},
		{Native, 2, false},
		{Swap, 1, false},
		{BigEndian, 1, !littleHost},
		{LittleEndian, 1, littleHost},
	}
	for _, tt := range tests {
		p, err := NewPacker(Float64, tt.o, tt.stride)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Identity(); got != tt.want {
			t.Errorf("%v stride %d: Identity() = %v; want %v", tt.o, tt.stride, got, tt.want)
		}
	}
}

func TestPackPanics(t *testing.T) {
	p, err := NewPacker(Int64, Swap, 2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		f        func()
		contains string
	}{
		{"ragged dst", func() { p.Pack(make([]byte, 12), make([]byte, 64)) }, "not a multiple"},
		// 3 elements at stride 2 need (2*2+1)*8 = 40 bytes.
		{"short src", func() { p.Pack(make([]byte, 24), make([]byte, 39)) }, "need 40"},
		{"short unpack src", func() { p.Unpack(make([]byte, 24), make([]byte, 16)) }, "need 24"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tt.contains) {
					t.Errorf("panic %v; want one containing %q", r, tt.contains)
				}
			}()
			tt.f()
		})
	}
	p.Pack(make([]byte, 24), make([]byte, 40)) // exactly enough: no panic
}
