package report

import (
	"encoding/json"
	"io"
	"time"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/hostinfo"
)

// TuneReporter writes a TuneReport in one format.
type TuneReporter func(w io.Writer, r *TuneReport) error

// TuneReport is what `iobench tune -- PROG` measured: the program run
// with each candidate setting and unchanged, in randomised blocks.
type TuneReport struct {
	Tool      Tool          `json:"tool"`
	Command   []string      `json:"command"`
	StartTime time.Time     `json:"start_time"`
	Host      hostinfo.Host `json:"host"`
	Argv      []string      `json:"argv"`
	Dir       string        `json:"dir"`                // where the program ran
	Launcher  string        `json:"launcher,omitempty"` // mpirun, srun: how settings reach the ranks
	// Alpha is the false-positive rate of the whole tune; Seed the run
	// order's, to replay it.
	Alpha      float64 `json:"alpha"`
	Seed       uint64  `json:"seed"`
	TimeBudget float64 `json:"time_budget_seconds"`
	// ExpectedSeconds is what tune said it would take at most, before
	// it started; Seconds what it took.
	ExpectedSeconds float64 `json:"expected_seconds"`
	Seconds         float64 `json:"seconds"`
	// Deterministic: the two warm-up baseline runs wrote the same bytes,
	// so a candidate's outputs are checked against the baseline's.
	Deterministic bool         `json:"deterministic_outputs"`
	Arms          []TuneArm    `json:"arms"` // the baseline first
	Confirm       *TuneVerdict `json:"confirm,omitempty"`
	// Winner is the arm confirmed faster, "" when none was.
	Winner  string    `json:"winner,omitempty"`
	Verdict string    `json:"verdict"`         // one sentence for people
	Apply   []string  `json:"apply,omitempty"` // the winner for a shell, a job script, the launcher
	Files   TuneFiles `json:"files"`
	Cannot  []string  `json:"cannot_set,omitempty"` // knobs tune cannot reach from outside, and why
	Stopped string    `json:"stopped,omitempty"`    // why it ended early: the time limit, an interruption
	Notes   []string  `json:"notes,omitempty"`
}

// TuneArm is the baseline or one candidate setting.
type TuneArm struct {
	Name    string    `json:"name"`             // "baseline", "GFORTRAN_UNFORMATTED_BUFFER_SIZE=262144"
	Env     []string  `json:"env,omitempty"`    // what was set in the program's environment
	Source  string    `json:"source,omitempty"` // app's advice, a neighbour of it, --set
	Runs    int       `json:"runs"`
	Seconds []float64 `json:"wall_seconds"`
	Median  float64   `json:"median_seconds"`
	Low     float64   `json:"median_low_seconds,omitempty"` // 95% interval of the median
	High    float64   `json:"median_high_seconds,omitempty"`
	// Effect is what the traced run showed the setting did to the call
	// sizes; NoEffect when it changed nothing.
	Effect   string `json:"effect,omitempty"`
	NoEffect bool   `json:"no_effect,omitempty"`
	// Excluded says why the arm was not timed on: no effect, a failed
	// run, outputs that differ from the baseline's.
	Excluded string `json:"excluded,omitempty"`
	// Screen is the arm against the baseline in the screening blocks.
	Screen *TuneVerdict `json:"screen,omitempty"`
	// Estimate is app's estimate of the ratio for this setting, when it
	// has one (the advised write size, priced on a curve).
	Estimate *TuneEstimate `json:"estimate,omitempty"`
}

// TuneVerdict is one sequential test of a candidate against the
// baseline: the ratio of wall times (below 1: faster), its anytime-valid
// interval, and whether it was decided.
type TuneVerdict struct {
	Arm       string  `json:"arm"`
	Blocks    int     `json:"blocks"`
	Ratio     float64 `json:"ratio"`
	Low       float64 `json:"ratio_low"`
	High      float64 `json:"ratio_high"`
	Bounded   bool    `json:"bounded"` // the interval is finite
	Decided   bool    `json:"decided"`
	Direction string  `json:"direction"` // faster, slower, none
	Alpha     float64 `json:"alpha"`
}

// TuneEstimate is app's figure for a candidate: the program's wall time
// less the estimated saving of its writes, over the wall time.
type TuneEstimate struct {
	Ratio         float64 `json:"ratio"`
	SavingSeconds float64 `json:"saving_seconds"`
	Basis         string  `json:"basis"`
}

// TuneFiles is what tune did to files so that each run starts from the
// same state.
type TuneFiles struct {
	Created  []string `json:"created,omitempty"`  // removed before each run; the last baseline run's kept
	Appended []string `json:"appended,omitempty"` // existed; cut back to their size before each run
	// Restored existed in the working tree, truncated or updated in
	// place: put back before each run from a copy made before the first.
	Restored []string `json:"restored,omitempty"`
	// SavedLate existed outside the tree, updated in place: saved after
	// app's traced run and put back to that; Rewritten, truncated by
	// every run, with no copy from before the first.
	SavedLate []string `json:"saved_after_app,omitempty"`
	Rewritten []string `json:"rewritten,omitempty"`
	// Inherited were written only through a descriptor the program
	// inherited (a shell's > out): left alone, tune's runs write to
	// /dev/null.
	Inherited []string `json:"inherited,omitempty"`
	Checked   []string `json:"checked,omitempty"` // the outputs whose checksums were compared
}

// AnonymizeTune replaces the host, user and the program's directory in
// every string of r, for a report posted in public.
func AnonymizeTune(r *TuneReport, user string) (*TuneReport, error) {
	a := newAnonymizer(&Report{Header: Header{FS: fsinfo.Info{Dir: r.Dir, ResolvedDir: r.Dir}, Host: r.Host}}, user)
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, err
	}
	raw, err = json.Marshal(a.tree(tree))
	if err != nil {
		return nil, err
	}
	out := &TuneReport{}
	return out, json.Unmarshal(raw, out)
}

// tree anonymizes every string of a decoded JSON value.
func (a *anonymizer) tree(v any) any {
	switch x := v.(type) {
	case string:
		return a.text(x)
	case []any:
		for i := range x {
			x[i] = a.tree(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = a.tree(x[k])
		}
	}
	return v
}
