package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// Binary unit sizes in bytes.
const (
	KiB int64 = 1 << (10 * (iota + 1))
	MiB
	GiB
	TiB
	PiB
)

// ErrSyntax is a value that is not a byte size at all.
var ErrSyntax = errors.New("not a byte size like 4096, 4K, 4KiB or 1MiB")

// DecimalError is a size written with a decimal unit (4KB, 1MB): iobench
// refuses it and suggests the binary size or the plain byte count.
type DecimalError struct {
	Value   string
	Binary  string // the same number with the binary unit, "4KiB"
	Bytes   int64  // what the binary spelling means, 4096
	Decimal int64  // what the decimal spelling means, 4000; 0 if not whole
}

func (e *DecimalError) Error() string {
	alt := ""
	if e.Decimal > 0 {
		alt = fmt.Sprintf(" or %d", e.Decimal)
	}
	return fmt.Sprintf("%q uses a decimal unit; write %s (%d bytes)%s", e.Value, e.Binary, e.Bytes, alt)
}

// RangeError is a size too large to hold, or not a whole number of bytes.
type RangeError struct {
	Value  string
	Reason string
}

func (e *RangeError) Error() string { return fmt.Sprintf("%q %s", e.Value, e.Reason) }

var binaryUnits = map[string]int64{"": 1, "k": KiB, "m": MiB, "g": GiB, "t": TiB, "p": PiB}

// ParseBytes reads a byte size: a plain number of bytes (4096, 4096B) or a
// number with a binary unit (4K, 4k, 4Ki, 4KiB, 1.5MiB). The number is
// decimal digits with an optional fraction; the result must be a whole
// number of bytes. Signs, exponents, hex and digit separators are refused.
func ParseBytes(s string) (int64, error) {
	num, unit := splitNumber(strings.TrimSpace(s))
	if num == "" || !plainDecimal(num) {
		return 0, fmt.Errorf("%q is %w", s, ErrSyntax)
	}
	scale, decimal, ok := unitScale(unit)
	if !ok {
		return 0, fmt.Errorf("%q is %w", s, ErrSyntax)
	}
	n, err := scaled(s, num, scale)
	if err != nil {
		return 0, err
	}
	if decimal {
		return 0, decimalError(s, num, unit, n)
	}
	return n, nil
}

// splitNumber cuts s into its leading number and the unit after it.
func splitNumber(s string) (num, unit string) {
	i := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// plainDecimal accepts digits with at most one point and a digit on some
// side of it: 4, 4.5, .5, 4. are numbers; "." is not.
func plainDecimal(num string) bool {
	intPart, frac, _ := strings.Cut(num, ".")
	return intPart+frac != "" && !strings.Contains(frac, ".")
}

// unitScale maps a unit to its size in bytes; decimal reports the refused
// decimal spellings (KB, MB, ...), which scale as the binary unit so the
// error can say what the binary spelling would mean.
func unitScale(unit string) (scale int64, decimal, ok bool) {
	u := strings.ToLower(unit)
	switch {
	case u == "b":
		return 1, false, true
	case strings.HasSuffix(u, "ib"):
		u = strings.TrimSuffix(u, "ib")
	case strings.HasSuffix(u, "i"):
		u = strings.TrimSuffix(u, "i")
	case len(u) == 2 && u[1] == 'b':
		u, decimal = u[:1], true
	}
	scale, ok = binaryUnits[u]
	if u == "" && unit != "" { // "iB", "i"
		return 0, false, false
	}
	return scale, decimal, ok
}

// scaled is num x scale, exactly, as a whole number of bytes.
func scaled(s, num string, scale int64) (int64, error) {
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, fmt.Errorf("%q is %w", s, ErrSyntax)
	}
	r.Mul(r, new(big.Rat).SetInt64(scale))
	if !r.IsInt() {
		return 0, &RangeError{Value: s, Reason: "is not a whole number of bytes"}
	}
	if !r.Num().IsInt64() {
		return 0, &RangeError{Value: s, Reason: "is too large"}
	}
	return r.Num().Int64(), nil
}

func decimalError(s, num, unit string, binary int64) error {
	e := &DecimalError{Value: s, Binary: num + strings.ToUpper(unit[:1]) + "iB", Bytes: binary}
	power := map[byte]int{'k': 1, 'm': 2, 'g': 3, 't': 4, 'p': 5}[byte(strings.ToLower(unit)[0])]
	r, _ := new(big.Rat).SetString(num)
	r.Mul(r, new(big.Rat).SetFloat64(math.Pow(1000, float64(power))))
	if r.IsInt() && r.Num().IsInt64() {
		e.Decimal = r.Num().Int64()
	}
	return e
}

// FormatSize writes a byte count in binary units when it is an exact
// multiple of one ("64 KiB", "16 MiB"), else in bytes ("1000 B").
func FormatSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{PiB, "PiB"}, {TiB, "TiB"}, {GiB, "GiB"}, {MiB, "MiB"}, {KiB, "KiB"}} {
		if n != 0 && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d B", n)
}

// FlagSize writes a byte count as a user would type it on the command
// line: "4KiB", "16MiB", or plain bytes.
func FlagSize(n int64) string {
	return strings.ReplaceAll(strings.TrimSuffix(FormatSize(n), " B"), " ", "")
}

// PowersOfTwo lists the powers of two from min to max inclusive.
func PowersOfTwo(min, max int64) []int64 {
	var sizes []int64
	for s := min; s > 0 && s <= max; s *= 2 {
		sizes = append(sizes, s)
	}
	return sizes
}

// IsPowerOfTwo reports whether n is a positive power of two.
func IsPowerOfTwo(n int64) bool { return n > 0 && bits.OnesCount64(uint64(n)) == 1 }
