package advice

import (
	"strings"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/units"
)

// Values of BlockSizes.AgreesWith.
const (
	AgreesFBsize    = "f_bsize"
	AgreesStBlksize = "st_blksize"
	AgreesBoth      = "both"
	AgreesNeither   = "neither"
)

// blockSizes compares the knee with f_bsize and st_blksize. A knee within
// one power-of-two step of a block size agrees with it: a sweep in powers
// of two cannot place the knee any closer than that.
func blockSizes(k knee.Result, buf int64, fs fsinfo.Info) BlockSizes {
	b := BlockSizes{FBsize: fs.BlockSize, StBlksize: fs.IOBlockSize}
	switch {
	case buf == 0:
		b.Note = "no knee to compare with the block sizes"
		return b
	case k.Shape == knee.ShapeFlat:
		b.Note = "the curve is flat: its knee is only the smallest size measured and says nothing about the block sizes"
		return b
	}
	b.AgreesWith = agreesWith(near(buf, fs.BlockSize), near(buf, fs.IOBlockSize))
	b.Note = blockNote(buf, []reported{{"f_bsize", fs.BlockSize}, {"st_blksize", fs.IOBlockSize}})
	return b
}

// near reports whether a and b, both positive, are within a factor 2.
func near(a, b int64) bool {
	return a > 0 && b > 0 && a <= 2*b && b <= 2*a
}

func agreesWith(fBsize, stBlksize bool) string {
	switch {
	case fBsize && stBlksize:
		return AgreesBoth
	case fBsize:
		return AgreesFBsize
	case stBlksize:
		return AgreesStBlksize
	default:
		return AgreesNeither
	}
}

type reported struct {
	name string
	size int64
}

// blockNote is "knee 16 MiB matches f_bsize 16 MiB; st_blksize 4 MiB is
// below it".
func blockNote(kneeSize int64, sizes []reported) string {
	var agree, others []string
	for _, r := range sizes {
		s := r.name + " " + units.FormatSize(r.size)
		switch {
		case r.size == kneeSize:
			agree = append(agree, s)
		case near(kneeSize, r.size):
			agree = append(agree, s+" (within a factor 2)")
		case r.size <= 0:
			others = append(others, r.name+" is unknown")
		case r.size < kneeSize:
			others = append(others, s+" is below it")
		default:
			others = append(others, s+" is above it")
		}
	}
	head := "knee " + units.FormatSize(kneeSize) + " matches neither block size"
	if len(agree) > 0 {
		head = "knee " + units.FormatSize(kneeSize) + " matches " + strings.Join(agree, " and ")
	}
	return strings.Join(append([]string{head}, others...), "; ")
}
