// Package advice turns a measured curve and its knee into a buffer size
// recommendation, with what to set for libgfortran.
//
// The knee (package knee) is the smallest write size that reaches a
// fraction of the plateau. Recommend turns it into the buffer size to use,
// reads the curve at libgfortran's default buffer sizes to say whether the
// GFORTRAN_*_BUFFER_SIZE variables are worth setting, and compares the
// knee with the block sizes the file system reports, which libgfortran
// itself never looks at.
package advice

import (
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
)

// libgfortran's buffer sizes since GCC 9.2 (PR libfortran/91030, r273643):
// before that fix one 8192-byte buffer served all I/O.
const (
	// GfortranUnformattedDefault is the unformatted I/O buffer, in bytes;
	// GFORTRAN_UNFORMATTED_BUFFER_SIZE overrides it.
	GfortranUnformattedDefault = 131072
	// GfortranFormattedDefault is the formatted I/O buffer, in bytes;
	// GFORTRAN_FORMATTED_BUFFER_SIZE overrides it.
	GfortranFormattedDefault = 8192
)

// How Recommendation.BufferSize was chosen.
const (
	// BasisKnee: the knee, the smallest size that reaches the plateau
	// band (for a declining curve, the knee within the band).
	BasisKnee = "knee"
	// BasisSmallest: the curve is flat, so the smallest size measured.
	BasisSmallest = "smallest"
	// BasisNone: no knee was found; BufferSize is 0.
	BasisNone = "none"
)

// Recommendation is what iobench advises after a sweep.
type Recommendation struct {
	BufferSize int64  `json:"buffer_size"` // bytes per write(2) to use; 0 when no knee was found
	Summary    string `json:"summary"`     // one or two sentences for people
	Basis      string `json:"basis"`       // how BufferSize was chosen: BasisKnee, BasisSmallest or BasisNone
	Shape      string `json:"shape"`       // the curve's shape, from knee.Result
	// Gfortran compares libgfortran's defaults with the curve.
	Gfortran Gfortran `json:"gfortran"`
	// BlockSizes compares the knee with what the file system reports.
	BlockSizes BlockSizes `json:"block_sizes"`
}

// Gfortran is libgfortran's side: its default buffers and what to export.
// Throughputs are 0 when the sweep did not cover the size; Note says so.
type Gfortran struct {
	UnformattedDefault          int64   `json:"unformatted_default"`           // 131072 bytes
	UnformattedDefaultMiBPerSec float64 `json:"unformatted_default_mib_per_s"` // curve at that size
	FormattedDefault            int64   `json:"formatted_default"`             // 8192 bytes
	FormattedDefaultMiBPerSec   float64 `json:"formatted_default_mib_per_s"`   // curve at that size
	DefaultIsEnough             bool    `json:"default_is_enough"`             // default reaches the knee fraction
	Export                      string  `json:"export,omitempty"`              // export GFORTRAN_UNFORMATTED_BUFFER_SIZE=<bytes>
	ExpectedGain                float64 `json:"expected_gain,omitempty"`       // plateau / throughput at the default
	FormattedExport             string  `json:"formatted_export,omitempty"`    // export GFORTRAN_FORMATTED_BUFFER_SIZE=<bytes>
	Note                        string  `json:"note,omitempty"`                // what could not be compared, and why
}

// BlockSizes says which reported block size the curve agrees with.
type BlockSizes struct {
	FBsize     int64  `json:"f_bsize"`     // statvfs f_bsize
	StBlksize  int64  `json:"st_blksize"`  // stat st_blksize
	AgreesWith string `json:"agrees_with"` // "f_bsize", "st_blksize", "both", "neither"; "" when there is no knee to compare
	Note       string `json:"note"`
}

// Recommend advises a buffer size from the knee k of the median curve. It
// never returns nil: without a knee (a rising curve, too few points) the
// BufferSize is 0 and the Summary says why and what to do.
func Recommend(k knee.Result, curve []knee.Point, fs fsinfo.Info) *Recommendation {
	c := newCurve(curve)
	r := &Recommendation{Shape: k.Shape}
	r.BufferSize, r.Basis = bufferSize(k)
	r.Gfortran = gfortran(k, c, r.BufferSize)
	r.BlockSizes = blockSizes(k, r.BufferSize, fs)
	r.Summary = summary(k, c, r)
	return r
}

// bufferSize is the knee. For a declining curve that is the knee within
// the band, not the best size: any size up to DeclinesAbove is as good
// within the fraction, and the smallest costs the least memory.
func bufferSize(k knee.Result) (int64, string) {
	switch {
	case !k.Found:
		return 0, BasisNone
	case k.Shape == knee.ShapeFlat:
		return k.WriteSize, BasisSmallest
	default:
		return k.WriteSize, BasisKnee
	}
}

// fraction is k's fraction, defaulted as knee.Find does.
func fraction(k knee.Result) float64 {
	if k.Fraction > 0 && k.Fraction <= 1 {
		return k.Fraction
	}
	return knee.DefaultFraction
}

// reaches reports whether a size with throughput v counts as past the
// knee. Measured against the fraction of the plateau, or inside the band
// the knee rule accepted: that rule forgives a single outlier, and advice
// must not contradict the knee it reports.
func reaches(k knee.Result, size int64, v float64) bool {
	inBand := k.Found && size >= k.WriteSize && (k.DeclinesAbove == 0 || size <= k.DeclinesAbove)
	return inBand || v >= fraction(k)*k.PlateauMiBPerSec
}
