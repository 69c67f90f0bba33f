package report

import (
	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/record"
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
// knee (verdict.RuntimeCheck.Judge).
func (r *RuntimeReport) SetApply() {
	v, rows := r.check().Judge()
	r.Verdict, r.Apply = &v, rows
}

// check is what the report's runs give its verdict.
func (r *RuntimeReport) check() verdict.RuntimeCheck {
	return verdict.RuntimeCheck{Runtime: r.Runtime, FS: r.FS, Sweep: r.Sweep, Samples: r.Samples, Summary: r.Summary,
		DefaultBuffer: r.Config.DefaultBuffer, Incomplete: r.Incomplete}
}
