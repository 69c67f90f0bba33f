package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/internal/progress"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
	"github.com/iobench/iobench/runtimes"
	"github.com/iobench/iobench/units"
	"github.com/iobench/iobench/verdict"
)

// Defaults of `iobench runtime`.
const (
	// runtimeDefaultBytes is the data per run: 20 cases a round make the
	// sweep's 2 GB far too long for a check.
	runtimeDefaultBytes = 256 << 20
	// quickSweepRounds are the rounds of the write(2) sweep run without
	// --from: enough for an interval on each size.
	quickSweepRounds = iobench.MinAutoRounds
	// largeBuffer ends the default buffer list.
	largeBuffer = 16 << 20
)

const runtimeExamples = `Compiles a small writer with the system compiler (gfortran, or cc for C stdio) and runs it with each
buffer size, native and big-endian, writing one large array per file and small records: MiB/s and the
write(2) calls the runtime really made, the gain over its default buffer, and beside it the gain the
write(2) sweep predicted (--from a saved sweep, else a quick sweep of its own on the same directory).

   iobench runtime gfortran --dir /gpfs/x                        # buffers 8 KiB, default, knee, 2 x knee, 16 MiB
   iobench runtime gfortran --dir /gpfs/x --from gpfs.json       # hold it against a saved sweep
   iobench runtime stdio --dir . --size 64MiB --buffers 4K,1M    # fwrite through setvbuf buffers
   iobench runtime gfortran --dir /tmp --convert big-endian --format json -o be.json`

func (e *env) runtimeCommand(onUsage cli.OnUsageErrorFunc) *cli.Command {
	sub := func(rt libcheck.Runtime, usage string) *cli.Command {
		return &cli.Command{Name: string(rt), Usage: usage, Description: runtimeExamples, Flags: runtimeFlags(),
			Action: func(c *cli.Context) error { return e.runtimeAction(c, rt) }, OnUsageError: onUsage}
	}
	return &cli.Command{
		Name:        "runtime",
		Usage:       "check the advice through a real runtime: libgfortran (gfortran), C stdio (stdio), MPI-IO (mpiio) or HDF5 (hdf5)",
		Description: runtimeExamples,
		Subcommands: []*cli.Command{
			sub(libcheck.Gfortran, "write through libgfortran's unformatted stream I/O (GFORTRAN_UNFORMATTED_BUFFER_SIZE, GFORTRAN_CONVERT_UNIT)"),
			sub(libcheck.Stdio, "write through C stdio: fwrite with a setvbuf buffer"),
			e.libraryCommand(libcheck.MPIIO, onUsage),
			e.libraryCommand(libcheck.HDF5, onUsage),
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				_, err := libcheck.ParseRuntime(c.Args().First())
				return usagef("runtime: %w", err)
			}
			return usagef("runtime: name the runtime: iobench runtime gfortran, stdio, mpiio or hdf5")
		},
		OnUsageError: onUsage,
	}
}

// runtimeOpts are the flags of `iobench runtime`, read once: those of
// the sweep's table in sweep, the runtime's own beside them.
type runtimeOpts struct {
	sweep                         sweepOpts
	buffers, record, from, format opt[string]
}

// inSweep is where runtimeOpts hold the sweep's table's values.
func inSweep(o *runtimeOpts) *sweepOpts { return &o.sweep }

func runtimeFlags() []cli.Flag { return rowFlags(runtimeRows()) }

func runtimeRows() []optRow[runtimeOpts] {
	rows := sharedRows(inSweep, dirSetting(), countSetting(), sizeSetting())
	rows = append(rows, row(&cli.StringFlag{Name: "buffers", Usage: "buffer sizes to run, e.g. 8KiB,128KiB,1MiB", DefaultText: "8 KiB, the runtime's default, the recommended size and twice it, 16 MiB"},
		func(o *runtimeOpts) *opt[string] { return &o.buffers }))
	rows = append(rows, sharedRows(inSweep, retold(convertSetting(), "native,big-endian", "byte orders to run, a list of: "+joinNames(convert.Orders()), ""))...)
	rows = append(rows,
		recordRow("record size of the small-records layout, a multiple of 8 bytes", func(o *runtimeOpts) *opt[string] { return &o.record }),
		fromRow("an iobench sweep (JSON or CSV) to take the knee and the predicted gains from", "a quick write(2) sweep of the buffer sizes on --dir",
			func(o *runtimeOpts) *opt[string] { return &o.from }))
	rows = append(rows, sharedRows(inSweep,
		retold(repeatSetting(), "", "rounds, each running every case once in a shuffled order; or auto: at least 3 rounds, then more of the recommended cases still undecided, with their defaults, until all are decided or --time-budget runs out",
			"auto in the disk and parallel file system profiles, else "+strconv.Itoa(libcheck.DefaultRounds)),
		retold(timeBudgetSetting(), "", "with --repeat auto: wall time for all rounds, e.g. 10m", fmt.Sprintf("%d x the first round", libcheck.DefaultBudgetRounds)),
		seedSetting(), fsyncSetting(), syncSetting(), profileSetting(), kneeFractionSetting())...)
	rows = append(rows, formatRow(report.CmdRuntime, "text", "output format: %s", func(o *runtimeOpts) *opt[string] { return &o.format }))
	return append(rows, sharedRows(inSweep, outputSetting(), noProgressSetting(), progressSetting(), briefSetting())...)
}

// readRuntimeOpts reads rows, the command's, into new options.
func readRuntimeOpts(c *cli.Context, rows []optRow[runtimeOpts]) (runtimeOpts, error) {
	o := runtimeOpts{sweep: newSweepOpts(iobench.DefaultConfig())}
	return o, readRows(c, rows, &o)
}

// runtimeJob is one `iobench runtime` from flags to report.
type runtimeJob struct {
	rt       libcheck.Runtime
	env      *env
	stdout   io.Writer
	stderr   io.Writer
	reporter render.RuntimeReporter
	output   string
	progress progress.Mode
	from     string
	fromRep  *report.Report // --from, read and summarized
	buffers  []int64        // --buffers; nil: the default list
	cfg      iobench.Config // the data, timing and profile, as sweep reads them
	plan     libcheck.Plan
	info     fsinfo.Info
	sweep    *sweepJob // the profile as applied, and the quick sweep
	rep      *report.RuntimeReport
}

func (e *env) runtimeAction(c *cli.Context, rt libcheck.Runtime) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	o, err := readRuntimeOpts(c, runtimeRows())
	if err != nil {
		return asUsage(err)
	}
	j, err := newRuntimeJob(c, e, rt, &o)
	if err != nil {
		return err
	}
	return j.run(c)
}

// newRuntimeJob reads and checks every flag before anything is built or
// written.
func newRuntimeJob(c *cli.Context, e *env, rt libcheck.Runtime, o *runtimeOpts) (*runtimeJob, error) {
	return newJobWith(c, e, rt, o, (*runtimeJob).planFromOpts)
}

// newJobWith is newRuntimeJob with the data and cases read by readPlan.
func newJobWith(c *cli.Context, e *env, rt libcheck.Runtime, o *runtimeOpts, readPlan func(*runtimeJob, *runtimeOpts) error) (*runtimeJob, error) {
	sw := &o.sweep
	j := &runtimeJob{rt: rt, env: e, stdout: c.App.Writer, stderr: c.App.ErrWriter, output: sw.output.v,
		from: o.from.v}
	format, err := lookupFormat(report.CmdRuntime, o.format.v)
	if err != nil {
		return nil, err
	}
	if j.progress, err = progress.ParseMode(sw.progress.v, sw.noProgress.v); err != nil {
		return nil, asUsage(err)
	}
	j.reporter = format.Runtime
	if sw.brief.v {
		if format.Name != "text" {
			return nil, usagef("--brief: the verdict is text; it cannot go with --format %s", format.Name)
		}
		j.reporter = render.RuntimeBrief
	}
	if err := (iobench.Config{KneeFraction: sw.kneeFraction.v}).KneeFractionError(); err != nil {
		return nil, asUsage(err)
	}
	if err := checkNewOutput(j.output); err != nil {
		return nil, err
	}
	if err := readPlan(j, o); err != nil {
		return nil, asUsage(err)
	}
	if j.info, err = statDir(c, j.cfg.Dir); err != nil {
		return nil, err
	}
	if j.from != "" {
		in, err := loadInput(j.from, loadOpts{kneeFraction: sw.kneeFraction})
		if err != nil {
			return nil, usagef("--from: %w", err)
		}
		j.fromRep = in.Report
	}
	j.sweep = &sweepJob{cfg: j.cfg, fs: j.info, env: e, stderr: j.stderr, progress: j.progress}
	if err := j.sweep.applyProfile(sw, j.info); err != nil {
		return nil, err
	}
	// The profile's flushes, unless the command line gave them.
	j.plan.Fsync, j.plan.Sync = j.sweep.cfg.Fsync, j.sweep.cfg.Sync
	if err := j.roundsFromProfile(sw.repeat); err != nil {
		return nil, err
	}
	j.rep = &report.RuntimeReport{Header: header(c, j.info), Runtime: rt}
	return j, nil
}

// planFromOpts reads the data, buffer, byte order and timing flags.
func (j *runtimeJob) planFromOpts(o *runtimeOpts) error {
	o.sweep.cfg.Type = convert.Float64
	o.sweep.cfg.Count = int64(runtimeDefaultBytes / libcheck.ElementBytes)
	if err := j.timingFromOpts(&o.sweep); err != nil {
		return err
	}
	orders, err := parseOrders(o.sweep.convert.v)
	if err != nil {
		return err
	}
	record, err := j.recordFromOpts(o.record)
	if err != nil {
		return err
	}
	if o.buffers.set {
		if j.buffers, err = parseBufferList(j.rt, o.buffers.v); err != nil {
			return err
		}
	}
	j.plan = libcheck.Plan{Dir: j.cfg.Dir, Elements: j.cfg.Count, RecordBytes: record, Layouts: libcheck.Layouts(), Orders: orders,
		Rounds: libcheck.DefaultRounds, Seed: j.cfg.Seed, Sync: j.cfg.Sync, Warmup: true}
	return nil
}

// timingFromOpts makes j.cfg of the directory, the data's size and the
// timing flags; o.cfg holds the command's defaults.
func (j *runtimeJob) timingFromOpts(o *sweepOpts) error {
	if err := applySettings(o, dirSetting(), countSetting(), seedSetting(), fsyncSetting(), syncSetting()); err != nil {
		return err
	}
	var err error
	switch {
	case o.repeat.set: // with --time-budget
		err = repeatFromFlags(o, &o.cfg)
	case o.timeBudget.set:
		err = timeBudgetFromFlags(o, &o.cfg)
	}
	if err != nil {
		return err
	}
	if !o.seed.set {
		o.cfg.Seed = uint64(time.Now().UnixNano())
	}
	j.cfg = o.cfg
	return inFlagWords(j.cfg.SyncError())
}

// recordFromOpts reads --record: whole float64 elements, within the data.
func (j *runtimeJob) recordFromOpts(v opt[string]) (int64, error) {
	record, err := parseBytes("--record", v.v)
	switch {
	case err != nil:
		return 0, err
	case record%libcheck.ElementBytes != 0:
		return 0, fmt.Errorf("--record: %q is not a whole number of 8-byte float64 elements", v.v)
	case record > j.cfg.TotalBytes():
		return 0, fmt.Errorf("--record: %q is larger than the data (%d bytes); raise --count or --size", v.v, j.cfg.TotalBytes())
	}
	return record, nil
}

// roundsFromProfile sets the plan's rounds as sweep's would be set:
// --repeat, else the profile's (adaptive rounds in the disk and parallel
// file system profiles), but never fewer than DefaultRounds fixed ones.
func (j *runtimeJob) roundsFromProfile(repeat opt[string]) error {
	cfg := j.sweep.cfg
	switch {
	case cfg.Auto:
		j.plan.Auto, j.plan.Rounds, j.plan.TimeBudget = true, iobench.MinAutoRounds, cfg.TimeBudget
	case repeat.set || cfg.Repeat > j.plan.Rounds:
		j.plan.Rounds = cfg.Repeat
	}
	err := cfg.TimeBudgetError()
	if err != nil && !repeat.set {
		err = fmt.Errorf("%w; profile %s runs %d fixed rounds", inFlagWords(err), j.sweep.profile, j.plan.Rounds)
	}
	return asUsage(err)
}

// parseOrders reads --convert: byte orders, each once.
func parseOrders(s string) ([]convert.Order, error) {
	return parseList("--convert", s, convert.ParseOrder)
}

// parseBufferList reads --buffers with the sweep's --sizes rules, and
// what the runtime's buffer can hold.
func parseBufferList(rt libcheck.Runtime, s string) ([]int64, error) {
	sizes, err := parseSizeList(s)
	if err != nil {
		return nil, errors.New(strings.Replace(err.Error(), "--sizes", "--buffers", 1))
	}
	for _, n := range sizes {
		if n%libcheck.ElementBytes != 0 {
			return nil, fmt.Errorf("--buffers: %d bytes is not a whole number of %d-byte float64 elements", n, libcheck.ElementBytes)
		}
		if rt == libcheck.Gfortran && n > 1<<31-1 {
			return nil, fmt.Errorf("--buffers: %d is above libgfortran's limit of %d bytes", n, 1<<31-1)
		}
	}
	return sizes, nil
}

func (j *runtimeJob) run(c *cli.Context) error {
	ctx := c.Context
	// The writer is built in a private directory of our own, which a
	// second Ctrl-C removes too, whatever phase it comes in.
	scratch, err := os.MkdirTemp("", "iobench-runtime-")
	if err != nil {
		return fmt.Errorf("building the %s writer: %w", j.rt, err)
	}
	defer os.RemoveAll(scratch)
	defer j.env.cleanups.add(func() { os.RemoveAll(scratch) })()
	w, err := runtimes.Build(ctx, j.rt, scratch)
	if err != nil {
		return err // without the compiler: one line saying what to install
	}
	defer w.Close()
	fmt.Fprintf(j.stderr, "iobench: profile %s (%s)\n", j.sweep.profile, j.sweep.profileWhy)
	j.rep.Compiler = w.Compiler()
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		return err
	}
	j.plan.Dir, j.plan.Prefix = j.info.ResolvedDir, prefix
	j.plan.DefaultBuffer = libcheck.DefaultBuffer(j.rt, j.info.IOBlockSize)
	if err := j.preflight(); err != nil {
		return err
	}
	sw, err := j.prediction(ctx, prefix)
	if err != nil {
		return j.finish(nil, err)
	}
	j.rep.Sweep, j.plan.Sweep = sw, sw
	j.plan.Buffers = j.bufferList(sw)
	j.rep.Config = report.NewRuntimeConfig(j.plan)
	j.rep.Config.Profile, j.rep.Config.ProfileWhy = j.sweep.profile, j.sweep.profileWhy
	rounds := fmt.Sprintf("%d rounds", j.plan.Rounds)
	if j.plan.Auto {
		budget := fmt.Sprintf("%d x the first round's time", libcheck.DefaultBudgetRounds)
		if j.plan.TimeBudget > 0 {
			budget = "--time-budget " + j.plan.TimeBudget.String()
		}
		rounds = fmt.Sprintf("adaptive rounds (at least %d, then the undecided recommended cases with their defaults, within %s)",
			iobench.MinAutoRounds, budget)
	}
	fmt.Fprintf(j.stderr, "iobench: %s: %d cases x %s of %s each, shuffled (seed %d)\n", j.rt, len(j.plan.Cases()), rounds,
		units.FormatSize(j.plan.Bytes()), j.plan.Seed)
	j.env.active.Store(w) // a second Ctrl-C kills the writer and removes its file
	defer j.env.active.Store(nil)
	obs := newRuntimeObserver(j.stderr, j.rt, j.plan, j.progress)
	defer j.env.showing(obs.live)()
	res, runErr := w.Measure(ctx, j.plan, obs)
	obs.live.Stop()
	j.rep.ETAError = obs.live.ETAErrors()
	return j.finish(res, runErr)
}

// preflight checks the directory, the space and the memory for one data
// file, as sweep does.
func (j *runtimeJob) preflight() error {
	cfg := j.sweep.cfg
	cfg.Dir, cfg.Sizes, cfg.Auto, cfg.Repeat, cfg.TimeBudget = j.info.ResolvedDir, []int64{min(largeBuffer, cfg.TotalBytes())}, false, 1, 0
	return inFlagWords(iobench.Preflight(cfg, j.info, memoryPerRank(j.rep.Host, os.Getenv)))
}

// prediction is the write(2) sweep the runtime is held against: --from,
// or a quick sweep of the buffer sizes here.
func (j *runtimeJob) prediction(ctx context.Context, prefix string) (*libcheck.Sweep, error) {
	if rep := j.fromRep; rep != nil {
		if rep.FS.Type != "" && (rep.FS.Type != j.info.Type || rep.FS.ResolvedDir != j.info.ResolvedDir) {
			j.rep.Warnings = append(j.rep.Warnings, fmt.Sprintf("the sweep in %s was measured in %s (%s); this run writes in %s (%s)",
				j.from, rep.FS.ResolvedDir, rep.FS.Type, j.info.ResolvedDir, j.info.Type))
		}
		if writers := fromWriters(rep); writers != "" {
			j.rep.Warnings = append(j.rep.Warnings, fmt.Sprintf("the sweep in %s measured %s at once, aggregated; this run measures one writer, so its predicted gains may not carry over", j.from, writers))
		}
		if len(rep.Variants) > 0 {
			j.rep.Warnings = append(j.rep.Warnings, fmt.Sprintf("the sweep in %s ran %d variants; the predictions use the first, %s", j.from, len(rep.Variants), rep.Variants[0].Name))
		}
		return sweepOf("the write(2) sweep in "+j.from, rep), nil
	}
	qs := j.sweep
	qs.cfg.Dir, qs.fs = j.info.ResolvedDir, j.info
	qs.cfg.Sizes = quickSizes(j.buffers, j.plan.DefaultBuffer, qs.cfg.TotalBytes())
	qs.cfg.Auto, qs.cfg.Repeat, qs.cfg.TimeBudget, qs.cfg.Order = false, quickSweepRounds, 0, iobench.Shuffled
	if err := qs.cfg.Validate(); err != nil {
		return nil, inFlagWords(err)
	}
	qs.rep = &report.Report{Header: report.Header{FS: j.info, Host: j.rep.Host}, Config: qs.cfg.Record()}
	fmt.Fprintf(j.stderr, "iobench: a quick write(2) sweep first (no --from): %d sizes x %d rounds\n", len(qs.cfg.Sizes), qs.cfg.Repeat)
	res, err := qs.sweep(ctx, nil, prefix)
	if err != nil {
		return nil, err
	}
	qs.rep.SetResult(res)
	return sweepOf(fmt.Sprintf("a quick write(2) sweep here (%d rounds)", qs.cfg.Repeat), qs.rep), nil
}

// fromWriters says how many writers a saved sweep's figures add up:
// "3 MPI ranks", "4 jobs"; "" for one.
func fromWriters(rep *report.Report) string {
	switch {
	case rep.MPI != nil && rep.MPI.Ranks > 1:
		return fmt.Sprintf("%d MPI ranks", rep.MPI.Ranks)
	case rep.Config.Jobs > 1:
		return fmt.Sprintf("%d jobs", rep.Config.Jobs)
	}
	return ""
}

// sweepOf is a sweep report's curve, knee and recommendation.
func sweepOf(source string, rep *report.Report) *libcheck.Sweep {
	if len(rep.Variants) > 0 {
		// The knee and recommendation are the first variant's: so is the
		// curve the predictions read.
		rep = rep.VariantReport(0)
	}
	k := rep.Knee
	var kneeBytes, rec int64
	if k.Found {
		kneeBytes = k.WriteSize
	}
	if rep.Recommendation != nil {
		rec = rep.Recommendation.BufferSize
	}
	return libcheck.NewSweep(source, verdict.Runs(rep.Results, iobench.ModeWrite), kneeBytes, rec, k.Established, rep.Config.KneeFraction)
}

// quickSizes are the write sizes of the quick sweep: the powers of two
// from the smallest buffer to the largest, and the buffers themselves,
// none beyond the data.
func quickSizes(buffers []int64, def, total int64) []int64 {
	lo, hi := min(8<<10, def), max(int64(largeBuffer), def)
	if len(buffers) > 0 {
		lo, hi = min(slices.Min(buffers), def), max(slices.Max(buffers), def)
	}
	var sizes []int64
	for s := int64(1); s <= hi; s *= 2 {
		if s >= lo/2 && s <= total {
			sizes = append(sizes, s)
		}
	}
	for _, b := range append(slices.Clone(buffers), def) {
		if b <= total {
			sizes = append(sizes, b)
		}
	}
	slices.Sort(sizes)
	return slices.Compact(sizes)
}

// bufferList is --buffers, or the default: 8 KiB, the runtime's default,
// the recommended size and twice it, 16 MiB.
func (j *runtimeJob) bufferList(sw *libcheck.Sweep) []int64 {
	list := slices.Clone(j.buffers)
	if list == nil {
		list = []int64{8 << 10, largeBuffer}
		if k := sw.RecommendedBytes; k > 0 {
			list = append(list, k, 2*k)
		}
	}
	list = append(list, j.plan.DefaultBuffer) // the gains are over it
	slices.Sort(list)
	return slices.Compact(list)
}

// finish summarizes what was measured and writes the report, also after
// a failure part way.
func (j *runtimeJob) finish(res *libcheck.Result, runErr error) error {
	return j.finishWith(res, runErr, j.rep.SetApply, j.write)
}

// finishWith is finish with the apply block filled by setApply and the
// report written by write.
func (j *runtimeJob) finishWith(res *libcheck.Result, runErr error, setApply func(), write func() error) error {
	if res == nil {
		res = &libcheck.Result{Incomplete: runErr != nil}
	}
	r := j.rep
	if r.Config.Rounds == 0 {
		r.Config = report.NewRuntimeConfig(j.plan)
	}
	r.WarmupRan, r.Samples, r.Incomplete, r.Adaptive = res.WarmupRan, res.Samples, res.Incomplete, res.Adaptive
	if res.Adaptive != nil {
		r.Config.Rounds = res.Adaptive.Rounds
	}
	if len(res.Samples) > 0 {
		r.Summary = libcheck.Summarize(j.rt, j.plan, res, r.Sweep)
	}
	setApply()
	r.DurationSeconds = time.Since(r.StartTime).Seconds()
	if runErr != nil {
		r.Error = runErr.Error()
		if len(res.Samples) == 0 {
			return runErr // nothing measured: no report to keep
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(j.stderr, "iobench: warning: %s\n", w)
	}
	return errors.Join(runErr, write())
}

func (j *runtimeJob) write() error {
	return j.writeReport(func(w io.Writer) error { return j.reporter(w, j.rep) })
}

// writeReport writes a report to -o, or to stdout when -o is not given
// or cannot be written.
func (j *runtimeJob) writeReport(render func(io.Writer) error) error {
	if j.output == "" || j.output == "-" {
		return render(j.stdout)
	}
	err := outputError(report.WriteNew(j.output, render))
	if err != nil {
		fmt.Fprintf(j.stderr, "iobench: could not write %s; the report follows on stdout\n", j.output)
		return errors.Join(err, render(j.stdout))
	}
	fmt.Fprintf(j.stderr, "iobench: report written to %s\n", j.output)
	return nil
}

// runtimeObserver shows a runtime plan's progress on stderr as sweep shows
// its own, through progress.Live: one line per finished run, a line per
// round, and on a terminal the bar and the time left below them. The
// setup words follow the data file of the run in progress, as the writer
// fills it.
type runtimeObserver struct {
	live    *progress.Live
	rt      libcheck.Runtime
	plan    libcheck.Plan
	file    atomic.Pointer[string] // data file of the run in progress
	mu      sync.Mutex             // taken inside the display's lock (foresee)
	samples []libcheck.Sample      // to foresee adaptive rounds
}

// addSample keeps a finished run's sample for foresee.
func (o *runtimeObserver) addSample(s libcheck.Sample) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.samples = append(o.samples, s)
}

func newRuntimeObserver(w io.Writer, rt libcheck.Runtime, p libcheck.Plan, mode progress.Mode) *runtimeObserver {
	o := &runtimeObserver{rt: rt, plan: p}
	// No Stride: no array to fill in iobench, the writer fills its own.
	cfg := iobench.Config{Settings: record.Settings{Count: p.Elements, Warmup: p.Warmup, Auto: p.Auto, Repeat: p.Rounds}, Type: convert.Float64, TimeBudget: p.TimeBudget}
	o.live = progress.NewLive(w, o, cfg.Record(), nil, mode)
	var foresee func(int) []string
	if p.Auto {
		foresee = o.foresee
	}
	o.live.Foresee(libcheck.DefaultBudgetRounds, foresee)
	return o
}

// foresee is the cases of the round adaptive rounds would run after round
// look: every case in the first MinAutoRounds, then the undecided ones with
// their defaults; none when all are decided.
func (o *runtimeObserver) foresee(look int) []string {
	cases := o.plan.Cases()
	if look >= iobench.MinAutoRounds {
		o.mu.Lock()
		und := libcheck.Undecided(o.rt, o.plan, o.samples)
		o.mu.Unlock()
		cases = slices.DeleteFunc(cases, func(c libcheck.Case) bool {
			return !slices.ContainsFunc(und, func(u libcheck.UndecidedCase) bool {
				return u.Case == c || c.Default && u.Layout == c.Layout && u.Convert == c.Convert
			})
		})
	}
	keys := make([]string, len(cases))
	for i, c := range cases {
		keys[i] = caseKey(c)
	}
	return keys
}

// caseKey names a case, so that its runs share their times.
func caseKey(c libcheck.Case) string {
	return fmt.Sprintf("%s/%s/%d", c.Layout, c.Convert, c.BufferBytes)
}

// Progress is the size of the data file being written: the bytes the
// writer has handed to write(2) so far.
func (o *runtimeObserver) Progress() int64 {
	path := o.file.Load()
	if path == nil {
		return 0
	}
	st, err := os.Stat(*path)
	if err != nil {
		return 0 // not created yet, or already removed
	}
	return st.Size()
}

// Phase is never PhaseFill: the bar has no array of its own to fill.
func (o *runtimeObserver) Phase() iobench.Phase { return iobench.PhaseIdle }

func (o *runtimeObserver) WarmupStarted(c libcheck.Case) {
	o.follow(0)
	o.live.Warmup(fmt.Sprintf("iobench: %s: warm-up: one untimed run of %s, %s %s, buffer %s", o.rt,
		humanize.IBytes(uint64(o.plan.Bytes())), c.Layout, c.Convert, bufferWord(c)))
}

func (o *runtimeObserver) RoundPlanned(round int, steps []libcheck.Step) {
	keys := make([]string, len(steps))
	for i, s := range steps {
		keys[i] = caseKey(s.Case)
	}
	o.live.Planned(round, keys)
	if o.plan.Auto && round > iobench.MinAutoRounds {
		o.live.Print(fmt.Sprintf("iobench: %s: adaptive round %d: %d cases, the undecided recommended ones and their defaults", o.rt, round, len(steps)), progress.Lines)
	}
}

func (o *runtimeObserver) StepStarted(s libcheck.Step, _ int) {
	o.follow(s.Seq)
	o.live.Started(fmt.Sprintf("%s %s %s", s.Layout, shortOrder(s.Convert), units.FormatSize(s.BufferBytes)))
}

func (o *runtimeObserver) follow(seq int) {
	path := o.plan.DataFile(o.rt, seq)
	o.file.Store(&path)
}

func (o *runtimeObserver) StepFinished(s libcheck.Sample, total int) {
	o.addSample(s)
	if o.live.Mode() == progress.Bar { // below the bar: one line of at most 80 columns
		o.live.Finished(fmt.Sprintf("%-7s %-13s %11s %-9s %9.1f MiB/s %8d calls",
			s.Layout, s.Convert, strings.Replace(bufferWord(s.Case), " (default)", " def", 1), o.live.RoundWord(s.Round), s.MiBPerSec(), s.WriteCalls))
		return
	}
	of, round := fmt.Sprintf("%d/%d", s.Seq, total), fmt.Sprintf("r%d", s.Round)
	if o.plan.Auto {
		of, round = strconv.Itoa(s.Seq), o.live.RoundWord(s.Round)
	}
	o.live.Finished(fmt.Sprintf("iobench: %s %s %s: %s %s, buffer %s: %.1f MiB/s, %d write(2) calls",
		o.rt, of, round, s.Layout, s.Convert, bufferWord(s.Case), s.MiBPerSec(), s.WriteCalls))
}

// bufferWord is the case's buffer, marked when it is the runtime's default.
func bufferWord(c libcheck.Case) string {
	if c.Default {
		return units.FormatSize(c.BufferBytes) + " (default)"
	}
	return units.FormatSize(c.BufferBytes)
}

// shortOrder keeps the bar's description short: BE, LE for the
// big- and little-endian conversions.
func shortOrder(name string) string {
	switch name {
	case convert.BigEndian.String():
		return "BE"
	case convert.LittleEndian.String():
		return "LE"
	}
	return name
}

var _ runtimes.Observer = (*runtimeObserver)(nil)
