package cli

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/iobench/iobench/abtest"
	"github.com/iobench/iobench/report"
)

// screenShare is the part of --time-budget screening may take; the rest
// is the winner's confirmation.
const screenShare = 2.0 / 3

// screen runs blocks of every timed arm in random order until one
// candidate is established faster (Bonferroni over the candidates), all
// are decided, or its share of the time limit is spent.
func (t *tuneRun) screen(ctx context.Context) (*arm, error) {
	arms := t.timed()
	if len(arms) < 2 {
		return nil, nil
	}
	tests, err := abtest.NewScreening(t.o.alpha, len(arms)-1)
	if err != nil {
		return nil, err
	}
	defer t.recordScreen(arms, tests)
	deadline := t.begin.Add(time.Duration(screenShare * float64(t.o.limit)))
	for {
		if err := t.block(ctx, arms, tests); err != nil {
			return nil, err
		}
		if i, ok := abtest.Pick(tests); ok {
			return arms[i+1], nil
		}
		if allDecided(tests) {
			return nil, nil
		}
		if time.Now().After(deadline) {
			t.rep.Stopped = fmt.Sprintf("screening reached its share of --time-budget %v with no candidate established", t.o.limit)
			return nil, nil
		}
	}
}

// block runs each arm once in a fresh random order and adds each
// candidate's log ratio to the baseline to its test.
func (t *tuneRun) block(ctx context.Context, arms []*arm, tests []*abtest.Sequential) error {
	plan, err := abtest.NewPlan(len(arms), t.rng)
	if err != nil {
		return err
	}
	walls := make([]float64, len(arms))
	for _, j := range plan.Block() {
		if j > 0 && tests[j-1] == nil {
			continue
		}
		if walls[j], err = t.once(ctx, arms[j], true); err != nil {
			return err
		}
	}
	for j := 1; j < len(arms); j++ {
		if tests[j-1] == nil {
			continue
		}
		if arms[j].excluded != "" {
			tests[j-1] = nil // failed or other outputs: never a win
			continue
		}
		d, err := abtest.LogRatio(walls[j], walls[0])
		if err == nil {
			err = tests[j-1].Add(d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func allDecided(tests []*abtest.Sequential) bool {
	for _, s := range tests {
		if s == nil {
			continue
		}
		if ok, _ := s.Decided(); !ok {
			return false
		}
	}
	return true
}

func (t *tuneRun) recordScreen(arms []*arm, tests []*abtest.Sequential) {
	for j := 1; j < len(arms); j++ {
		if s := tests[j-1]; s != nil {
			arms[j].rec.Screen = verdictOf(arms[j].c.name, s)
		}
	}
}

// verdictOf is a test's state for the report.
func verdictOf(name string, s *abtest.Sequential) *report.TuneVerdict {
	lo, hi := s.RatioInterval()
	ok, dir := s.Decided()
	v := &report.TuneVerdict{Arm: name, Blocks: s.N(), Ratio: s.Ratio(), Low: lo, High: hi, Bounded: s.Bounded(), Decided: ok, Direction: dir.String(), Alpha: s.Alpha()}
	if !v.Bounded {
		v.Low, v.High = 0, 0 // JSON has no infinity
	}
	return v
}

// confirm judges the screening winner on fresh blocks of it and the
// baseline alone, at the whole alpha.
func (t *tuneRun) confirm(ctx context.Context, w *arm) error {
	test, err := abtest.NewSequential(t.o.alpha)
	if err != nil {
		return err
	}
	pair := []*arm{t.arms[0], w}
	tests := []*abtest.Sequential{test}
	deadline := t.begin.Add(t.o.limit)
	defer func() { t.rep.Confirm = verdictOf(w.c.name, test) }()
	for {
		if err := t.block(ctx, pair, tests); err != nil {
			return err
		}
		if tests[0] == nil {
			t.rep.Verdict = fmt.Sprintf("%s won the screening but %s in the confirmation: no setting is shown to help", w.c.name, w.excluded)
			return nil
		}
		if ok, dir := test.Decided(); ok {
			t.confirmed(w, test, dir)
			return nil
		}
		if time.Now().After(deadline) {
			t.rep.Stopped = fmt.Sprintf("--time-budget %v reached while confirming %s", t.o.limit, w.c.name)
			t.rep.Verdict = fmt.Sprintf("%s looked faster in the screening (x%.3f) but the confirmation did not establish it within --time-budget %v: give tune more time", w.c.name, w.rec.Screen.Ratio, t.o.limit)
			return nil
		}
	}
}

// confirmed is the verdict of a decided confirmation.
func (t *tuneRun) confirmed(w *arm, s *abtest.Sequential, dir abtest.Direction) {
	lo, hi := s.RatioInterval()
	if dir != abtest.Faster {
		t.rep.Verdict = fmt.Sprintf("%s looked faster in the screening but is slower in fresh blocks (x%.3f, %s): keep the program as it is", w.c.name, s.Ratio(), rangeOf(lo, hi))
		return
	}
	t.rep.Winner = w.c.name
	base := median(t.arms[0].seconds)
	t.rep.Verdict = fmt.Sprintf("%s makes the program faster: x%.3f (%s) in %d fresh blocks, about %.3g s saved of %.3g s", w.c.name, s.Ratio(), rangeOf(lo, hi), s.N(), base*(1-s.Ratio()), base)
	if e := w.rec.Estimate; e != nil {
		t.rep.Verdict += fmt.Sprintf("; app estimated x%.3f", (base-e.SavingSeconds)/base)
	}
	t.rep.Apply = applyLines(w.c, t.o.prog.argv)
}

func rangeOf(lo, hi float64) string {
	if math.IsInf(hi, 1) || lo <= 0 {
		return "interval unbounded"
	}
	return fmt.Sprintf("%.3f-%.3f", lo, hi)
}

// noWinnerWords is the verdict when screening picked no candidate.
func (t *tuneRun) noWinnerWords() string {
	timed := t.timed()
	if len(timed) == 1 {
		var why []string
		for _, a := range t.arms[1:] {
			why = append(why, a.c.name+": "+a.excluded)
		}
		return "no candidate was timed: " + strings.Join(why, "; ")
	}
	if t.rep.Stopped != "" {
		return "no setting was shown to change the program's time within --time-budget: the difference, if any, is smaller than these runs can tell"
	}
	return "every candidate was established slower or no faster: keep the program as it is"
}

// applyLines set the winner for a shell, a job script and the launchers.
func applyLines(c candidate, argv []string) []string {
	if len(c.code) > 0 && c.source != sourceSet && strings.HasPrefix(c.name, "stdio") {
		return append(c.code, "# the shim that tried it ("+c.name+") is iobench's own, removed after the run; set the buffer in the program")
	}
	var out []string
	for _, e := range c.env {
		name, value, _ := strings.Cut(e, "=")
		out = append(out, "export "+name+"="+shellQuote(value)+"   # a shell or a job script")
	}
	env := strings.Join(c.env, ",")
	out = append(out, "mpirun -x "+strings.Join(c.env, " -x ")+" ...   # Open MPI's launcher",
		"srun --export=ALL,"+env+" ...   # Slurm")
	return append(c.code, out...)
}

// finish ends with a baseline run whose outputs are kept, unless the
// tune was interrupted: then the files are put back as each run found
// them. It fills in the arms' records.
func (t *tuneRun) finish(ctx context.Context, err error) error {
	var ferr error
	if len(t.arms) > 0 && t.guard != nil {
		if interrupted(ctx, err) {
			ferr = t.guard.reset()
			t.rep.Stopped = "interrupted: the program's files were put back as each run found them"
		} else if len(t.arms) > 1 {
			_, ferr = t.once(ctx, t.arms[0], false)
		}
	}
	base := median(t.arms[0].seconds)
	for _, a := range t.arms {
		r := a.record()
		if e := r.Estimate; e != nil && base > 0 {
			e.Ratio = (base - e.SavingSeconds) / base // held against the same runs as the measured ratio
			e.Basis += fmt.Sprintf("; the ratio is over the timed baseline's median, %.3g s", base)
		}
		t.rep.Arms = append(t.rep.Arms, r)
	}
	t.rep.Seconds = time.Since(t.begin).Seconds()
	return ferr
}

// record is an arm's report: its runs and the median's interval.
func (a *arm) record() report.TuneArm {
	r := a.rec
	r.Name, r.Env, r.Source, r.Excluded = a.c.name, a.c.env, a.c.source, a.excluded
	r.Runs, r.Seconds = len(a.seconds), append([]float64{}, a.seconds...)
	if len(a.seconds) > 0 {
		m, lo, hi, ok := abtest.MedianInterval(a.seconds, 0.95)
		r.Median = m
		if ok {
			r.Low, r.High = lo, hi
		}
	}
	return r
}

func median(xs []float64) float64 {
	m, _, _, _ := abtest.MedianInterval(xs, 0.95)
	return m
}
