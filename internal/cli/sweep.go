package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/hostinfo"
	"github.com/iobench/iobench/internal/progress"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/mpi/mpiio"
	"github.com/iobench/iobench/profile"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

// sweepJob is one sweep from flags to report.
type sweepJob struct {
	cfg            iobench.Config
	format         string
	brief          bool // --brief: the verdict alone
	reporter       render.Reporter
	output         string
	sizeFlag       map[string]string // --min or --max, by the size they gave (sweepOpts.sizeFlag)
	fs             fsinfo.Info       // the directory's file system: the engine's, and the report's header
	rep            *report.Report
	stdout         io.Writer
	stderr         io.Writer
	progress       progress.Mode
	etaError       *record.ETAError // how far the live time left was off
	dryRun         bool
	profile        string
	profileWhy     string
	profileWarning string
	total          bool      // --total: --count/--size is split across ranks
	runBytes       int64     // under MPI: the bytes each run moves over all ranks
	shared         bool      // --shared-file
	anonymize      bool      // --anonymize
	applyFor       []string  // --for
	io             ioAPI     // --api, --collective, --hint
	mpiio          *mpiio.FS // the data's file system with --api mpiio
	cl             *mpiJob
	env            *env // the process: MPI world, environment, the runner for signals
}

func (e *env) sweepAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q (commands: sweep, info, profiles, analyze, plot, compare; see --help)", c.Args().First())
	}
	cl, err := e.joinCluster()
	if err != nil {
		return err
	}
	job, err := newSweepJob(c, e)
	if cl != nil {
		err = cl.agreeOnStart(c, err)
	}
	if err != nil {
		return err
	}
	job.cl = cl
	return job.run(c.Context)
}

func newSweepJob(c *cli.Context, e *env) (*sweepJob, error) {
	o, err := readSweepOpts(c)
	if err != nil {
		return nil, asUsage(err)
	}
	cfg := o.cfg
	j := &sweepJob{cfg: cfg, env: e, format: o.format.v, output: o.output.v, brief: o.brief.v, sizeFlag: o.sizeFlag,
		stdout: c.App.Writer, stderr: c.App.ErrWriter,
		total: o.total.v, shared: o.sharedFile.v,
		anonymize: o.anonymize.v, dryRun: o.dryRun.v}
	if err := j.checkFlags(); err != nil {
		return nil, err
	}
	if j.progress, err = progress.ParseMode(o.progress.v, o.noProgress.v); err != nil {
		return nil, asUsage(err)
	}
	if j.io, err = ioAPIFromFlags(&o, e.getenv); err != nil {
		return nil, err
	}
	if j.applyFor, err = parseFor(o.applyFor); err != nil {
		return nil, err
	}
	info, err := statDir(c, cfg.Dir)
	if err != nil {
		return nil, err
	}
	if err := j.applyProfile(&o, info); err != nil {
		return nil, err
	}
	if j.cfg.Order == iobench.Shuffled && !o.seed.set {
		j.cfg.Seed = uint64(time.Now().UnixNano())
	}
	if err := j.io.check(j.cfg, j.shared); err != nil {
		return nil, err
	}
	j.fs = info
	j.rep = &report.Report{Header: header(c, info)}
	return j, nil
}

// checkFlags rejects bad flag values that need no file system facts.
func (j *sweepJob) checkFlags() error {
	format, err := lookupFormat(report.CmdSweep, j.format)
	if err != nil {
		return err
	}
	j.reporter = format.Report
	if j.brief {
		if j.format != "text" {
			return usagef("--brief: the verdict is text; it cannot go with --format %s", j.format)
		}
		j.reporter = render.TextBrief
	}
	if j.shared && j.cfg.Mode != iobench.ModeWrite {
		return usagef("--shared-file: applies to --mode write only, not %q", j.cfg.Mode)
	}
	if j.shared && j.cfg.Verify {
		return usagef("--verify: checks a file per rank; it is not available with --shared-file")
	}
	if err := j.cfg.KneeFractionError(); err != nil {
		return asUsage(err)
	}
	return checkNewOutput(j.output)
}

// applyProfile sets what the file system's profile sets, except the
// flags given explicitly.
func (j *sweepJob) applyProfile(o *sweepOpts, info fsinfo.Info) error {
	if o.profile.set && strings.TrimSpace(o.profile.v) == "" {
		return usagef("--profile: %q is empty (valid: %s)", o.profile.v, strings.Join(profile.Names(), ", "))
	}
	p, why, err := profile.Resolve(o.profile.v, info)
	if err != nil {
		return asUsage(err)
	}
	notes, err := p.Apply(&j.cfg, info, overrides(o), profile.DefaultEnv())
	if err != nil {
		return asUsage(err)
	}
	why, notes = iobench.Render(why, flagWords), iobench.RenderAll(notes, flagWords)
	notes = slices.DeleteFunc(notes, func(n string) bool { return n == p.Warning })
	if p.Warning != "" {
		j.profileWarning = p.Warning
	}
	j.profile, j.profileWhy = p.Name, strings.Join(append([]string{why}, notes...), "; ")
	j.cfg.ReferenceSizes = stdioReference(j.cfg.ReferenceSizes, info)
	return nil
}

// stdioReference adds C stdio's default buffer on the file system to the
// sizes the verdict judges defaults at, so that adaptive rounds give it
// the runs its verdict needs, as they give libgfortran's.
func stdioReference(refs []int64, info fsinfo.Info) []int64 {
	b := libcheck.DefaultBuffer(libcheck.Stdio, info.IOBlockSize)
	if slices.Contains(refs, b) {
		return refs
	}
	return append(slices.Clone(refs), b)
}

// lustreStripe is the directory's Lustre stripe size for the how-to-apply
// block: 0 off Lustre, or when lfs cannot tell (never st_blksize, which
// Lustre caps).
func lustreStripe(info fsinfo.Info, dir string) int64 {
	if !strings.EqualFold(info.Type, "lustre") {
		return 0
	}
	n, err := profile.StripeSize(cmp.Or(info.ResolvedDir, dir), profile.DefaultEnv())
	if err != nil {
		return 0
	}
	return n
}

// header is how a report of this command begins: iobench, the command
// line, now, this host and the file system measured.
func header(c *cli.Context, fs fsinfo.Info) report.Header {
	return report.Header{Tool: toolInfo(), Command: commandLine(c), StartTime: time.Now(), Host: hostinfo.Read(), FS: fs}
}

// commandLine is the command as the user typed it.
func commandLine(c *cli.Context) []string {
	args, _ := c.App.Metadata["args"].([]string)
	return args
}

// statDir reads the file system facts; a missing --dir or a file is bad
// input, anything else a runtime failure.
func statDir(c *cli.Context, dir string) (fsinfo.Info, error) {
	info, err := statWaiting(c.Context, c.App.ErrWriter, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return info, usagef("--dir: %q does not exist", dir)
	}
	if errors.Is(err, unix.ENOTDIR) {
		return info, usagef("--dir: %q is not a directory", dir)
	}
	if errors.Is(err, unix.ENAMETOOLONG) {
		return info, usagef("--dir: %q: the path, or a name in it, is longer than the file system allows (ENAMETOOLONG)", shorten(dir))
	}
	if errors.Is(err, unix.ELOOP) || err != nil && strings.Contains(err.Error(), "too many links") { // EvalSymlinks' own words
		return info, usagef("--dir: %q leads into a loop of symbolic links (ELOOP)", dir)
	}
	if err != nil {
		return info, fmt.Errorf("--dir: %w", err)
	}
	return info, nil
}

// statWaitNotice is how long a statfs may take before the command says
// what it waits for: a dead NFS or GPFS server makes it hang.
const statWaitNotice = time.Second

// statWaiting is fsinfo.Stat that says, after statWaitNotice, that it
// waits for the file system, and gives up when ctx ends (a signal): the
// call stays in the kernel, the command does not.
func statWaiting(ctx context.Context, stderr io.Writer, dir string) (fsinfo.Info, error) {
	type answer struct {
		info fsinfo.Info
		err  error
	}
	done := make(chan answer, 1)
	stat := func() {
		info, err := fsinfo.Stat(dir)
		done <- answer{info, err}
	}
	go stat()
	notice := time.NewTimer(statWaitNotice)
	defer notice.Stop()
	for {
		select {
		case a := <-done:
			if !errors.Is(a.err, unix.EINTR) {
				return a.info, a.err
			}
			// The signal that cut the call short is on its way to ctx;
			// any other interrupt is retried.
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
				go stat()
				continue
			}
			return fsinfo.Info{}, fmt.Errorf("%w (%v) while waiting for the file system of %s (statfs)", iobench.ErrInterrupted, context.Cause(ctx), dir)
		case <-notice.C:
			fmt.Fprintf(stderr, "iobench: waiting for the file system of %s: statfs has not answered for %v (a server that does not respond?); Ctrl-C to stop\n", dir, statWaitNotice)
		case <-ctx.Done():
			return fsinfo.Info{}, fmt.Errorf("%w (%v) while waiting for the file system of %s (statfs)", iobench.ErrInterrupted, context.Cause(ctx), dir)
		}
	}
}

// shorten keeps an over-long argument readable in a one-line error.
func shorten(s string) string {
	if len(s) <= 80 {
		return s
	}
	return s[:40] + "..." + s[len(s)-20:]
}

// checkNewOutput refuses to overwrite a file iobench did not create.
func checkNewOutput(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if _, err := os.Lstat(path); err == nil {
		return usagef("--output: %q already exists; iobench does not overwrite files, choose a new name", path)
	}
	// Find a bad directory now, not after a long sweep.
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usagef("--output: directory %q of %q does not exist", dir, path)
	}
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return usagef("--output: directory %q is not writable: %s", dir, iobench.Describe(err))
	}
	return nil
}

// files decides how this process names its data files: a shared file,
// and names agreed with the other ranks under MPI.
func (j *sweepJob) files() (*iobench.Shared, string, error) {
	if j.cl != nil {
		j.runBytes = j.cfg.TotalBytes() // what a run asks of all ranks: split, or per rank
		if !j.total {
			j.runBytes *= int64(j.cl.Size())
		}
		return j.cl.configure(&j.cfg, j.total, j.shared)
	}
	if !j.shared {
		return nil, "", nil
	}
	prefix, err := iobench.UniquePrefix()
	return &iobench.Shared{Name: prefix + "-shared.dat", Creator: true}, prefix, err
}

// configWords is a Config error in the flags' words (sizeWords).
func (j *sweepJob) configWords(err error) error { return asUsage(sizeWords(j.sizeFlag, err)) }

// sizeWords names --min or --max in a Config error about the write size
// one of them gave; other errors as they are.
func sizeWords(sizeFlag map[string]string, err error) error {
	var ce *iobench.ConfigError
	if errors.As(err, &ce) && ce.Field == iobench.SetSizes && sizeFlag[ce.Value] != "" {
		return &wordedError{msg: sizeFlag[ce.Value] + ": " + iobench.Render(ce.Reason, flagWords), err: err}
	}
	return err
}

// agree is the cluster's Agree under MPI, else err as it is.
func (j *sweepJob) agree(err error) error {
	if j.cl == nil {
		return err
	}
	return j.cl.Agree(err)
}

// memoryPerRank is the memory one process may take: what the host and
// its cgroup (a Slurm job's memory.max) leave, shared by the ranks the
// launcher put on this node.
func memoryPerRank(h hostinfo.Host, getenv func(string) string) uint64 {
	return h.UsableMemory() / uint64(localRanks(getenv))
}

// memoryWords says where memoryPerRank's figure comes from.
func memoryWords(h hostinfo.Host, getenv func(string) string) string {
	s := fmt.Sprintf("%s available", humanize.IBytes(h.MemAvailableBytes))
	if h.CgroupLimitBytes > 0 {
		s += fmt.Sprintf(", the cgroup's limit %s with %s used", humanize.IBytes(h.CgroupLimitBytes), humanize.IBytes(h.CgroupUsageBytes))
	}
	if n := localRanks(getenv); n > 1 {
		s += fmt.Sprintf(", shared by %d ranks on this node", n)
	}
	return s
}

// localRanks is how many ranks of the job run on this node, from the
// launcher's environment (Open MPI, MPICH and Intel MPI, Slurm); 1 when
// none says.
func localRanks(getenv func(string) string) int {
	for _, name := range []string{"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"} {
		if n, err := strconv.Atoi(getenv(name)); err == nil && n > 0 {
			return n
		}
	}
	return 1
}

func (j *sweepJob) preflight() error {
	mem := memoryPerRank(j.rep.Host, j.env.getenv)
	err := inFlagWords(iobench.Preflight(j.cfg, j.fs, mem))
	if err != nil && (j.rep.Host.CgroupLimitBytes > 0 || localRanks(j.env.getenv) > 1) {
		err = fmt.Errorf("%w (%s)", err, memoryWords(j.rep.Host, j.env.getenv))
	}
	if j.cl != nil { // a collective call: every rank makes it, failed or not
		err = errors.Join(err, j.cl.samePlan(j.cfg))
	}
	return j.agree(err)
}

func (j *sweepJob) run(ctx context.Context) error {
	shared, prefix, err := j.files()
	if err != nil {
		return err
	}
	// The one check of the plan, now final: a rank's share of --total
	// may be below the largest size, and --jobs is refused with ranks.
	if err := j.agree(j.configWords(j.cfg.Validate())); err != nil {
		return err
	}
	j.rep.Config = j.cfg.Record()
	j.rep.Config.Profile, j.rep.Config.ProfileWhy = j.profile, j.profileWhy
	if j.dryRun {
		return writeDryRun(j.stdout, j.cfg, j.fs.ResolvedDir, j.profile, j.profileWhy)
	}
	j.rep.ApplyFor, j.rep.Config.StripeSize = j.applyFor, lustreStripe(j.fs, j.cfg.Dir)
	fmt.Fprintf(j.stderr, "iobench: profile %s (%s)\n", j.profile, j.profileWhy)
	if err := j.preflight(); err != nil {
		return err
	}
	fmt.Fprintf(j.stderr, "iobench: %s\n", planLine(j.cfg, j.fs.ResolvedDir))
	j.rep.Warnings = append(iobench.RenderAll(iobench.Warnings(j.cfg, j.fs, j.rep.Host.MemTotalBytes), flagWords), j.env.launcherWarnings()...)
	j.rep.Warnings = append(j.rep.Warnings, j.mpiWarnings()...)
	if j.profileWarning != "" {
		j.rep.Warnings = append(j.rep.Warnings, j.profileWarning)
	}
	if j.cl == nil || j.cl.Rank() == 0 {
		if w := staleWarning(j.cfg.Dir); w != "" {
			j.rep.Warnings = append(j.rep.Warnings, w)
		}
	}
	if j.cl != nil { // the header shows the job; aggregate adds the per-rank runs
		j.rep.MPI = j.cl.layout()
		j.describeMPI(j.rep.MPI)
	}
	streamHeader := j.format == "text" && !j.brief && j.toStdout()
	// On one terminal the text report's own warning lines are the copy.
	warnStderr := !(streamHeader && progress.SameTerminal(j.stdout, j.stderr))
	for _, w := range j.rep.Warnings {
		if warnStderr {
			fmt.Fprintf(j.stderr, "iobench: warning: %s\n", w)
		}
	}
	if streamHeader {
		if err := j.agree(render.TextLead(j.stdout, j.shown())); err != nil {
			return err
		}
	}
	res, runErr := j.sweep(ctx, shared, prefix)
	if j.cl != nil {
		var last bool
		if res, last, err = j.aggregate(res); err != nil || last {
			return errors.Join(runErr, err)
		}
	}
	j.rep.SetResult(res)
	j.rep.ETAError = j.etaError
	if warnStderr { // the run's own went out before the sweep
		for _, w := range j.rep.Summary.Warnings {
			fmt.Fprintf(j.stderr, "iobench: warning: %s\n", w.Text)
		}
	}
	if j.rep.KeptFile != "" {
		fmt.Fprintf(j.stderr, "iobench: kept data file: %s\n", j.rep.KeptFile)
	}
	j.rep.DurationSeconds = time.Since(j.rep.StartTime).Seconds()
	if runErr != nil {
		j.rep.Error = runErr.Error()
	}
	if err := j.write(streamHeader); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

// shown is the report as printed: with --anonymize, host, user and paths
// replaced by stable placeholders.
func (j *sweepJob) shown() *report.Report {
	if j.anonymize {
		return report.Anonymize(j.rep, j.env.getenv("USER"))
	}
	return j.rep
}

func (j *sweepJob) toStdout() bool { return j.output == "" || j.output == "-" }

// aggregate brings the ranks' samples to rank 0; done reports that this
// rank has nothing more to do (only rank 0 reports).
func (j *sweepJob) aggregate(res *iobench.Result) (agg *iobench.Result, done bool, err error) {
	agg, info, err := j.cl.gather(res)
	if err != nil || j.cl.Rank() != 0 {
		return res, true, err
	}
	j.describeMPI(info)
	j.reportHints(info)
	j.rep.MPI = info
	return agg, false, nil
}

func (j *sweepJob) sweep(ctx context.Context, shared *iobench.Shared, prefix string) (*iobench.Result, error) {
	fs, err := j.dataFS(shared)
	if err != nil {
		return &iobench.Result{Incomplete: true}, err
	}
	r := &iobench.Runner{Config: j.cfg, FS: fs, Shared: shared, Prefix: prefix}
	if j.cl != nil {
		r.Coord = j.cl
		fmt.Fprintf(j.stderr, "iobench: live lines and bar are rank 0's own runs (per rank); the report aggregates all %d ranks\n", j.cl.Size())
	}
	if j.cfg.Jobs > 1 {
		fmt.Fprintf(j.stderr, "iobench: live lines and bar are job 0's own runs (per job); the report aggregates all %d jobs\n", j.cfg.Jobs)
	}
	j.env.active.Store(sweepRun{r})
	defer j.env.active.Store(nil)
	obs := progress.NewLive(j.stderr, r, j.cfg.Record(), j.cfg.Foreseer(), j.progress)
	defer j.env.showing(obs)()
	r.Observer = obs
	res, err := r.Run(ctx)
	obs.Stop()
	j.etaError = obs.ETAErrors()
	return res, err
}

func (j *sweepJob) write(headerDone bool) error {
	if !j.toStdout() {
		err := outputError(report.WriteNewFile(j.output, j.reporter, j.shown()))
		if err != nil {
			// Keep what was measured: print it rather than lose it.
			fmt.Fprintf(j.stderr, "iobench: could not write %s; the report follows on stdout\n", j.output)
			return errors.Join(err, j.reporter(j.stdout, j.shown()))
		}
		fmt.Fprintf(j.stderr, "iobench: report written to %s\n", j.output)
		return nil
	}
	var err error
	if headerDone {
		err = render.TextRest(j.stdout, j.shown())
	} else {
		err = j.reporter(j.stdout, j.shown())
	}
	if err == nil {
		return nil
	}
	return errors.Join(fmt.Errorf("writing the report to stdout: %w", err), j.saveAside())
}

// saveAside keeps the report when stdout failed (a closed pipe, a full
// disk): in a new file where a user's state belongs (stateDir), else the
// temp directory; never the working directory, which may be a checkout.
func (j *sweepJob) saveAside() error {
	format, _ := render.Lookup(report.CmdSweep, j.format) // checked in checkFlags
	name := fmt.Sprintf("%s%s-%d.%s", savedReportPrefix, j.rep.StartTime.Format("20060102-150405"), os.Getpid(), format.Ext)
	var errs []error
	for _, dir := range []string{stateDir(j.env.getenv), os.TempDir()} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			errs = append(errs, err)
			continue
		}
		path := filepath.Join(dir, name)
		err := report.WriteNewFile(path, j.reporter, j.shown())
		if err == nil {
			abs, _ := filepath.Abs(path)
			fmt.Fprintf(j.stderr, "iobench: stdout failed; the report is saved in %s\n", abs)
			return fmt.Errorf("the report is saved in %s", abs)
		}
		errs = append(errs, err)
	}
	return fmt.Errorf("could not save the report aside either: %w", errors.Join(errs...))
}

// savedReportPrefix names the reports saveAside keeps, for clean.
const savedReportPrefix = "iobench-report-"

// stateDir is where iobench keeps what it saves for the user:
// $XDG_STATE_HOME/iobench, else ~/.local/state/iobench.
func stateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "iobench")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".local", "state", "iobench")
}
