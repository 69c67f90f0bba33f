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

// StdioBUFSIZ is glibc's BUFSIZ, the largest default stdio buffer: a
// FILE's buffer is st_blksize when that is smaller, else BUFSIZ.
const StdioBUFSIZ = 8192

// StdioDefaultBuffer is the buffer glibc gives a stream on a file system
// whose st_blksize is blksize: st_blksize, at most BUFSIZ (0: unknown).
func StdioDefaultBuffer(blksize int64) int64 {
	if blksize > 0 && blksize < StdioBUFSIZ {
		return blksize
	}
	return StdioBUFSIZ
}

// ReferenceSizes are the default buffers a recommendation is judged
// against, for iobench.Config.ReferenceSizes.
func ReferenceSizes() []int64 { return []int64{GfortranFormattedDefault, GfortranUnformattedDefault} }

// How Recommendation.BufferSize was chosen.
const (
	// BasisKnee: the knee, the smallest size that reaches the plateau
	// band (for a declining curve, the knee within the band).
	BasisKnee = "knee"
	// BasisSmallest: the curve is flat, so the smallest size measured.
	BasisSmallest = "smallest"
	// BasisNone: no knee was found; BufferSize is 0.
	BasisNone = "none"
	// BasisSafe: the knee is not established, so the smallest size
	// measured not worse than the plateau (knee.SafeSize), not the knee.
	BasisSafe = "safe_size"
)

// Recommendation is what iobench advises after a sweep.
type Recommendation struct {
	BufferSize int64  `json:"buffer_size"` // bytes per write(2) to use; 0 when no knee was found
	Summary    string `json:"summary"`     // one or two sentences for people
	Basis      string `json:"basis"`       // how BufferSize was chosen: BasisKnee, BasisSmallest, BasisSafe or BasisNone
	// Safe is the smallest size measured not worse than the plateau, when
	// BufferSize is it (BasisSafe); KneeWriteSize is then the knee.
	Safe          *knee.Safe `json:"safe,omitempty"`
	KneeWriteSize int64      `json:"knee_write_size,omitempty"`
	Shape         string     `json:"shape"` // the curve's shape, from knee.Result
	// KneeEstablished says whether the knee behind BufferSize is
	// established (knee.Estimate.Established); advice from a knee that is
	// not is marked so in Summary.
	KneeEstablished bool `json:"knee_established"`
	// Gfortran compares libgfortran's defaults with the curve.
	Gfortran Gfortran `json:"gfortran"`
	// BlockSizes compares the knee with what the file system reports.
	BlockSizes BlockSizes `json:"block_sizes"`
	// Apply says how to apply BufferSize in each runtime (HowToApply),
	// for the runtimes chosen; empty without a knee.
	Apply []Apply `json:"apply,omitempty"`
}

// Gfortran is libgfortran's side: its default buffers and what to export.
// Throughputs are 0 when the sweep did not cover the size; Note says so.
type Gfortran struct {
	UnformattedDefault          int64   `json:"unformatted_default"`           // 131072 bytes
	UnformattedDefaultMiBPerSec float64 `json:"unformatted_default_mib_per_s"` // median at that size
	FormattedDefault            int64   `json:"formatted_default"`             // GfortranFormattedDefault
	FormattedDefaultMiBPerSec   float64 `json:"formatted_default_mib_per_s"`   // median at that size
	// DefaultIsEnough: the unformatted default is within noise of the
	// plateau (Verdict VerdictEnough).
	DefaultIsEnough bool `json:"default_is_enough"`
	// Verdict on the unformatted default, and on the formatted one: a
	// Verdict* value.
	Verdict          string `json:"verdict"`
	FormattedVerdict string `json:"formatted_verdict"`
	// Export is set only when the plateau is significantly faster than
	// the default (Gain.Significant).
	Export string `json:"export,omitempty"` // export GFORTRAN_UNFORMATTED_BUFFER_SIZE=<bytes>
	// ExpectedGain is the plateau over the default (Gain.Ratio), set with
	// Export; Gain holds its interval and test.
	ExpectedGain    float64    `json:"expected_gain,omitempty"`
	Gain            *knee.Gain `json:"gain,omitempty"`
	FormattedExport string     `json:"formatted_export,omitempty"` // export GFORTRAN_FORMATTED_BUFFER_SIZE=<bytes>
	FormattedGain   *knee.Gain `json:"formatted_gain,omitempty"`
	Note            string     `json:"note,omitempty"` // what could not be compared, and why
}

// Verdicts on a runtime default.
const (
	// VerdictExport: the plateau is significantly faster; export the
	// recommended size.
	VerdictExport = "export"
	// VerdictEnough: the default is within noise of the plateau; no
	// change is needed.
	VerdictEnough = "enough"
	// VerdictUndecided: the default measured below the plateau, but too
	// few runs to show that the difference is real.
	VerdictUndecided = "undecided"
	// VerdictNotMeasured: the sweep did not run the default size.
	VerdictNotMeasured = "not_measured"
	// VerdictNoKnee: without a knee there is nothing to compare with.
	VerdictNoKnee = "no_knee"
)

// BlockSizes says which reported block size the curve agrees with.
type BlockSizes struct {
	FBsize     int64  `json:"f_bsize"`     // statvfs f_bsize
	StBlksize  int64  `json:"st_blksize"`  // stat st_blksize
	AgreesWith string `json:"agrees_with"` // "f_bsize", "st_blksize", "both", "neither"; "" when there is no knee to compare
	Note       string `json:"note"`
}

// Recommend advises a buffer size from the knee estimate k of runs (all
// runs of the direction the knee is for). It never returns nil: without a
// knee (a rising curve, too few points) the BufferSize is 0 and the
// Summary says why and what to do.
func Recommend(k knee.Estimate, runs []knee.Runs, fs fsinfo.Info) *Recommendation {
	c := newCurve(runs)
	r := &Recommendation{Shape: k.Shape, KneeEstablished: k.Established}
	r.BufferSize, r.Basis = bufferSize(k.Result)
	if s := knee.SafeSize(runs, k.Result); r.Basis == BasisKnee && !k.Established && s.Size > 0 {
		r.BufferSize, r.Basis, r.Safe, r.KneeWriteSize = s.Size, BasisSafe, &s, k.WriteSize
	}
	r.Gfortran = gfortran(k.Result, c, r.BufferSize)
	r.BlockSizes = blockSizes(k.Result, k.WriteSize, fs) // the knee's, whatever is recommended
	r.Summary = summary(k, c, r)
	return r
}

// Applicable says whether BufferSize is a size to set: from a knee, or
// the safe size beside one; not a flat curve's smallest, nor none.
func (r Recommendation) Applicable() bool { return r.Basis == BasisKnee || r.Basis == BasisSafe }

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
