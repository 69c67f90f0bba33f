package advice

import (
	"slices"

	"github.com/iobench/iobench/workload"
)

// GfortranMarkers are the bytes libgfortran adds to each sequential
// unformatted record: a 4-byte length marker on each side. A formatted
// record (a line) has none beyond its newline.
const GfortranMarkers = 8

// GfortranSequentialCall is the write(2) size of libgfortran's
// sequential access with a buffer of buffer bytes and records of record
// bytes, marker bytes added to each: the smallest whole number of
// records reaching half the buffer, where it flushes (measured with
// gfortran 12: 65,592 = 911 x 72 for 64-byte unformatted records and the
// 128 KiB default, 66,048 for 1 KiB records, 524,304 with a 1 MiB
// buffer; 65,536 for 8-byte records, which reach half exactly).
func GfortranSequentialCall(buffer, record, marker int64) int64 {
	unit, half := record+marker, buffer/2
	if unit <= 0 || half <= 0 {
		return 0
	}
	return (half + unit - 1) / unit * unit
}

// recordUnits are the record sizes, markers included, whose sequential
// flushes make calls of call bytes with this buffer: each divides the
// call and less than one of them is left above half the buffer. A
// record longer than a quarter of the buffer is not looked for: such
// records make calls large enough not to matter. When the file's other
// calls (the last flush, of the records left) are whole records of some
// of them, only those are kept: that is what the trace shows of the
// record length.
func recordUnits(f workload.File, call, buffer, marker int64) []int64 {
	half := buffer / 2
	if call < half {
		return nil
	}
	units := slices.DeleteFunc(divisors(call), func(u int64) bool {
		return u <= marker || u <= call-half || u > half/gfortranSequentialSlack
	})
	whole := slices.DeleteFunc(slices.Clone(units), func(u int64) bool { return !wholeRecords(f, u) })
	if len(whole) > 0 {
		return whole
	}
	return units
}

// wholeRecords says whether every exact call of the file is a whole
// number of unit-byte records.
func wholeRecords(f workload.File, unit int64) bool {
	for _, c := range f.Sizes {
		if c.Exact() && c.Low%unit != 0 {
			return false
		}
	}
	return true
}

// divisors are n's divisors, ascending.
func divisors(n int64) []int64 {
	var lo, hi []int64
	for i := int64(1); i*i <= n; i++ {
		if n%i == 0 {
			lo = append(lo, i)
			if i != n/i {
				hi = append(hi, n/i)
			}
		}
	}
	slices.Reverse(hi)
	return append(lo, hi...)
}
