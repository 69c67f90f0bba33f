package verdict

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/units"
)

// RuntimeCheck is what a runtime check (iobench runtime) measured, as its
// verdict needs it: the runtime, the file system, the write(2) sweep its
// figures are held against, and the summary of its runs.
type RuntimeCheck struct {
	Runtime       libcheck.Runtime
	FS            fsinfo.Info
	Sweep         *libcheck.Sweep
	Samples       []libcheck.Sample
	Summary       libcheck.Summary
	DefaultBuffer int64 // the runtime's own buffer, run without setting one
	Incomplete    bool
}

// Judge is the check's verdict and its how-to-apply block from the
// sweep's knee: every runtime that applies, this check's runtime's rows
// marked measured where it ran with their buffer, and kept at the
// default where the runtime measured their buffer slower; no rows
// without a knee.
func (r RuntimeCheck) Judge() (Verdict, []advice.Apply) {
	v := r.verdictOf()
	sw := r.Sweep
	if sw == nil || sw.KneeBytes <= 0 || sw.RecommendedBytes <= 0 {
		return v, nil
	}
	measured := map[string][]int64{applyName(r.Runtime): r.buffersRun()}
	rows := advice.HowToApply(advice.ApplyFacts{Knee: sw.KneeBytes, Buffer: sw.RecommendedBytes, FS: r.FS, Measured: measured})
	return v, keepSlower(rows, v, applyName(r.Runtime))
}

// verdictOf judges each layout and byte order's advice by the gain the
// runtime measured for it: a buffer is set only for a real gain.
func (r RuntimeCheck) verdictOf() Verdict {
	v := Verdict{Incomplete: r.Incomplete, SizesPlanned: len(r.Summary.Cases)}
	for _, c := range r.Summary.Cases {
		if c.Runs > 0 {
			v.SizesRun++
		}
	}
	fraction := knee.DefaultFraction
	if sw := r.Sweep; sw != nil && sw.KneeBytes > 0 {
		v.Writes = &WritesVerdict{WriteSize: sw.RecommendedBytes, Established: sw.KneeEstablished}
		fraction = bandFraction(sw.Fraction)
	}
	for _, a := range r.Summary.Advice {
		d := runtimeDefault(a, r.DefaultBuffer, fraction, r.Sweep)
		d.Runtime = applyName(r.Runtime)
		v.Defaults = append(v.Defaults, d)
		v.Advice = v.Advice || d.Basis != BasisNoKnee
	}
	if !v.Advice {
		v.NoAdvice = NoAdviceNoKnee
	}
	return v
}

// runtimeDefault is one layout and byte order's advice as a
func runtimeDefault(a libcheck.Advice, def int64, fraction float64, sw *libcheck.Sweep) DefaultVerdict {
	d := DefaultVerdict{Case: string(a.Layout) + ", " + a.Convert, Default: def, Buffer: a.BufferBytes, Gain: a.Gain, Measured: a.Measured}
	switch {
	case a.Verdict == libcheck.VerdictAny:
		d.Basis, d.Established = BasisAny, true
	case a.Verdict == libcheck.VerdictNoKnee:
		d.Basis = BasisNoKnee
	case a.KeepDefault:
		d.Basis, d.Established = BasisAboveKnee, sw != nil && sw.KneeEstablished
	case !a.Measured || a.Gain == nil:
		d.Basis, d.Gain, d.Measured = BasisNotRun, predictedGain(a.Sweep), false
	default:
		d.Basis, d.Established = judgeGain(*a.Gain, fraction)
	}
	if d.Basis == BasisGain {
		d.Set = a.BufferBytes
	}
	return d
}

// predictedGain is the write(2) sweep's prediction of a gain, as a gain
// with its interval; nil without one.
func predictedGain(sp *libcheck.SweepPrediction) *knee.Gain {
	if sp == nil || sp.Gain <= 0 {
		return nil
	}
	return &knee.Gain{Ratio: sp.Gain, Low: sp.GainLow, High: sp.GainHigh}
}

// keepSlower keeps the default in rt's rows whose buffer the runtime
// measured and the verdict sets in no case: a setting is never one the
// runtime itself measured slower, or showed no gain for.
func keepSlower(rows []advice.Apply, v Verdict, rt string) []advice.Apply {
	judged := map[int64]string{} // buffer: "set", "slower" or "open"
	var def int64
	for _, d := range v.Defaults {
		def = d.Default
		switch {
		case d.Set > 0:
			judged[d.Buffer] = "set"
		case !d.Measured || judged[d.Buffer] == "set":
		case d.Basis == BasisSlower:
			judged[d.Buffer] = "slower"
		case judged[d.Buffer] == "":
			judged[d.Buffer] = "open"
		}
	}
	for i, row := range rows {
		b := rowBuffer(row)
		if row.Runtime != rt || row.Setting == "GFORTRAN_FORMATTED_BUFFER_SIZE" || judged[b] == "" || judged[b] == "set" {
			continue
		}
		why := map[string]string{"slower": "measured slower than the default", "open": "measured no established gain over the default"}[judged[b]]
		rows[i].Value = strings.Replace(row.Value, strconv.FormatInt(b, 10), strconv.FormatInt(def, 10), 1)
		rows[i].Comment = "the default: " + units.FormatSize(b) + " " + why
		rows[i].Note += " Through the runtime itself " + units.FormatSize(b) + " " + why + ", so the default is kept."
	}
	return rows
}

// rowBuffer is the buffer size a row sets: its last number.
func rowBuffer(row advice.Apply) int64 {
	m := lastNumber.FindAllString(row.Value, -1)
	if len(m) == 0 {
		return 0
	}
	n, _ := strconv.ParseInt(m[len(m)-1], 10, 64)
	return n
}

var lastNumber = regexp.MustCompile(`[0-9]+`)

// buffersRun are the buffer sizes of the cases that ran, the default's
// included.
func (r RuntimeCheck) buffersRun() []int64 {
	var out []int64
	for _, c := range r.Summary.Cases {
		if c.Runs > 0 && !slices.Contains(out, c.BufferBytes) {
			out = append(out, c.BufferBytes)
		}
	}
	return out
}

// applyName is a runtime's name in the how-to-apply block.
func applyName(rt libcheck.Runtime) string {
	if rt == libcheck.Gfortran {
		return advice.RuntimeLibgfortran
	}
	return advice.RuntimeStdio
}
