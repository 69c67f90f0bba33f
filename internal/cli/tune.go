package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/hostinfo"
	"github.com/iobench/iobench/preload"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

// Defaults of tune.
const (
	defaultTuneLimit = 10 * time.Minute
	defaultTuneAlpha = 0.05
	defaultMaxSaved  = 1 << 30 // bytes of files updated in place that tune saves and restores
)

const tuneExamples = `Runs the program (-- PROG ARGS...) once as app does (traced, untraced, a quick curve) to
find what it links and what app advises, then runs it with each candidate setting and unchanged,
in randomised blocks after two untimed baseline runs, with the data synced outside the timing,
until a sequential sign test (anytime-valid: its false-positive rate stays at --alpha however
often it looks) establishes a difference or --time-budget is reached; the winner is confirmed in
fresh blocks. One traced run per candidate checks that the setting changed the call sizes.
Files the program creates are removed before each run, files it appends to or updates in place
put back; the last run is a baseline run and its outputs are kept. The report goes to stderr
(or -o); the program's output of the timed runs goes to /dev/null.

   iobench tune -- ./prog input.nml                     # app's advice and its neighbours
   iobench tune --set OMP_NUM_THREADS=1 -- ./prog       # and a setting of your own
   iobench tune --time-budget 30m -- mpirun -np 4 ./prog # settings reach the ranks through -x
   iobench tune --format markdown -o tune.md --anonymize -- ./prog`

func (e *env) tuneCommand(onUsage cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{Name: "tune", Usage: "prove the advice on the program: run it with each candidate setting and unchanged until the difference is established",
		Description: tuneExamples, ArgsUsage: "-- PROG ARGS...", Flags: tuneFlags(), Action: e.tuneAction, OnUsageError: onUsage}
}

// tuneOpts are tune's flags as given; tuneOptions what they mean.
type tuneOpts struct {
	set                             opt[[]string]
	curveTime                       opt[time.Duration]
	alpha                           opt[float64]
	seed                            opt[uint64]
	maxSaved, curve, format, output opt[string]
	timeBudget, scratch             opt[string]
	anonymize                       opt[bool]
}

func tuneRows() []optRow[tuneOpts] {
	return []optRow[tuneOpts]{
		row(&cli.StringSliceFlag{Name: "set", Usage: "also try this environment setting, NAME=VALUE (repeat for more candidates)"}, func(o *tuneOpts) *opt[[]string] { return &o.set }),
		timeBudgetRow("stop the timed runs after this long (the expected duration is said before they start)", defaultTuneLimit.String(), "", func(o *tuneOpts) *opt[string] { return &o.timeBudget }),
		row(&cli.Float64Flag{Name: "alpha", Value: defaultTuneAlpha, Usage: "the false-positive rate of the whole tune, screening and confirmation"}, func(o *tuneOpts) *opt[float64] { return &o.alpha }),
		seedRow("seed of the run order, to replay one (0: a random seed, reported)", "", func(o *tuneOpts) *opt[uint64] { return &o.seed }),
		row(&cli.StringFlag{Name: "max-saved", Value: "1GiB", Usage: "the most bytes of the working directory's files tune copies before the first run, to put back a file the program updates in place (0: none)"}, func(o *tuneOpts) *opt[string] { return &o.maxSaved }),
		curveRow("price the program on this measured curve instead of a quick one", "", func(o *tuneOpts) *opt[string] { return &o.curve }),
		curveTimeRow("without --curve: the time the quick curve may take", func(o *tuneOpts) *opt[time.Duration] { return &o.curveTime }),
		formatRow(report.CmdTune, "text", "output format: %s", func(o *tuneOpts) *opt[string] { return &o.format }),
		outputRow("write the report to this new file (atomically) instead of stderr", func(o *tuneOpts) *opt[string] { return &o.output }),
		anonymizeRow(func(o *tuneOpts) *opt[bool] { return &o.anonymize }),
		scratchRow(func(o *tuneOpts) *opt[string] { return &o.scratch }),
	}
}

func tuneFlags() []cli.Flag { return rowFlags(tuneRows()) }

// tuneOptions are tune's flags, read once.
type tuneOptions struct {
	prog      programOptions
	sets      []string
	limit     time.Duration
	alpha     float64
	seed      uint64
	maxSaved  int64
	format    render.Format
	anonymize bool
}

func tuneOptionsOf(f tuneOpts, argv []string) (tuneOptions, error) {
	o := tuneOptions{sets: f.set.v, alpha: f.alpha.v, seed: f.seed.v, anonymize: f.anonymize.v}
	o.prog = programOptions{argv: argv, curve: f.curve.v, curveTime: f.curveTime.v, untracedBelow: defaultUntracedBelow, output: f.output.v, scratch: f.scratch.v}
	switch {
	case len(argv) == 0:
		return o, usagef("tune: name the program to run after --")
	case !(o.alpha > 0 && o.alpha < 0.5):
		return o, usagef("--alpha: %v must be in (0, 0.5)", o.alpha)
	case o.prog.curveTime <= 0:
		return o, usagef("--curve-time: %v is not a positive duration", o.prog.curveTime)
	}
	var err error
	if o.prog.scratch, err = absScratch(o.prog.scratch); err != nil {
		return o, err
	}
	for _, s := range o.sets {
		if err := setFlagValue(s); err != nil {
			return o, err
		}
	}
	limit, err := parseTimeBudget(f.timeBudget.v)
	if err != nil {
		return o, asUsage(err)
	}
	o.limit = limit
	saved, err := humanize.ParseBytes(f.maxSaved.v)
	if err != nil {
		return o, usagef("--max-saved: %q is not a size", f.maxSaved.v)
	}
	o.maxSaved = int64(saved)
	o.prog.copyFirst, o.prog.saveFirst = true, o.maxSaved
	if o.format, err = lookupFormat(report.CmdTune, f.format.v); err != nil {
		return o, err
	}
	if o.seed == 0 {
		o.seed = rand.Uint64()
	}
	return o, checkNewOutput(o.prog.output)
}

// tuneAction is `iobench tune [flags] -- PROG ARGS...`.
func (e *env) tuneAction(c *cli.Context) error {
	var f tuneOpts
	if err := readRows(c, tuneRows(), &f); err != nil {
		return err
	}
	argv, _ := programArgv(c)
	o, err := tuneOptionsOf(f, argv)
	if err != nil {
		return err
	}
	r, err := newProgramRun(c, e, o.prog)
	if err != nil {
		return asToolFailure(err)
	}
	defer r.close()
	t := &tuneRun{o: o, r: r, rng: rand.New(rand.NewPCG(o.seed, o.seed^0x9e3779b97f4a7c15))}
	rep, err := t.run(c.Context)
	if rep != nil {
		if werr := t.write(rep); werr != nil && err == nil {
			err = werr
		}
	}
	return asToolFailure(err)
}

// newTuneReport is the report's head.
func (t *tuneRun) newTuneReport(dir string) *report.TuneReport {
	return &report.TuneReport{Tool: toolInfo(), Command: commandLine(t.r.c), StartTime: time.Now(), Host: hostinfo.Read(),
		Argv: t.o.prog.argv, Dir: dir, Launcher: launcherOf(t.o.prog.argv), Alpha: t.o.alpha, Seed: t.o.seed, TimeBudget: t.o.limit.Seconds()}
}

// write renders the report to stderr or -o.
func (t *tuneRun) write(rep *report.TuneReport) error {
	if t.o.anonymize {
		a, err := report.AnonymizeTune(rep, os.Getenv("USER"))
		if err != nil {
			return err
		}
		rep = a
	}
	render := func(w io.Writer) error { return t.o.format.Tune(w, rep) }
	if t.o.prog.output == "" || t.o.prog.output == "-" {
		return render(t.r.stderr)
	}
	if err := outputError(report.WriteNew(t.o.prog.output, render)); err != nil {
		return err
	}
	fmt.Fprintf(t.r.stderr, "iobench: the tune report is in %s\n", t.o.prog.output)
	return nil
}

// buildShim builds the stdio shim in the scratch directory, or says why
// it cannot be used on this program.
func (t *tuneRun) buildShim(ctx context.Context, exe string) (*preload.Shim, string) {
	if ok, why := preload.Applicable(exe); !ok {
		return nil, why
	}
	s, err := preload.Build(ctx, t.r.tmp)
	if err != nil {
		return nil, err.Error() + ": the stdio buffer is not tried"
	}
	return &s, ""
}
