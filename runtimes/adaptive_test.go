package runtimes

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/libcheck"
)

// TestMeasureAdaptive runs adaptive rounds through the stdio writer on
// small data: at least MinAutoRounds rounds of every case, later rounds
// of the undecided cases with their defaults, within the budget.
func TestMeasureAdaptive(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count write(2) calls")
	}
	w := writerFor(t, libcheck.Stdio)
	dir := dataDirs(t)["disk"]
	if d, ok := dataDirs(t)["tmpfs"]; ok {
		dir = d
	}
	p := smallPlan(t, dir)
	p.DefaultBuffer = libcheck.DefaultBuffer(libcheck.Stdio, blockSize(t, dir))
	p.Buffers = []int64{p.DefaultBuffer, 64 << 10, 1 << 20}
	p.Auto, p.TimeBudget = true, 2*time.Second
	p.Sweep = libcheck.NewSweep("test", []knee.Runs{{Size: p.DefaultBuffer, MiBPerSec: []float64{500, 510, 490}},
		{Size: 64 << 10, MiBPerSec: []float64{1000, 1010, 990}}, {Size: 1 << 20, MiBPerSec: []float64{1000, 1010, 990}}}, 64<<10, 64<<10, true, 0.95)
	var planned [][]libcheck.Step
	obs := &recorder{round: func(_ int, s []libcheck.Step) { planned = append(planned, s) }}
	begin := time.Now()
	res, err := w.Measure(t.Context(), p, obs)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Adaptive
	if a == nil || a.Rounds < iobench.MinAutoRounds || a.Rounds != len(planned) || len(a.CasesPerRound) != a.Rounds {
		t.Fatalf("adaptive %+v after %d rounds planned", a, len(planned))
	}
	if !slices.Contains([]string{iobench.StopEstablished, iobench.StopBudget, iobench.StopMaxRounds}, a.Stop) {
		t.Errorf("stop %q", a.Stop)
	}
	t.Logf("%d rounds of %v cases, stopped: %s; undecided %v; %.2f s", a.Rounds, a.CasesPerRound, a.Stop, a.Undecided, time.Since(begin).Seconds())
	seq := 0
	for r, steps := range planned {
		var got []libcheck.Case
		for _, s := range steps {
			seq++
			if s.Round != r+1 || s.Seq != seq || res.Samples[seq-1].Step != s {
				t.Fatalf("step %+v: want round %d, seq %d, as measured", s, r+1, seq)
			}
			got = append(got, s.Case)
		}
		if r < iobench.MinAutoRounds {
			if len(got) != len(p.Cases()) {
				t.Errorf("round %d ran %d cases, want all %d", r+1, len(got), len(p.Cases()))
			}
			continue
		}
		for _, c := range got { // every gain run beside its default
			def := libcheck.Case{Layout: c.Layout, Convert: c.Convert, BufferBytes: p.DefaultBuffer, Default: true}
			if !slices.Contains(got, def) {
				t.Errorf("round %d runs %+v without its default", r+1, c)
			}
		}
	}
	if seq != len(res.Samples) {
		t.Errorf("%d samples of %d steps planned", len(res.Samples), seq)
	}
	if a.SpentSeconds > 1.5*a.BudgetSeconds && a.Rounds > iobench.MinAutoRounds {
		t.Errorf("spent %.2f s of a %.2f s budget", a.SpentSeconds, a.BudgetSeconds)
	}
	if left := dataFiles(t, dir); len(left) != 0 {
		t.Errorf("data files left: %v", left)
	}
}

// recorder is an Observer that keeps the rounds planned.
type recorder struct{ round func(int, []libcheck.Step) }

func (*recorder) WarmupStarted(libcheck.Case)                 {}
func (r *recorder) RoundPlanned(n int, steps []libcheck.Step) { r.round(n, steps) }
func (*recorder) StepStarted(libcheck.Step, int)              {}
func (*recorder) StepFinished(libcheck.Sample, int)           {}
