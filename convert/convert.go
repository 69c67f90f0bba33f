package convert

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
)

// hostLittle reports whether this machine stores integers little-endian.
var hostLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Order is the byte order requested for the file.
type Order int

// The byte orders a file can be written in.
const (
	Native       Order = iota // the host's own order: no conversion
	BigEndian                 // most significant byte first (-fconvert=big-endian)
	LittleEndian              // least significant byte first (-fconvert=little-endian)
	Swap                      // the opposite of the host's order (-fconvert=swap)
)

var orderNames = [...]string{"native", "big-endian", "little-endian", "swap"}

// Orders returns every Order, in declaration order.
func Orders() []Order { return []Order{Native, BigEndian, LittleEndian, Swap} }

// ParseOrder parses the name String returns.
func ParseOrder(s string) (Order, error) { return parseName[Order](s, orderNames[:]) }

// String returns the name of o as ParseOrder accepts it.
func (o Order) String() string { return nameOf(o, orderNames[:], "Order") }

// NeedsSwap reports whether writing in order o on this host reverses the
// bytes of each element.
func (o Order) NeedsSwap() bool {
	switch o {
	case BigEndian:
		return hostLittle
	case LittleEndian:
		return !hostLittle
	case Swap:
		return true
	default:
		return false
	}
}

// byteOrder returns the encoding/binary order that o denotes on this host.
func (o Order) byteOrder() binary.ByteOrder {
	if o.NeedsSwap() == hostLittle {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// Type is the element type.
type Type int

// The element types, named after Go's types; Fortran's INTEGER(4),
// INTEGER(8), REAL(4), REAL(8), COMPLEX(4) and COMPLEX(8).
const (
	Int32 Type = iota
	Int64
	Float32
	Float64
	Complex64
	Complex128
)

var typeNames = [...]string{"int32", "int64", "float32", "float64", "complex64", "complex128"}

// Types returns every Type, in declaration order.
func Types() []Type { return []Type{Int32, Int64, Float32, Float64, Complex64, Complex128} }

// ParseType parses the name String returns.
func ParseType(s string) (Type, error) { return parseName[Type](s, typeNames[:]) }

// String returns the name of t as ParseType accepts it.
func (t Type) String() string { return nameOf(t, typeNames[:], "Type") }

func (t Type) valid() bool { return t >= 0 && int(t) < len(typeNames) }

// parseName is the value whose name is s, names being every value's in
// declaration order, or the error that lists them.
func parseName[T ~int](s string, names []string) (T, error) {
	if i := slices.Index(names, s); i >= 0 {
		return T(i), nil
	}
	return 0, fmt.Errorf("unknown value %q (valid: %s)", s, strings.Join(names, ", "))
}

// nameOf is v's name in names, or kind(v) for a value that has none.
func nameOf[T ~int](v T, names []string, kind string) string {
	if v < 0 || int(v) >= len(names) {
		return fmt.Sprintf("%s(%d)", kind, int(v))
	}
	return names[v]
}

// Size returns the size of one element in bytes.
func (t Type) Size() int {
	switch t {
	case Int64, Float64, Complex64:
		return 8
	case Complex128:
		return 16
	default:
		return 4
	}
}

// SwapWidth returns the size of the unit whose bytes are reversed: a complex
// number is two reals, each swapped on its own.
func (t Type) SwapWidth() int {
	switch t {
	case Int64, Float64, Complex128:
		return 8
	default:
		return 4
	}
}

// Fill writes the values first, first+1, ... as elements of type t in native
// order into dst, whose length must be a multiple of t.Size(). Complex
// values have the index as real part and zero as imaginary part. Values are
// converted as Go converts an int64: int32 wraps, float32 rounds above 2^24;
// Value applies the same conversions, so verification stays exact.
func Fill(dst []byte, t Type, first int64) {
	ne := binary.NativeEndian
	switch t {
	case Int32:
		for k := 0; k+4 <= len(dst); k += 4 {
			ne.PutUint32(dst[k:], uint32(int32(first)))
			first++
		}
	case Int64:
		for k := 0; k+8 <= len(dst); k += 8 {
			ne.PutUint64(dst[k:], uint64(first))
			first++
		}
	case Float32, Complex64:
		step := t.Size()
		for k := 0; k+step <= len(dst); k += step {
			ne.PutUint32(dst[k:], math.Float32bits(float32(first)))
			clear(dst[k+4 : k+step])
			first++
		}
	case Float64:
		for k := 0; k+8 <= len(dst); k += 8 {
			ne.PutUint64(dst[k:k+8], math.Float64bits(float64(first)))
			first++
		}
	case Complex128:
		step := t.Size()
		for k := 0; k+step <= len(dst); k += step {
			ne.PutUint64(dst[k:], math.Float64bits(float64(first)))
			clear(dst[k+8 : k+step])
			first++
		}
	}
}

// Value encodes element i of type t in order o into dst, which must hold
// t.Size() bytes: the bytes a file written with Fill and order o holds for
// element i, for verification.
func Value(dst []byte, t Type, o Order, i int64) {
	bo := o.byteOrder()
	dst = dst[:t.Size()]
	switch t {
	case Int32:
		bo.PutUint32(dst, uint32(int32(i)))
	case Int64:
		bo.PutUint64(dst, uint64(i))
	case Float32, Complex64:
		bo.PutUint32(dst, math.Float32bits(float32(i)))
		clear(dst[4:])
	case Float64, Complex128:
		bo.PutUint64(dst, math.Float64bits(float64(i)))
		clear(dst[8:])
	}
}
