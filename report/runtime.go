package report

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/units"
	"github.com/iobench/iobench/verdict"
)

// RuntimeReport is everything one `iobench runtime` run produced: the
// runs of a runtime's writer, their summary against the write(2) sweep,
// and that sweep. Every runtime format renders it.
type RuntimeReport struct {
	Header
	Runtime    libcheck.Runtime  `json:"runtime"`
	Compiler   string            `json:"compiler"` // what built the writer, with its version line
	Config     RuntimeConfig     `json:"config"`
	Sweep      *libcheck.Sweep   `json:"sweep,omitempty"` // the write(2) sweep the figures are held against
	WarmupRan  bool              `json:"warmup_ran"`
	Samples    []libcheck.Sample `json:"samples"`
	Summary    libcheck.Summary  `json:"summary"`
	Apply      []advice.Apply    `json:"apply,omitempty"` // how to apply the sweep's knee, per runtime
	Warnings   []string          `json:"warnings"`
	Incomplete bool              `json:"incomplete"`
	Error      string            `json:"error,omitempty"`
	// ETAError is how far the progress display's time left was off.
	ETAError *record.ETAError `json:"eta_error,omitempty"`

	// Adaptive is what --repeat auto did; nil for fixed rounds.
	Adaptive *libcheck.Adaptive `json:"adaptive,omitempty"`
	// Verdict is what to set per layout and byte order, from the gains
	// measured through the runtime (SetApply).
	Verdict *verdict.Verdict `json:"verdict,omitempty"`
}

// RuntimeConfig is a runtime plan as reported.
type RuntimeConfig struct {
	Elements      int64    `json:"elements"` // float64 values per run
	TotalBytes    int64    `json:"total_bytes"`
	RecordBytes   int64    `json:"record_bytes"` // the records layout's record
	Layouts       []string `json:"layouts"`
	Converts      []string `json:"converts"`
	Buffers       []int64  `json:"buffers"`
	DefaultBuffer int64    `json:"default_buffer"` // the runtime's own, run without setting one
	Rounds        int      `json:"rounds"`         // rounds run; with RepeatAuto, the adaptive rounds'
	RepeatAuto    bool     `json:"repeat_auto"`
	// TimeBudgetSeconds is --time-budget; 0: DefaultBudgetRounds x the
	// first round.
	TimeBudgetSeconds float64 `json:"time_budget_seconds,omitempty"`
	Order             string  `json:"order"` // cases within a round
	Seed              uint64  `json:"seed"`
	Fsync             bool    `json:"fsync"`
	Sync              string  `json:"sync"`
	Warmup            bool    `json:"warmup"`
	Profile           string  `json:"profile,omitempty"`
	ProfileWhy        string  `json:"profile_reason,omitempty"`
}

// NewRuntimeConfig describes plan p for the report.
func NewRuntimeConfig(p libcheck.Plan) RuntimeConfig {
	c := RuntimeConfig{Elements: p.Elements, TotalBytes: p.Bytes(), RecordBytes: p.RecordBytes, DefaultBuffer: p.DefaultBuffer,
		Rounds: p.Rounds, RepeatAuto: p.Auto, TimeBudgetSeconds: p.TimeBudget.Seconds(), Order: "shuffled", Seed: p.Seed, Fsync: p.Fsync, Sync: string(p.Sync), Warmup: p.Warmup}
	for _, l := range p.Layouts {
		c.Layouts = append(c.Layouts, string(l))
	}
	for _, o := range p.Orders {
		c.Converts = append(c.Converts, o.String())
	}
	for _, cs := range p.Cases() {
		if len(c.Buffers) == 0 || c.Buffers[len(c.Buffers)-1] < cs.BufferBytes {
			c.Buffers = append(c.Buffers, cs.BufferBytes)
		}
	}
	return c
}

// SetApply fills the verdict and the how-to-apply block from the sweep's
// knee: every runtime that applies, this report's runtime's rows marked
// measured where it ran with their buffer, and kept at the default
// where the runtime measured their buffer slower.
func (r *RuntimeReport) SetApply() {
	v := r.verdict()
	r.Verdict = &v
	sw := r.Sweep
	if sw == nil || sw.KneeBytes <= 0 || sw.RecommendedBytes <= 0 {
		r.Apply = nil
		return
	}
	measured := map[string][]int64{applyName(r.Runtime): r.buffersRun()}
	r.Apply = advice.HowToApply(advice.ApplyFacts{Knee: sw.KneeBytes, Buffer: sw.RecommendedBytes, FS: r.FS, Measured: measured})
	r.Apply = keepSlower(r.Apply, v, applyName(r.Runtime))
}

// verdict judges each layout and byte order's advice by the gain the
// runtime measured for it: a buffer is set only for a real gain.
func (r *RuntimeReport) verdict() verdict.Verdict {
	v := verdict.Verdict{Incomplete: r.Incomplete, SizesPlanned: len(r.Summary.Cases)}
	for _, c := range r.Summary.Cases {
		if c.Runs > 0 {
			v.SizesRun++
		}
	}
	fraction := knee.DefaultFraction
	if sw := r.Sweep; sw != nil && sw.KneeBytes > 0 {
		v.Writes = &verdict.WritesVerdict{WriteSize: sw.RecommendedBytes, Established: sw.KneeEstablished}
		fraction = verdict.BandFraction(sw.Fraction)
	}
	for _, a := range r.Summary.Advice {
		d := runtimeDefault(a, r.Config.DefaultBuffer, fraction, r.Sweep)
		d.Runtime = applyName(r.Runtime)
		v.Defaults = append(v.Defaults, d)
		v.Advice = v.Advice || d.Basis != verdict.BasisNoKnee
	}
	if !v.Advice {
		v.NoAdvice = verdict.NoAdviceNoKnee
	}
	return v
}

// runtimeDefault is one layout and byte order's advice as a verdict.
func runtimeDefault(a libcheck.Advice, def int64, fraction float64, sw *libcheck.Sweep) verdict.DefaultVerdict {
	d := verdict.DefaultVerdict{Case: string(a.Layout) + ", " + a.Convert, Default: def, Buffer: a.BufferBytes, Gain: a.Gain, Measured: a.Measured}
	switch {
	case a.Verdict == libcheck.VerdictAny:
		d.Basis, d.Established = verdict.BasisAny, true
	case a.Verdict == libcheck.VerdictNoKnee:
		d.Basis = verdict.BasisNoKnee
	case a.KeepDefault:
		d.Basis, d.Established = verdict.BasisAboveKnee, sw != nil && sw.KneeEstablished
	case !a.Measured || a.Gain == nil:
		d.Basis, d.Gain, d.Measured = verdict.BasisNotRun, predictedGain(a.Sweep), false
	default:
		d.Basis, d.Established = verdict.JudgeGain(*a.Gain, fraction)
	}
	if d.Basis == verdict.BasisGain {
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
func keepSlower(rows []advice.Apply, v verdict.Verdict, rt string) []advice.Apply {
	judged := map[int64]string{} // buffer: "set", "slower" or "open"
	var def int64
	for _, d := range v.Defaults {
		def = d.Default
		switch {
		case d.Set > 0:
			judged[d.Buffer] = "set"
		case !d.Measured || judged[d.Buffer] == "set":
		case d.Basis == verdict.BasisSlower:
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
func (r *RuntimeReport) buffersRun() []int64 {
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
