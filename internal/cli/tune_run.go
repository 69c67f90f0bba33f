package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/iobench/iobench/abtest"
	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/preload"
	"github.com/iobench/iobench/program"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload"
	"github.com/iobench/iobench/workload/strace"
)

// tuneRun is one tune: the program, its candidates, their runs.
type tuneRun struct {
	o     tuneOptions
	r     *programRun
	rng   *rand.Rand
	guard *fileGuard
	arms  []*arm // arms[0] is the baseline
	base  map[string]uint64
	begin time.Time
	rep   *report.TuneReport
	calls callShape // the baseline's calls to its largest file
}

// arm is the baseline or one candidate, and its timed runs.
type arm struct {
	c        candidate
	rec      report.TuneArm
	seconds  []float64
	excluded string
}

// run is the whole tune; the report holds what was measured even when
// it fails or is interrupted.
func (t *tuneRun) run(ctx context.Context) (*report.TuneReport, error) {
	dir, err := workDir()
	if err != nil {
		return nil, err
	}
	t.rep = t.newTuneReport(dir)
	t.sayPhases()
	t.r.afterFirst = t.guardFiles
	app, ob, err := t.r.measure(ctx)
	if err != nil {
		return nil, t.putBack(ctx, err)
	}
	t.calls = shapeOf(ob.input)
	t.setArms(ctx, app, ob.exe)
	t.begin = time.Now()
	err = t.measureArms(ctx, app)
	if rerr := t.finish(ctx, err); err == nil {
		err = rerr
	}
	return t.rep, err
}

// interrupted says whether err ended the tune by an interruption.
func interrupted(ctx context.Context, err error) bool {
	return err != nil && (errors.Is(err, iobench.ErrInterrupted) || ctx.Err() != nil)
}

// putBack leaves the files as before tune when app's part was
// interrupted: from the guard once the trace told which files the
// program writes, else every copied file that changed.
func (t *tuneRun) putBack(ctx context.Context, err error) error {
	if !interrupted(ctx, err) {
		return err
	}
	var perr error
	if t.guard != nil {
		perr = t.guard.reset()
	} else {
		perr = t.r.snap.restoreChanged()
	}
	if perr != nil {
		return errors.Join(err, fmt.Errorf("putting the program's files back: %w", perr))
	}
	return err
}

// guardFiles judges app's first run before its untraced run and its
// curve: a program that fails unchanged, or files tune could not put
// back, end the tune there.
func (t *tuneRun) guardFiles(ob observed) error {
	if ob.res.Failed() {
		return &programExit{status: ob.res.Status, err: fmt.Errorf("tune: the program fails unchanged (%s): there is nothing to tune", ob.res.Describe())}
	}
	if !ob.traced {
		return fmt.Errorf("tune: the program could not be traced (%s), so which files it writes is not known and tune could not put them back between runs; make strace work here (see above), then run tune again", ob.note)
	}
	g, err := newFileGuard(t.r, ob.input.Files, t.o.maxSaved)
	if err != nil {
		return err
	}
	t.guard, t.rep.Files = g, g.files
	return nil
}

// setArms makes the baseline and the candidates.
func (t *tuneRun) setArms(ctx context.Context, app *report.AppReport, exe string) {
	shim, why := t.buildShim(ctx, exe)
	cs, cannot := candidates(app, t.o.sets, shim, why, t.r.tmp)
	t.rep.Cannot = cannot
	t.arms = []*arm{{c: candidate{name: "baseline"}}}
	for _, c := range cs {
		a := &arm{c: c}
		a.rec.Estimate = estimateFor(app, c)
		t.arms = append(t.arms, a)
	}
}

// estimateFor is app's estimate for the advised candidate: the saving,
// and the ratio over app's wall time (the untraced run's, else the
// traced one's) until finish holds it against the timed baseline.
func estimateFor(app *report.AppReport, c candidate) *report.TuneEstimate {
	p, e := app.Program, app.Estimate
	if !c.advised || e == nil || p.Curve == nil || !p.Curve.Comparable {
		return nil
	}
	wall, basis := p.UntracedSeconds, fmt.Sprintf("the untraced run's %.3g s", p.UntracedSeconds)
	if wall <= 0 {
		wall, basis = p.TracedSeconds, fmt.Sprintf("the traced run's %.3g s, tracer included (%s)", p.TracedSeconds, cmp.Or(p.UntracedWhy, "no untraced run"))
	}
	if wall <= 0 {
		return nil
	}
	if rp := p.RuntimePrice; rp != nil && rp.Settled() {
		return &report.TuneEstimate{Ratio: (wall - rp.SavingSeconds) / wall, SavingSeconds: rp.SavingSeconds,
			Basis: fmt.Sprintf("app: %s's own writer at %s and %s buffers, scaled to the program's bytes, against %s",
				advice.RuntimeTitle(rp.Runtime), humanBytes(rp.Now.BufferBytes), humanBytes(rp.Advised.BufferBytes), basis)}
	}
	return &report.TuneEstimate{Ratio: (wall - e.SavingSeconds) / wall, SavingSeconds: e.SavingSeconds,
		Basis: fmt.Sprintf("app: the writes at the recommended size on the %s curve, against %s%s", p.Curve.Source, basis, unsettledWords(p.RuntimePrice))}
}

// unsettledWords says why a price through the runtime is not the estimate.
func unsettledWords(rp *report.AppRuntimePrice) string {
	if rp == nil {
		return ""
	}
	return fmt.Sprintf(" (the price through %s's writer, %.3g s (%.3g to %.3g), is not settled)", advice.RuntimeTitle(rp.Runtime), rp.SavingSeconds, rp.SavingLow, rp.SavingHigh)
}

// measureArms runs the warm-up pair, the traced checks, screening and
// confirmation.
func (t *tuneRun) measureArms(ctx context.Context, app *report.AppReport) error {
	if len(t.arms) == 1 {
		t.rep.Verdict = "no candidate setting: " + noCandidateWords(t.rep)
		return nil
	}
	t.sayExpected(app)
	if err := t.warmUp(ctx); err != nil {
		return err
	}
	if err := t.checkEffects(ctx); err != nil {
		return err
	}
	if err := t.warmCandidates(ctx); err != nil {
		return err
	}
	winner, err := t.screen(ctx)
	if err != nil || winner == nil {
		t.rep.Verdict = t.noWinnerWords()
		return err
	}
	return t.confirm(ctx, winner)
}

func noCandidateWords(rep *report.TuneReport) string {
	if len(rep.Cannot) > 0 {
		return "the program links nothing tune can set from outside (" + strings.Join(rep.Cannot, "; ") + "); give settings of your own with --set NAME=VALUE"
	}
	return "the program links no runtime with a buffer tune knows (libgfortran, Intel Fortran, C stdio, MPI-IO); give settings of your own with --set NAME=VALUE"
}

// warmUp runs the baseline twice, untimed: caches warm, and whether the
// outputs are the same bytes each time.
func (t *tuneRun) warmUp(ctx context.Context) error {
	var sums [2]map[string]uint64
	for i := range sums {
		if _, err := t.once(ctx, t.arms[0], false); err != nil {
			return err
		}
		s, err := t.guard.sums()
		if err != nil {
			return err
		}
		sums[i] = s
	}
	t.rep.Deterministic = fmt.Sprint(sums[0]) == fmt.Sprint(sums[1])
	if t.rep.Deterministic {
		t.base = sums[0]
		t.rep.Notes = append(t.rep.Notes, "the two warm-up baseline runs wrote the same bytes: every candidate's outputs are checked against them")
	} else {
		t.rep.Notes = append(t.rep.Notes, "the two warm-up baseline runs wrote different bytes (time stamps, random data): outputs are not compared")
	}
	return nil
}

// warmCandidates runs each candidate still timed once, untimed: its
// first run pays for what a setting changes once (a file's layout, a
// cache), as the baseline's warm-up pair did; a failure excludes it.
func (t *tuneRun) warmCandidates(ctx context.Context) error {
	for _, a := range t.timed()[1:] {
		if _, err := t.once(ctx, a, false); err != nil {
			return err
		}
	}
	return nil
}

// once runs one arm: files put back first, synced after, outside the
// timing. A candidate that fails or writes other bytes is excluded.
func (t *tuneRun) once(ctx context.Context, a *arm, timed bool) (float64, error) {
	if err := t.guard.reset(); err != nil {
		return 0, fmt.Errorf("putting the program's files back: %w", err)
	}
	if err := t.guard.syncOutputs(); err != nil {
		return 0, err
	}
	s, done, err := t.r.spec(nil, true)
	if err != nil {
		return 0, err
	}
	defer done()
	s.Argv, s.Env = withSettings(t.o.prog.argv, a.c.env)
	res, err := program.Run(ctx, s)
	if err != nil {
		return 0, err
	}
	if res.Interrupted() {
		return 0, fmt.Errorf("%w: %s %s", iobench.ErrInterrupted, t.o.prog.argv[0], res.Describe())
	}
	t.guard.syncOutputs()
	if res.Failed() {
		if a == t.arms[0] {
			return 0, fmt.Errorf("tune: the unchanged program failed in a timed run (%s): its times would not compare", res.Describe())
		}
		a.excluded = fmt.Sprintf("the program %s with this setting", res.Describe())
		return 0, nil
	}
	if err := t.checkOutputs(a); err != nil {
		return 0, err
	}
	wall := res.Wall.Seconds()
	if timed && a.excluded == "" {
		a.seconds = append(a.seconds, wall)
	}
	return wall, nil
}

// checkOutputs excludes a candidate whose outputs differ from the
// baseline's, when the baseline's are the same from run to run.
func (t *tuneRun) checkOutputs(a *arm) error {
	if t.base == nil || a == t.arms[0] {
		return nil
	}
	got, err := t.guard.sums()
	if err != nil {
		return err
	}
	for p, want := range t.base {
		if got[p] != want {
			a.excluded = fmt.Sprintf("its outputs differ from the baseline's (%s)", p)
			return nil
		}
	}
	return nil
}

// withSettings is the command line and environment of a run with env
// set: through the launcher's own flag too, so that ranks get them.
func withSettings(argv, env []string) ([]string, []string) {
	full := append(os.Environ(), env...)
	if len(env) == 0 {
		return argv, full
	}
	out := []string{argv[0]}
	switch program.Launcher(launcherOf(argv)) {
	case program.OpenMPI:
		for _, e := range env {
			out = append(out, "-x", e)
		}
	case program.Hydra:
		for _, e := range env {
			name, value, _ := strings.Cut(e, "=")
			out = append(out, "-genv", name, value)
		}
	case program.Slurm:
		out = append(out, "--export=ALL,"+strings.Join(env, ","))
	}
	return append(out, argv[1:]...), full
}

// launcherOf names an MPI launcher at argv[0], "" for a program.
func launcherOf(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return string(program.LauncherOf(argv[0], os.Getenv("PATH")))
}

// callShape is the calls to the program's largest file: its dominant
// size and their number.
type callShape struct {
	path          string
	size, calls   int64
	writes, sizes int
}

func shapeOf(in workload.Input) callShape {
	f := largestFile(in)
	if f == nil {
		return callShape{}
	}
	s := callShape{path: f.Path, calls: f.Writes, sizes: len(f.Sizes)}
	var most int64
	for _, c := range f.Sizes {
		if c.Calls > most {
			most, s.size = c.Calls, c.Low
		}
	}
	return s
}

// checkEffects runs each candidate once under strace: a setting that
// leaves the call sizes as they were had no effect and is not timed.
func (t *tuneRun) checkEffects(ctx context.Context) error {
	st, err := program.FindStrace(os.Getenv("PATH"))
	if err != nil || t.calls.path == "" {
		for _, a := range t.arms[1:] {
			a.rec.Effect = "not checked: " + cmpOr(err, "the program wrote no regular file")
		}
		return nil
	}
	for i, a := range t.arms[1:] {
		if a.excluded != "" {
			continue
		}
		if err := t.traceArm(ctx, st, a, i); err != nil {
			return err
		}
	}
	return nil
}

func cmpOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// traceArm is one traced run of a candidate, its calls held against
// the baseline's.
func (t *tuneRun) traceArm(ctx context.Context, st string, a *arm, i int) error {
	if err := t.guard.reset(); err != nil {
		return err
	}
	s, done, err := t.r.spec(nil, true)
	if err != nil {
		return err
	}
	defer done()
	env, args := a.c.env, strace.RecordFlags()
	loaded := filepath.Join(t.r.tmp, fmt.Sprintf("shim-%d", i))
	if a.c.shim { // to the program alone (strace -E), not into strace itself
		for _, kv := range append(slices.Clone(env), preload.ReportEnv+"="+loaded) {
			args = append(args, "-E", kv)
		}
		env = nil
	}
	s.Argv, s.Env = withSettings(t.o.prog.argv, env)
	res, out, err := t.r.tracedRun(ctx, s, st, args, fmt.Sprintf("trace-%d", i))
	if err != nil {
		return err
	}
	defer out.remove()
	if res.Interrupted() {
		return fmt.Errorf("%w: %s %s", iobench.ErrInterrupted, t.o.prog.argv[0], res.Describe())
	}
	if a.c.shim && !t.shimLoaded(a, loaded) {
		return nil
	}
	got, err := traceShape(out, t.calls.path)
	if err != nil {
		a.rec.Effect = "not checked: " + err.Error()
		return nil
	}
	a.rec.Effect += fmt.Sprintf("the calls to %s went from %d B (%d calls) to %d B (%d calls)", t.calls.path, t.calls.size, t.calls.calls, got.size, got.calls)
	if got.size == t.calls.size && math.Abs(float64(got.calls-t.calls.calls)) <= 0.01*float64(t.calls.calls) {
		a.rec.NoEffect = true
		a.rec.Effect = fmt.Sprintf("the calls to %s stayed %d B (%d calls)", t.calls.path, got.size, got.calls)
		if a.c.source == sourceSet {
			a.rec.Effect += "; timed all the same: a setting of your own may change the time and not the calls"
		} else {
			a.excluded = "the setting had no effect on the call sizes"
		}
	}
	return nil
}

// shimLoaded reads what the stdio shim reported of the traced run; a
// program it never loaded into (static, setuid) is not timed with it.
func (t *tuneRun) shimLoaded(a *arm, report string) bool {
	l, err := preload.ReadReport(report)
	os.Remove(report)
	switch {
	case err != nil:
		a.rec.Effect = "the shim's report: " + err.Error()
	case l.Processes == 0:
		a.rec.NoEffect, a.excluded = true, "the stdio shim did not load into the program (static or setuid, or it does not start through the dynamic loader)"
		return false
	default:
		a.rec.Effect = fmt.Sprintf("the shim loaded into %d process(es) and gave %d stream(s) the buffer; ", l.Processes, l.Files)
	}
	return true
}

// traceShape is the calls to path in a run's trace.
func traceShape(out traceOut, path string) (callShape, error) {
	tr, _, err := out.read()
	if err != nil {
		return callShape{}, err
	}
	in := workload.FromStrace("", tr, nil)
	for _, wf := range in.Files {
		if wf.Path == path {
			return shapeOf(workload.Input{Files: []workload.File{wf}}), nil
		}
	}
	return callShape{}, errors.New("the traced run did not write " + path)
}

// timed are the arms still timed: the baseline and the candidates not
// excluded.
func (t *tuneRun) timed() []*arm {
	out := []*arm{t.arms[0]}
	for _, a := range t.arms[1:] {
		if a.excluded == "" {
			out = append(out, a)
		}
	}
	return out
}

// sayPhases says, before anything runs, what tune will do and what
// bounds each part: the program's own time is known only once it ran.
func (t *tuneRun) sayPhases() {
	curve := fmt.Sprintf("a quick curve within --curve-time %v after its first %d rounds", t.o.prog.curveTime, iobench.MinAutoRounds)
	if t.o.prog.curve != "" {
		curve = "its price on --curve " + t.o.prog.curve
	}
	fmt.Fprintf(t.r.stderr, "iobench: tune: first as app does: the program traced, again untraced when the traced run took under %v, %s; then tune's own runs within --time-budget %v, their number said once the program's time is known\n",
		t.o.prog.untracedBelow, curve, t.o.limit)
}

// sayExpected says, before tune's own runs start, how long they take:
// the warm-ups, one traced check and one warm-up per candidate, the
// timed blocks, the last baseline run. The budget counts from the first
// warm-up, and a block under way is finished.
func (t *tuneRun) sayExpected(app *report.AppReport) {
	per, traced := app.Program.UntracedSeconds, app.Program.TracedSeconds
	if per <= 0 {
		per = traced
	}
	arms := len(t.timed())
	fixed := float64(2+(arms-1))*per + float64(arms-1)*traced
	left := max(t.o.limit-time.Duration(fixed*float64(time.Second)), 0)
	blocks := abtest.MaxBlocks(slices.Repeat([]float64{per}, arms), left)
	// the sequential tests stop sooner when a difference is clear; the
	// budget, the block under way and the last run bound it
	t.rep.ExpectedSeconds = math.Max(t.o.limit.Seconds(), fixed) + float64(arms)*per + per
	fmt.Fprintf(t.r.stderr, "iobench: tune: %d setting(s) and the baseline, %.3g s a run (%.3g s traced): %d warm-up and %d traced check run(s), then at most %d blocks of %d runs and a last baseline run: at most %s (--time-budget %v, the block under way, the last run), less when a difference is clear sooner\n",
		arms-1, per, traced, 2+(arms-1), arms-1, blocks, arms, secondsDuration(t.rep.ExpectedSeconds), t.o.limit)
}

// secondsDuration is seconds as a duration rounded for people.
func secondsDuration(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}
