package verdict

import (
	"slices"
	"strconv"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

// Verdict is a report's answer, which it gives first: the write size a
// program's own writes should have, and per runtime default buffer what
// to set or that the default is fine, each with the gain behind it and
// whether that is established. It holds numbers and kinds only, all from
// the summary's statistics; renderers put it in words.
type Verdict struct {
	// Advice is false when the data support none; NoAdvice says why.
	Advice   bool   `json:"advice"`
	NoAdvice string `json:"no_advice,omitempty"` // a NoAdvice* value
	// Incomplete: the run failed or was interrupted; SizesRun of
	// SizesPlanned sizes were measured at least once.
	Incomplete   bool `json:"incomplete"`
	SizesRun     int  `json:"sizes_run"`
	SizesPlanned int  `json:"sizes_planned"`
	// Writes is the knee as advice for a program's own write(2) calls
	// (read(2) calls in a read sweep); nil without advice.
	Writes *WritesVerdict `json:"writes,omitempty"`
	// Defaults judge the runtimes' default buffers, in ApplyRuntimes
	// order.
	Defaults []DefaultVerdict `json:"defaults,omitempty"`
	// DefaultsEnough: nothing can be told apart, so every default is
	// enough: no size is measurably below the knee's band, nor any
	// default measurably slower than the plateau, with the noise measured.
	DefaultsEnough bool `json:"defaults_enough,omitempty"`
}

// Why a verdict gives no advice.
const (
	NoAdviceNoKnee       = "no_knee"       // no knee: no size to aim at
	NoAdviceSizesMissing = "sizes_missing" // an incomplete run missed sizes of its plan
)

// WritesVerdict is the size from which write(2) calls reach the plateau.
type WritesVerdict struct {
	WriteSize        int64   `json:"write_size"`
	CILow            int64   `json:"ci_low_write_size"`
	CIHigh           int64   `json:"ci_high_write_size"`
	Established      bool    `json:"established"`
	Shape            string  `json:"shape"`
	MiBPerSec        float64 `json:"mib_per_s"` // the knee's median
	PlateauMiBPerSec float64 `json:"plateau_mib_per_s"`
	DeclinesAbove    int64   `json:"declines_above,omitempty"`
	// SafeSize is the smallest size measured to be not worse than the
	// plateau: the low end of its throughput's ratio to the plateau's is
	// at least the knee fraction (SafeShareLow), with enough runs on
	// both sides. 0 when no size is shown so yet.
	SafeSize     int64   `json:"safe_write_size,omitempty"`
	SafeShare    float64 `json:"safe_share,omitempty"`     // its median share of the plateau
	SafeShareLow float64 `json:"safe_share_low,omitempty"` // the interval's low end
	// Recommended is the size the verdict and its rows aim at: the knee
	// when it is established or no size is shown safe, else SafeSize, as
	// RecommendedFrom says.
	Recommended     int64  `json:"recommended_write_size,omitempty"`
	RecommendedFrom string `json:"recommended_from,omitempty"` // FromKnee or FromSafe
}

// What WritesVerdict.Recommended is.
const (
	FromKnee = "knee"      // the knee (provisional when not established)
	FromSafe = "safe_size" // the smallest size measured not worse than the plateau
)

// DefaultVerdict judges one default buffer of one runtime.
type DefaultVerdict struct {
	Runtime string `json:"runtime"` // advice.RuntimeLibgfortran or advice.RuntimeStdio
	// Case is what the buffer serves: "unformatted", "formatted", or a
	// runtime check's layout and byte order ("records, big-endian").
	Case    string `json:"case"`
	Default int64  `json:"default"` // the default buffer, bytes
	// Set is the buffer to set; 0 keeps the default (Buffer when it is
	// the runtime's rule, not a choice: BasisAny).
	Set    int64 `json:"set"`
	Buffer int64 `json:"buffer"` // the buffer judged against the default
	// BufferShare is Buffer's measured median share of the plateau when
	// Buffer is the safe size (the knee not established), else 0.
	BufferShare float64 `json:"buffer_share,omitempty"`
	// Gain is Buffer over the default: from the write(2) calls of each
	// size (the plateau's runs over the default's), or measured through
	// the runtime itself (Measured); nil when the default or the buffer
	// was not measured.
	Gain     *knee.Gain `json:"gain,omitempty"`
	Measured bool       `json:"measured"`
	// DefaultMiBPerSec is the default's median write(2) throughput in a
	// sweep, 0 elsewhere; the share of the plateau it is reads it.
	DefaultMiBPerSec float64 `json:"default_mib_per_s,omitempty"`
	Established      bool    `json:"established"`
	Basis            string  `json:"basis"` // a Basis* value
}

// What a DefaultVerdict rests on: the first three are established, the
// rest say why it is not (and the default is kept until it is).
const (
	BasisGain      = "gain"        // a significant gain beyond the band: set it
	BasisBand      = "within_band" // the gain's interval lies within the band: keep the default
	BasisSlower    = "slower"      // measurably slower than the default: keep the default
	BasisAboveKnee = "above_knee"  // the default is at or above the knee: keep it (established with the knee)
	BasisAboveSafe = "above_safe"  // the default is at or above the safe size: keep it (established with it)
	BasisAny       = "any"         // the runtime's rule makes the buffer not matter
	BasisFewRuns   = "few_runs"    // fewer than knee.MinEstablishRuns runs on a side
	BasisPValue    = "p_value"     // the U test cannot tell the two apart
	BasisInterval  = "interval"    // different, but the interval reaches into the band
	BasisDip       = "dip"         // above the knee, yet measured below the plateau
	BasisNotRun    = "not_measured"
	BasisNoKnee    = "no_knee"
)

// verdictDefaults are the defaults a sweep's verdict judges: libgfortran's
// two buffers and C stdio's, which write(2) calls of their size show.
func verdictDefaults(blksize int64) []DefaultVerdict {
	return []DefaultVerdict{
		{Runtime: advice.RuntimeLibgfortran, Case: "unformatted", Default: advice.GfortranUnformattedDefault},
		{Runtime: advice.RuntimeLibgfortran, Case: "formatted", Default: advice.GfortranFormattedDefault},
		{Runtime: advice.RuntimeStdio, Default: advice.StdioDefaultBuffer(blksize)},
	}
}

// sweepVerdict is the verdict of a sweep's rows (the knee's direction,
// the first variant's) with knee k and recommendation rec, run with plan
// c; incomplete: the sweep stopped early.
func sweepVerdict(rows []record.SizeResult, k knee.Estimate, rec *advice.Recommendation, c record.Config, blksize int64, applyFor []string, incomplete bool) Verdict {
	v := Verdict{Incomplete: incomplete, SizesRun: len(rows), SizesPlanned: len(c.Sizes)}
	switch {
	case incomplete && len(rows) < len(c.Sizes):
		v.NoAdvice = NoAdviceSizesMissing
	case rec == nil || rec.BufferSize <= 0 || !k.Found:
		v.NoAdvice = NoAdviceNoKnee
	}
	if v.NoAdvice != "" {
		return v
	}
	v.Advice = true
	v.Writes = &WritesVerdict{WriteSize: kneeSize(rec), CILow: k.CILow, CIHigh: k.CIHigh, Established: k.Established,
		Shape: k.Shape, MiBPerSec: k.MiBPerSec, PlateauMiBPerSec: k.PlateauMiBPerSec, DeclinesAbove: k.DeclinesAbove}
	runs := Runs(rows, c.PrimaryMode())
	v.Writes.SafeSize, v.Writes.SafeShare, v.Writes.SafeShareLow = safeSize(runs, k)
	v.Writes.Recommended, v.Writes.RecommendedFrom = recommended(*v.Writes)
	if c.PrimaryMode() == record.ModeRead {
		return v // no write buffer to judge
	}
	for _, d := range verdictDefaults(blksize) {
		if len(applyFor) == 0 || slices.Contains(applyFor, d.Runtime) {
			v.Defaults = append(v.Defaults, judgeDefault(d, runs, k, *v.Writes))
		}
	}
	v.DefaultsEnough = nothingApart(runs, k, v.Defaults)
	return v
}

// kneeSize is the knee behind a recommendation: its buffer size, unless
// that is the measured safe size standing in for a knee not established.
func kneeSize(rec *advice.Recommendation) int64 {
	if rec.Basis == advice.BasisSafe {
		return rec.KneeWriteSize
	}
	return rec.BufferSize
}

// recommended is the size a verdict aims at: a knee that is not
// established gives way to the smallest size measured not worse than the
// plateau, so the advice rests on a measurement, not on the knee's guess.
func recommended(w WritesVerdict) (int64, string) {
	if w.Established || w.SafeSize == 0 {
		return w.WriteSize, FromKnee
	}
	return w.SafeSize, FromSafe
}

// safeSize is knee.SafeSize of the runs against the knee's plateau.
func safeSize(runs []knee.Runs, k knee.Estimate) (size int64, share, low float64) {
	s := knee.SafeSize(runs, k.Result)
	return s.Size, s.Share, s.ShareLow
}

// nothingApart: with the noise measured, the knee's interval starts at
// the smallest size (none is measurably below the band), the curve does
// not decline, and no default is measurably slower than the plateau.
func nothingApart(runs []knee.Runs, k knee.Estimate, defaults []DefaultVerdict) bool {
	g := knee.GroupRuns(runs)
	if len(g) == 0 || k.NoiseCV <= 0 || k.Status == knee.StatusOneRound || k.DeclinesAbove > 0 || k.CILow != g[0].Size {
		return false
	}
	for _, d := range defaults {
		if d.Gain != nil && d.Gain.Significant || d.Set > 0 {
			return false
		}
	}
	return true
}

// judgeDefault judges d against the plateau of k from the runs of the
// curve, for the size w recommends: against the knee when that is what w
// recommends, else by measurement alone.
func judgeDefault(d DefaultVerdict, runs []knee.Runs, k knee.Estimate, w WritesVerdict) DefaultVerdict {
	d.Buffer = w.Recommended
	at, plateau := runsAt(runs, d.Default), plateauRuns(runs, k.Result)
	if len(at) > 0 {
		g := knee.CompareGain(plateau, at, k.Fraction)
		d.Gain, d.DefaultMiBPerSec = &g, knee.Median(at)
	}
	if w.RecommendedFrom == FromSafe {
		d.BufferShare = w.SafeShare
		d.Basis, d.Established = judgeMeasured(d, k, w.SafeSize)
	} else {
		d.Basis, d.Established = judgeByKnee(d, k)
	}
	if d.Basis == BasisGain {
		d.Set = d.Buffer
	}
	return d
}

// judgeByKnee judges a default against the knee: one at or above it is
// kept, as sure as the knee is.
func judgeByKnee(d DefaultVerdict, k knee.Estimate) (basis string, established bool) {
	switch {
	case inBand(d.Default, k) && d.Gain != nil && d.Gain.Significant:
		return BasisDip, false
	case inBand(d.Default, k):
		return BasisAboveKnee, k.Established
	case d.Gain == nil:
		return BasisNotRun, false
	}
	return judgeGain(*d.Gain, k.Fraction)
}

// judgeMeasured judges a default by what was measured when the knee is
// not established: one at or above the safe size is kept, with it; one
// below by its own gain, whatever side of the unsure knee it is on.
func judgeMeasured(d DefaultVerdict, k knee.Estimate, safe int64) (basis string, established bool) {
	atOrAbove := d.Default >= safe && (k.DeclinesAbove == 0 || d.Default <= k.DeclinesAbove)
	switch {
	case atOrAbove && d.Gain != nil && d.Gain.Significant:
		return BasisDip, false
	case atOrAbove:
		return BasisAboveSafe, true
	case d.Gain == nil:
		return BasisNotRun, false
	}
	return judgeGain(*d.Gain, k.Fraction)
}

// inBand: size is at or above the knee, within its band.
func inBand(size int64, k knee.Estimate) bool {
	return size >= k.WriteSize && (k.DeclinesAbove == 0 || size <= k.DeclinesAbove)
}

// judgeGain says what a gain shows against the band 1/fraction, and
// whether that is established.
func judgeGain(g knee.Gain, fraction float64) (basis string, established bool) {
	band := 1 / bandFraction(fraction)
	switch {
	case g.Runs < knee.MinEstablishRuns || g.PlateauRuns < knee.MinEstablishRuns:
		return BasisFewRuns, false
	case g.P < knee.GainAlpha && g.Low > band:
		return BasisGain, true
	case g.P < knee.GainAlpha && g.High < 1:
		return BasisSlower, true
	case g.High <= band:
		return BasisBand, true
	case g.P >= knee.GainAlpha:
		return BasisPValue, false
	}
	return BasisInterval, false
}

// bandFraction is a knee fraction, defaulted as package knee does.
func bandFraction(f float64) float64 {
	if f > 0 && f <= 1 {
		return f
	}
	return knee.DefaultFraction
}

// runsAt are the runs of one size.
func runsAt(runs []knee.Runs, size int64) []float64 {
	for _, r := range knee.GroupRuns(runs) {
		if r.Size == size {
			return r.MiBPerSec
		}
	}
	return nil
}

// plateauRuns are the runs of the knee's band: what the recommended size
// reaches.
func plateauRuns(runs []knee.Runs, k knee.Result) []float64 { return knee.PlateauRuns(runs, k) }

// applyVerdict makes the how-to-apply rows say what the verdict says: a
// default the verdict keeps is kept, a buffer it sets is set, and without
// advice there are no rows.
func applyVerdict(rows []advice.Apply, v Verdict) []advice.Apply {
	if !v.Advice {
		return nil
	}
	for _, d := range v.Defaults {
		i := slices.IndexFunc(rows, func(a advice.Apply) bool { return a.Runtime == d.Runtime && a.Setting == defaultSetting(d) })
		if i < 0 {
			continue
		}
		rows[i] = applyDefault(rows[i], d)
	}
	return rows
}

// defaultSetting is the how-to-apply setting of a default's buffer.
func defaultSetting(d DefaultVerdict) string {
	switch {
	case d.Runtime == advice.RuntimeStdio:
		return "setvbuf"
	case d.Case == "formatted":
		return "GFORTRAN_FORMATTED_BUFFER_SIZE"
	}
	return "GFORTRAN_UNFORMATTED_BUFFER_SIZE"
}

// applyDefault is row as the verdict d has it.
func applyDefault(row advice.Apply, d DefaultVerdict) advice.Apply {
	value := d.Set
	if value == 0 {
		value = d.Default
	}
	switch {
	case d.Runtime == advice.RuntimeStdio && d.Set == 0 && d.Established:
		row.Comment = "not needed: the default buffer does as well"
		row.Note += " The sweep shows no gain over the default buffer to set it for."
	case d.Runtime == advice.RuntimeStdio && d.Set == 0:
		row.Comment = "not yet: the sweep shows no gain over the default buffer yet"
		row.Note += " The sweep does not establish a gain over the default buffer, so none is set yet."
	case d.Runtime == advice.RuntimeStdio:
	case row.Value != strconv.FormatInt(value, 10) && d.Set == 0:
		row.Value, row.Comment = strconv.FormatInt(value, 10), "the default: the sweep shows no gain over it yet"
		row.Note += " The sweep does not establish a gain over the default, so it is kept."
	default:
		row.Value = strconv.FormatInt(value, 10)
	}
	return row
}
