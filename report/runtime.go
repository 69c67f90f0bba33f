package report

import (
	"slices"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/runtimes"
)

// RuntimeReport is everything one `iobench runtime` run produced: the
// runs of a runtime's writer, their summary against the write(2) sweep,
// and that sweep. Every runtime format renders it.
type RuntimeReport struct {
	Header
	Runtime    runtimes.Runtime  `json:"runtime"`
	Compiler   string            `json:"compiler"` // what built the writer, with its version line
	Config     RuntimeConfig     `json:"config"`
	Sweep      *runtimes.Sweep   `json:"sweep,omitempty"` // the write(2) sweep the figures are held against
	WarmupRan  bool              `json:"warmup_ran"`
	Samples    []runtimes.Sample `json:"samples"`
	Summary    runtimes.Summary  `json:"summary"`
	Apply      []advice.Apply    `json:"apply,omitempty"` // how to apply the sweep's knee, per runtime
	Warnings   []string          `json:"warnings"`
	Incomplete bool              `json:"incomplete"`
	Error      string            `json:"error,omitempty"`
	// ETAError is how far the progress display's time left was off.
	ETAError *ETAError `json:"eta_error,omitempty"`

	// Adaptive is what --repeat auto did; nil for fixed rounds.
	Adaptive *runtimes.Adaptive `json:"adaptive,omitempty"`
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
func NewRuntimeConfig(p runtimes.Plan) RuntimeConfig {
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

// SetApply fills the how-to-apply block from the sweep's knee: every
// runtime that applies, this report's runtime's rows marked measured where
// it ran with their buffer.
func (r *RuntimeReport) SetApply() {
	sw := r.Sweep
	if sw == nil || sw.KneeBytes <= 0 || sw.RecommendedBytes <= 0 {
		r.Apply = nil
		return
	}
	measured := map[string][]int64{applyName(r.Runtime): r.buffersRun()}
	r.Apply = advice.HowToApply(advice.ApplyFacts{Knee: sw.KneeBytes, Buffer: sw.RecommendedBytes, FS: r.FS, Measured: measured})
}

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
func applyName(rt runtimes.Runtime) string {
	if rt == runtimes.Gfortran {
		return advice.RuntimeLibgfortran
	}
	return advice.RuntimeStdio
}
