package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/mpi"
	"github.com/iobench/iobench/mpi/cluster"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
	"github.com/iobench/iobench/runtimes"
	"github.com/iobench/iobench/units"
)

// Defaults of `iobench runtime mpiio|hdf5`.
const (
	mpiioDefaultBytes = 32 << 20 // per rank: a strided OMPIO case moves some 15 MiB/s
	hdf5DefaultBytes  = 64 << 20
	// libraryPoll is how often a rank waiting for an MPI writer job
	// looks: waiting without spinning leaves the job the CPUs.
	libraryPoll = 5 * time.Millisecond
	// quickSweepSmallest and quickSweepLargest bound the quick sweep
	// that finds the knee the libraries' settings are set to.
	quickSweepSmallest = 8 << 10
	quickSweepLargest  = 16 << 20
)

var libraryExamples = map[libcheck.Runtime]string{
	libcheck.MPIIO: `Runs an MPI-IO writer (compiled with mpicc) as an MPI job of its own for each run, spawned from rank 0 of
this job with OMPI_MCA_io set, for each component, a file per rank and a shared file, independent and
collective calls, contiguous and strided memory (with the same data packed by a typed loop beside it), and
each buffer setting where its rule says it can change the write(2) calls: the default, the recommended
value and twice it. Needs the MPI build, started by mpirun or srun.

   mpirun -np 3 --oversubscribe bin/iobench-mpi runtime mpiio --dir /gpfs/x
   mpirun -np 3 --oversubscribe bin/iobench-mpi runtime mpiio --dir . --components romio321 --modes collective --layouts shared
   mpirun -np 2 --oversubscribe bin/iobench-mpi runtime mpiio --dir . --memory strided --memory-stride 2 --memory-type int32 --format json -o s.json`,
	libcheck.HDF5: `Compiles an HDF5 writer (libhdf5 from pkg-config, or h5cc) and runs it on a 1-D float64 dataset,
contiguous and chunked (chunks of the knee), native and big-endian, one H5Dwrite and 1 KiB hyperslabs, with
H5Pset_alignment at the knee, the sieve buffer at the knee and the type-conversion buffer where each matters.

   iobench runtime hdf5 --dir /gpfs/x
   iobench runtime hdf5 --dir . --storage contiguous --convert big-endian --from sweep.json`,
}

func (e *env) libraryCommand(rt libcheck.Runtime, onUsage cli.OnUsageErrorFunc) *cli.Command {
	usage := map[libcheck.Runtime]string{
		libcheck.MPIIO: "write through MPI-IO: Open MPI's OMPIO and ROMIO with their buffers' hints (the MPI build, under mpirun or srun)",
		libcheck.HDF5:  "write through HDF5: contiguous and chunked, native and big-endian, with H5Pset_alignment and its buffers",
	}[rt]
	return &cli.Command{Name: string(rt), Usage: usage, Description: libraryExamples[rt], Flags: libraryFlags(rt),
		Action: func(c *cli.Context) error { return e.libraryAction(c, rt) }, OnUsageError: onUsage}
}

// libraryOpts are the flags of `iobench runtime mpiio|hdf5`, read once:
// those it shares with `iobench runtime` in rt, the library's own
// beside them.
type libraryOpts struct {
	rt                                           runtimeOpts
	components, layouts, modes, memory, callSize opt[string]
	source, memoryType, storage                  opt[string]
	memoryStride, ranks                          opt[int]
}

func libSweep(o *libraryOpts) *sweepOpts     { return &o.rt.sweep }
func libLayouts(o *libraryOpts) *opt[string] { return &o.layouts }

func libraryFlags(rt libcheck.Runtime) []cli.Flag { return rowFlags(libraryRows(rt)) }

func libraryRows(rt libcheck.Runtime) []optRow[libraryOpts] {
	def, per := int64(hdf5DefaultBytes), ""
	if rt == libcheck.MPIIO {
		def, per = mpiioDefaultBytes, " per rank"
	}
	count := countSetting()
	count.runtimeDefault = fmt.Sprintf("%d (%s)%s", def/libcheck.ElementBytes, units.FormatSize(def), per)
	rows := sharedRows(libSweep, dirSetting(), count, sizeSetting())
	if rt == libcheck.MPIIO {
		rows = append(rows, mpiioRows()...)
	} else {
		rows = append(rows, hdf5Rows()...)
	}
	rows = append(rows, fromRow("an iobench sweep (JSON or CSV) to take the knee from", "a quick write(2) sweep on --dir", func(o *libraryOpts) *opt[string] { return &o.rt.from }))
	rows = append(rows, sharedRows(libSweep,
		retold(repeatSetting(), "", "rounds, each running every case once in a shuffled order; or auto", "auto in the disk and parallel file system profiles, else 5"),
		retold(timeBudgetSetting(), "", "with --repeat auto: wall time for all rounds, e.g. 10m", fmt.Sprintf("%d x the first round", libcheck.DefaultBudgetRounds)),
		seedSetting(), fsyncSetting(), syncSetting(), profileSetting(), kneeFractionSetting())...)
	rows = append(rows, formatRow(report.CmdRuntime, "text", "output format: %s", func(o *libraryOpts) *opt[string] { return &o.rt.format }))
	return append(rows, sharedRows(libSweep, outputSetting(), noProgressSetting(), progressSetting())...)
}

// mpiioRows are the cases of `runtime mpiio`. --memory-stride and
// --memory-type shape the strided memory alone, so they are not the
// sweep's --stride and --type.
func mpiioRows() []optRow[libraryOpts] {
	return []optRow[libraryOpts]{
		row(&cli.StringFlag{Name: "components", Value: libcheck.OMPIO + "," + libcheck.ROMIO, Usage: "Open MPI's MPI-IO components to run (OMPI_MCA_io)"}, func(o *libraryOpts) *opt[string] { return &o.components }),
		layoutsRow("per-rank,shared", "a file per rank (MPI_COMM_SELF), one shared file (MPI_COMM_WORLD)", libLayouts),
		row(&cli.StringFlag{Name: "modes", Value: "independent,collective", Usage: "MPI_File_write_at, MPI_File_write_at_all"}, func(o *libraryOpts) *opt[string] { return &o.modes }),
		row(&cli.StringFlag{Name: "memory", Value: "contiguous,strided", Usage: "contiguous memory, and strided (an MPI_Type_vector the library gathers; its packed twin runs beside it)"}, func(o *libraryOpts) *opt[string] { return &o.memory }),
		row(&cli.StringFlag{Name: "call-size", Value: "1MiB", Usage: "file bytes per MPI-IO call"}, func(o *libraryOpts) *opt[string] { return &o.callSize }),
		sourceRow("array (each rank's whole data in memory, as a program's arrays) or window (one call's data, written again by every call, as IOR writes its one buffer)", func(o *libraryOpts) *opt[string] { return &o.source }),
		row(&cli.IntFlag{Name: "memory-stride", Value: 2, Usage: "strided memory: every K-th element"}, func(o *libraryOpts) *opt[int] { return &o.memoryStride }),
		row(&cli.StringFlag{Name: "memory-type", Value: "int32", Usage: "strided memory's element: " + joinNames(convert.Types()[:4])}, func(o *libraryOpts) *opt[string] { return &o.memoryType }),
		row(&cli.IntFlag{Name: "ranks", Usage: "ranks of each writer job", DefaultText: "the ranks of this job"}, func(o *libraryOpts) *opt[int] { return &o.ranks }),
	}
}

// hdf5Rows are the cases of `runtime hdf5`.
func hdf5Rows() []optRow[libraryOpts] {
	rows := []optRow[libraryOpts]{
		row(&cli.StringFlag{Name: "storage", Value: "contiguous,chunked", Usage: "HDF5 dataset layouts: contiguous, chunked (chunks of the knee)"}, func(o *libraryOpts) *opt[string] { return &o.storage }),
		layoutsRow("array,records", "one H5Dwrite of the whole dataset (array), hyperslabs of --record (records)", libLayouts),
	}
	rows = append(rows, sharedRows(libSweep, retold(convertSetting(), "native,big-endian", "file type: native (H5T_NATIVE_DOUBLE), big-endian (H5T_IEEE_F64BE, converted by HDF5)", ""))...)
	return append(rows, recordRow("bytes per H5Dwrite of the records layout, a multiple of 8", func(o *libraryOpts) *opt[string] { return &o.rt.record }))
}

// libraryJob is one `iobench runtime mpiio|hdf5`: a runtime job whose
// cases are the library's.
type libraryJob struct {
	*runtimeJob
	reporter render.LibraryReporter
	mpiio    libcheck.MPIIOChoice
	hdf5     libcheck.HDF5Choice
	lib      report.LibraryConfig
	hosts    []string // the MPI job's nodes
	spawner  *spawner // the MPI-IO writer jobs
}

// libraryAction runs the check on rank 0; under MPI the other ranks
// only wait, without spinning, so that the writer jobs rank 0 starts
// have the CPUs.
func (e *env) libraryAction(c *cli.Context, rt libcheck.Runtime) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	if rt == libcheck.MPIIO && !mpi.Enabled() {
		return usagef("runtime mpiio: needs the MPI build of iobench, started by mpirun or srun: go build -tags mpi -o bin/iobench-mpi . && mpirun -np 3 --oversubscribe bin/iobench-mpi runtime mpiio --dir DIR")
	}
	o := libraryOpts{rt: runtimeOpts{sweep: newSweepOpts(iobench.DefaultConfig())}}
	rerr := readRows(c, libraryRows(rt), &o)
	if rt == libcheck.MPIIO && e.world != nil {
		return e.libraryOnRank0(c, rt, &o, rerr)
	}
	if rerr != nil {
		return rerr
	}
	j, err := newLibraryJob(c, e, rt, &o)
	if err != nil {
		return err
	}
	return j.run(c)
}

// libraryOnRank0 is the check under MPI. Rank 0 reads the flags, then
// every rank agrees on starting, in the calls a rank whose flags the
// parser refused makes (joinToStop): so a bad flag on any rank, or one
// given another value than on rank 0, stops every rank with one line
// naming it, where the others used to wait for it for ever. Rank 0 runs
// the check; the others wait.
func (e *env) libraryOnRank0(c *cli.Context, rt libcheck.Runtime, o *libraryOpts, err error) error {
	cl, jerr := e.joinCluster() // collective: every rank, first
	if jerr != nil {
		return jerr
	}
	var j *libraryJob
	if e.world.Rank() == 0 && err == nil {
		j, err = newLibraryJob(c, e, rt, o)
	}
	differ := cl.SameSettings(commandSettings(c))
	var sm *cluster.SettingsMismatchError
	if errors.As(differ, &sm) {
		differ = &usageError{differ}
	}
	if err := cl.Agree(cmp.Or(err, differ)); err != nil {
		return err
	}
	if e.world.Rank() != 0 {
		return e.world.IdleBarrier(libraryPoll)
	}
	defer func() { _ = e.world.IdleBarrier(libraryPoll) }()
	j.hosts = cl.Nodes()
	return j.run(c)
}

// newLibraryJob reads and checks every flag before anything is built or
// written.
func newLibraryJob(c *cli.Context, e *env, rt libcheck.Runtime, o *libraryOpts) (*libraryJob, error) {
	j := &libraryJob{}
	rj, err := newJobWith(c, e, rt, &o.rt, func(rj *runtimeJob, _ *runtimeOpts) error { return j.planFromOpts(rj, o) })
	if err != nil {
		return nil, err
	}
	j.runtimeJob = rj
	format, _ := lookupFormat(report.CmdRuntime, o.rt.format.v) // newJobWith checked it
	j.reporter = format.Library
	return j, nil
}

// planFromOpts reads the data, cases and timing flags.
func (j *libraryJob) planFromOpts(rj *runtimeJob, o *libraryOpts) error {
	cfg := &o.rt.sweep.cfg
	cfg.Type = convert.Float64
	cfg.Count = int64(hdf5DefaultBytes / libcheck.ElementBytes)
	if rj.rt == libcheck.MPIIO {
		cfg.Count = mpiioDefaultBytes / libcheck.ElementBytes
	}
	if err := rj.timingFromOpts(&o.rt.sweep); err != nil {
		return err
	}
	rj.plan = libcheck.Plan{Dir: rj.cfg.Dir, Elements: rj.cfg.Count, Rounds: libcheck.DefaultRounds, Seed: rj.cfg.Seed, Sync: rj.cfg.Sync, Warmup: true}
	if rj.rt == libcheck.MPIIO {
		return j.mpiioFromOpts(rj, o)
	}
	return j.hdf5FromOpts(rj, o)
}

func (j *libraryJob) mpiioFromOpts(rj *runtimeJob, o *libraryOpts) error {
	var err error
	ch := &j.mpiio
	if ch.Components, err = parseList("--components", o.components.v, oneOf(libcheck.OMPIO, libcheck.ROMIO)); err != nil {
		return err
	}
	if ch.Layouts, err = parseList("--layouts", o.layouts.v, layoutOf(libcheck.LayoutPerRank, libcheck.LayoutShared)); err != nil {
		return err
	}
	if ch.Collective, err = parseList("--modes", o.modes.v, modeOf); err != nil {
		return err
	}
	if ch.Memories, err = parseList("--memory", o.memory.v, oneOf(libcheck.MemoryContiguous, libcheck.MemoryStrided)); err != nil {
		return err
	}
	lp := &rj.plan.Library
	lp.Stride, lp.Ranks = o.memoryStride.v, o.ranks.v
	t, err := convert.ParseType(o.memoryType.v)
	switch {
	case err != nil:
		return fmt.Errorf("--memory-type: %w", err)
	case t.Size() > 8:
		return fmt.Errorf("--memory-type: %s: MPI-IO's strided memory takes elements of 4 or 8 bytes", t)
	case lp.Stride < 1:
		return fmt.Errorf("--memory-stride: %d: want at least 1", lp.Stride)
	case o.ranks.set && lp.Ranks < 1:
		return fmt.Errorf("--ranks: %d: want at least 1", lp.Ranks)
	}
	lp.Type = t.String()
	if lp.Source, err = oneOf(libcheck.SourceArray, libcheck.SourceWindow)(o.source.v); err != nil {
		return fmt.Errorf("--source: %w", err)
	}
	if lp.CallBytes, err = parseBytes("--call-size", o.callSize.v); err != nil {
		return err
	}
	return checkCalls(lp.CallBytes, rj.plan.Bytes(), int64(t.Size()))
}

// checkCalls: the calls hold whole elements, and at most MPI's int count.
func checkCalls(call, total, elem int64) error {
	switch {
	case call%elem != 0 || total%elem != 0:
		return fmt.Errorf("--call-size: %d bytes and %d per rank must both be whole %d-byte elements", call, total, elem)
	case call > 1<<30:
		return fmt.Errorf("--call-size: %s is above 1 GiB, what one MPI-IO call takes", units.FormatSize(call))
	case call > total:
		return fmt.Errorf("--call-size: %s is more than the %s each rank writes; raise --size", units.FormatSize(call), units.FormatSize(total))
	}
	return nil
}

func (j *libraryJob) hdf5FromOpts(rj *runtimeJob, o *libraryOpts) error {
	var err error
	ch := &j.hdf5
	if ch.Storages, err = parseList("--storage", o.storage.v, oneOf(libcheck.StorageContiguous, libcheck.StorageChunked)); err != nil {
		return err
	}
	if ch.Layouts, err = parseList("--layouts", o.layouts.v, layoutOf(libcheck.LayoutArray, libcheck.LayoutRecords)); err != nil {
		return err
	}
	if ch.Orders, err = parseOrders(o.rt.sweep.convert.v); err != nil {
		return err
	}
	rj.plan.RecordBytes, err = rj.recordFromOpts(o.rt.record)
	return err
}

// oneOf parses a name among valid.
func oneOf(valid ...string) func(string) (string, error) {
	return func(s string) (string, error) {
		if slices.Contains(valid, s) {
			return s, nil
		}
		return "", fmt.Errorf("%q (valid: %s)", s, strings.Join(valid, ", "))
	}
}

func layoutOf(valid ...libcheck.Layout) func(string) (libcheck.Layout, error) {
	return func(s string) (libcheck.Layout, error) {
		if slices.Contains(valid, libcheck.Layout(s)) {
			return libcheck.Layout(s), nil
		}
		return "", fmt.Errorf("%q (valid: %s %s)", s, valid[0], valid[1])
	}
}

// modeOf is a --modes name: true for collective.
func modeOf(s string) (bool, error) {
	switch s {
	case "independent":
		return false, nil
	case "collective":
		return true, nil
	}
	return false, fmt.Errorf("%q (valid: independent, collective)", s)
}

func (j *libraryJob) run(c *cli.Context) error {
	ctx := c.Context
	scratch, err := j.scratchDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	defer j.env.cleanups.add(func() { os.RemoveAll(scratch) })()
	w, err := runtimes.Build(ctx, j.rt, scratch)
	if err != nil {
		return err // without the compiler or the library: one line saying what to install
	}
	defer w.Close()
	if err := j.launchFrom(w); err != nil {
		return err
	}
	defer j.closeJobs()
	fmt.Fprintf(j.stderr, "iobench: profile %s (%s)\n", j.sweep.profile, j.sweep.profileWhy)
	rep := &report.LibraryReport{RuntimeReport: *j.rep}
	j.rep = &rep.RuntimeReport
	rep.Compiler = w.Compiler()
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		return err
	}
	j.plan.Dir, j.plan.Prefix = j.info.ResolvedDir, prefix
	j.plan.DefaultBuffer = 1 << 20 // the quick sweep's middle; the libraries' defaults are per setting
	j.buffers = []int64{quickSweepSmallest, quickSweepLargest}
	if err := j.preflight(); err != nil {
		return err
	}
	sw, err := j.prediction(ctx, prefix)
	if err != nil {
		return j.finishLibrary(rep, nil, err)
	}
	j.rep.Sweep, j.plan.Sweep = sw, sw
	j.planCases(sw)
	rep.Library = j.lib
	fmt.Fprintf(j.stderr, "iobench: %s: %d cases x %d rounds of %s each, shuffled (seed %d)\n", j.rt, len(j.plan.Cases()), j.plan.Rounds,
		units.FormatSize(j.plan.Bytes()), j.plan.Seed)
	j.env.active.Store(w) // a second Ctrl-C removes the writer's files
	defer j.env.active.Store(nil)
	obs := libraryObserver{newRuntimeObserver(j.stderr, j.rt, j.plan, j.progress)}
	defer j.env.showing(obs.live)()
	res, runErr := w.Measure(ctx, j.plan, obs)
	obs.live.Stop()
	return j.finishLibrary(rep, res, runErr)
}

// scratchDir is where the writer is built: a private temp directory; an
// MPI writer whose ranks run on other nodes too, under --dir, which they
// all see.
func (j *libraryJob) scratchDir() (string, error) {
	where := ""
	if len(j.hosts) > 1 {
		where = j.info.ResolvedDir
	}
	dir, err := os.MkdirTemp(where, "iobench-runtime-")
	if err != nil {
		return "", fmt.Errorf("building the %s writer: %w", j.rt, err)
	}
	return dir, nil
}

// launchFrom makes an MPI-IO writer start each run as a job of its own,
// spawned from this rank.
func (j *libraryJob) launchFrom(w *runtimes.Writer) error {
	if j.rt != libcheck.MPIIO {
		return nil
	}
	env, err := exec.LookPath("env")
	if err != nil {
		return fmt.Errorf("the MPI-IO writer's environment is set through env(1): %w", err)
	}
	lp := &j.plan.Library
	if lp.Ranks == 0 {
		lp.Ranks = j.env.ranks()
	}
	lp.Hosts = max(1, len(j.hosts))
	j.spawner = &spawner{world: j.env.world, env: env, jobs: map[string]*mpi.Child{}}
	w.SetLauncher(j.spawner)
	j.lib.Launch = fmt.Sprintf("a writer job of %d ranks for each environment (OMPI_MCA_io, bytes_per_agg), MPI_Comm_spawn from rank 0 of this job (%d ranks on %d node(s)), serving that environment's runs",
		lp.Ranks, j.env.ranks(), lp.Hosts)
	return nil
}

// closeJobs ends the writer jobs.
func (j *libraryJob) closeJobs() {
	if j.spawner != nil {
		if err := j.spawner.close(); err != nil {
			fmt.Fprintf(j.stderr, "iobench: warning: ending the MPI-IO writer jobs: %v\n", err)
		}
	}
}

// spawner is the Launcher of the MPI build. It keeps a writer job per
// environment, spawned through env(1), which sets the environment before
// the writer's MPI_Init, and sends that job each of its runs: Open MPI 4
// fails a spawn now and then when jobs are spawned one after another.
type spawner struct {
	world *mpi.World
	env   string
	jobs  map[string]*mpi.Child // by environment and ranks
}

func (s *spawner) Launch(ctx context.Context, l runtimes.Launch) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := strings.Join(append(append(slices.Clone(l.Set), l.Unset...), strconv.Itoa(l.Ranks)), " ")
	child := s.jobs[key]
	if child == nil {
		args := []string{}
		for _, u := range l.Unset {
			args = append(args, "-u", u)
		}
		// The writer preloads the component's modules by opening this
		// name, which does not exist, before its first run.
		args = append(append(args, l.Set...), l.Bin, "serve", l.Args[0]+"-preload")
		var err error
		if child, err = s.world.SpawnChild(s.env, args, l.Ranks); err != nil {
			return nil, err
		}
		s.jobs[key] = child
	}
	out, err := child.Request([]byte(strings.Join(l.Args, "\x00")), libraryPoll)
	if err != nil {
		delete(s.jobs, key)
	}
	return out, err
}

// close ends every writer job.
func (s *spawner) close() error {
	var errs []error
	for key, child := range s.jobs {
		errs = append(errs, child.Close())
		delete(s.jobs, key)
	}
	return errors.Join(errs...)
}

// planCases sets the library's cases from the sweep's recommendation:
// the values the apply block gives, and for HDF5 chunks of the knee.
func (j *libraryJob) planCases(sw *libcheck.Sweep) {
	rec := advice.LibraryValues(advice.ApplyFacts{Knee: sw.KneeBytes, Buffer: sw.RecommendedBytes, FS: j.info})
	lp := &j.plan.Library
	lp.Recommended = rec
	if j.rt == libcheck.MPIIO {
		j.mpiio.Recommended, j.mpiio.Ranks = withSwitch(rec), lp.Ranks
		j.plan.CaseList, j.lib.Notes = libcheck.MPIIOCases(j.mpiio)
		lp.Recommended = j.mpiio.Recommended
	} else {
		j.hdf5.Recommended = rec
		j.plan.CaseList, j.lib.Notes = libcheck.HDF5Cases(j.hdf5)
		lp.ChunkBytes = chunkOf(sw, j.plan.Bytes())
	}
	j.lib.Version = j.libraryVersion()
	j.lib.LibraryPlan = *lp
	j.lib.Unmeasured = j.unmeasured()
	if sw.KneeBytes == 0 {
		j.lib.Notes = append(j.lib.Notes, "the write(2) sweep found no knee: every setting runs its default only")
	}
}

// withSwitch adds romio_cb_write=enable to the values advised: its
// measured gain decides whether it gets a row.
func withSwitch(rec map[string]int64) map[string]int64 {
	out := map[string]int64{libcheck.SwitchCBWrite: 0}
	for k, v := range rec {
		out[k] = v
	}
	return out
}

// chunkOf is HDF5's chunk: the sweep's recommended size, else 1 MiB
// (HDF5's chunk cache), at most the data.
func chunkOf(sw *libcheck.Sweep, total int64) int64 {
	k := sw.RecommendedBytes
	if k <= 0 {
		k = libcheck.HDF5CacheDefault
	}
	return min(k, total) / libcheck.ElementBytes * libcheck.ElementBytes
}

func (j *libraryJob) libraryVersion() string {
	if j.rt == libcheck.MPIIO { // "Open MPI v4.1.4, package: ...": the name and version
		v, _, _ := strings.Cut(mpi.LibraryVersion(), ",")
		return v
	}
	out, err := exec.Command("pkg-config", "--modversion", "hdf5").Output()
	if err != nil {
		return ""
	}
	return "HDF5 " + strings.TrimSpace(string(out))
}

// unmeasured says why the other libraries' apply rows were not measured
// in this run: which check measures them, or what is not installed.
func (j *libraryJob) unmeasured() map[string]string {
	out := map[string]string{advice.RuntimePnetCDF: "no iobench runtime check measures it"}
	if j.rt == libcheck.MPIIO {
		for comp, rt := range map[string]string{libcheck.OMPIO: advice.RuntimeOMPIO, libcheck.ROMIO: advice.RuntimeROMIO} {
			if !slices.Contains(j.mpiio.Components, comp) {
				out[rt] = "this run left " + comp + " out (--components)"
			}
		}
		out[advice.RuntimeHDF5] = installedWords(libcheck.HDF5, "iobench runtime hdf5")
		return out
	}
	mpiWords := installedWords(libcheck.MPIIO, "the MPI build of iobench under mpirun: iobench runtime mpiio")
	out[advice.RuntimeROMIO], out[advice.RuntimeOMPIO] = mpiWords, mpiWords
	return out
}

// installedWords says how to check rt's rows, or what to install first.
func installedWords(rt libcheck.Runtime, check string) string {
	_, err := runtimes.FindCompiler(rt, os.Getenv("PATH"))
	var nc *runtimes.NoCompilerError
	if errors.As(err, &nc) {
		return fmt.Sprintf("%s is not installed here (Debian: apt-get install %s), so it could not be checked", nc.What, nc.Package)
	}
	return "check it with " + check
}

// finishLibrary summarizes what was measured and writes the report,
// also after a failure part way.
func (j *libraryJob) finishLibrary(rep *report.LibraryReport, res *libcheck.Result, runErr error) error {
	rep.Config = report.NewRuntimeConfig(j.plan)
	rep.Config.Profile = j.sweep.profile
	return j.finishWith(res, runErr, rep.SetApply, func() error {
		return j.writeReport(func(w io.Writer) error { return j.reporter(w, rep) })
	})
}

// libraryObserver is the runtime observer, its lines in the library's
// words: a case and what it sets.
type libraryObserver struct{ *runtimeObserver }

func (o libraryObserver) WarmupStarted(c libcheck.Case) {
	o.follow(0)
	o.live.Warmup(fmt.Sprintf("iobench: %s: warm-up: one untimed run of %s, %s, %s", o.rt,
		humanize.IBytes(uint64(o.plan.Bytes())), libcheck.CaseName(c), libcheck.SettingName(c)))
}

func (o libraryObserver) StepStarted(s libcheck.Step, _ int) {
	o.follow(s.Seq)
	o.live.Started(libcheck.CaseName(s.Case))
}

func (o libraryObserver) StepFinished(s libcheck.Sample, total int) {
	o.addSample(s)
	o.live.Finished(fmt.Sprintf("iobench: %s %d/%d r%d: %s, %s: %.1f MiB/s, %d write(2) calls",
		o.rt, s.Seq, total, s.Round, libcheck.CaseName(s.Case), libcheck.SettingName(s.Case), s.MiBPerSec(), s.WriteCalls))
}
