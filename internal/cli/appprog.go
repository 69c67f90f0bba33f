package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/binary"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/program"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
	"github.com/iobench/iobench/workload"
	"github.com/iobench/iobench/workload/strace"
)

// Defaults of `app -- PROG`.
const (
	defaultCurveTime     = time.Minute     // the quick curve's time budget
	defaultUntracedBelow = 3 * time.Minute // traced runs shorter than this are run again untraced
	stdinReplayLimit     = 1 << 30         // bytes of a piped stdin kept to replay
	scratchTrace         = "trace"         // the trace's file in the scratch directory
)

// programOptions are the flags of `app -- PROG` and `tune -- PROG`, read once.
type programOptions struct {
	argv          []string
	curve         string
	curveTime     time.Duration
	untracedBelow time.Duration
	traceOut      string
	output        string
	formatName    string        // --format
	format        render.Format // formatName, looked up
	applyFor      []string      // --for, for the curve's how-to-apply block
	// copyFirst: copy the working tree's files before the first run, up
	// to saveFirst bytes (tune's --max-saved); app copies none.
	copyFirst bool
	saveFirst int64
	scratch   string // --scratch: where the run's own files go; "": $TMPDIR
}

// programArgv is the program and its arguments when the command line
// has "--" after the command's name: then app runs the program. The raw
// arguments decide, since flagsFirst adds a "--" before file names.
func programArgv(c *cli.Context) ([]string, bool) {
	raw, _ := c.App.Metadata["args"].([]string)
	at := slices.Index(raw, c.Command.Name)
	if at < 0 || !slices.Contains(raw[at+1:], "--") {
		return nil, false
	}
	return c.Args().Slice(), true
}

// programExit is the exit status app and tune return for the program,
// as env(1) does: the program's own, or 125-127 for iobench's failures.
type programExit struct {
	status int
	err    error // printed once; nil when the program's own status says it
}

func (e *programExit) Error() string {
	if e.err == nil {
		return fmt.Sprintf("the program ended with status %d", e.status)
	}
	return e.err.Error()
}

func (e *programExit) Unwrap() error { return e.err }

// asToolFailure makes a failure of iobench while it runs a program exit
// 125, as env(1) does; usage errors and interruptions keep their codes.
func asToolFailure(err error) error {
	var ue *usageError
	var pe *programExit
	var se *program.StartError
	switch {
	case err == nil, errors.As(err, &ue), errors.As(err, &pe):
		return err
	case errors.As(err, &se):
		return &programExit{status: se.Status, err: err}
	case errors.Is(err, context.Canceled), errors.Is(err, iobench.ErrInterrupted):
		return err
	}
	return &programExit{status: program.ExitToolFailure, err: err}
}

// programOptionsOf are app's flags for `app -- PROG`.
func programOptionsOf(o appOpts, argv []string, applyFor []string) programOptions {
	return programOptions{argv: argv, curve: o.curve.v, curveTime: o.curveTime.v, untracedBelow: o.untracedBelow.v,
		traceOut: o.trace.v, output: o.output.v, formatName: o.format.v, applyFor: applyFor, scratch: o.scratch.v}
}

// absScratch is --scratch as an absolute path (the writers are built
// and the program runs in other directories), refused when it is not a
// directory this user can write in; "" is $TMPDIR.
func absScratch(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", usagef("--scratch: %q is not a directory", dir)
	}
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return "", usagef("--scratch: %q is not writable: %s", dir, iobench.Describe(err))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", usagef("--scratch: %q: %v", dir, err)
	}
	return abs, nil
}

// check refuses what cannot run, before the program does.
func (o *programOptions) check(cmd string) error {
	if len(o.argv) == 0 {
		return usagef("%s: name the program to run after --", cmd)
	}
	if o.curveTime <= 0 {
		return usagef("--curve-time: %v is not a positive duration", o.curveTime)
	}
	if o.untracedBelow < 0 {
		return usagef("--untraced-below: %v is negative (0: never run the program untraced)", o.untracedBelow)
	}
	var err error
	if o.scratch, err = absScratch(o.scratch); err != nil {
		return err
	}
	if o.format, err = lookupFormat(report.CmdApp, o.formatName); err != nil {
		return err
	}
	for _, p := range []string{o.output, o.traceOut} {
		if err := checkNewOutput(p); err != nil {
			return err
		}
	}
	return nil
}

// appProgramAction is `iobench app [flags] -- PROG ARGS...`.
func (e *env) appProgramAction(c *cli.Context, o programOptions) error {
	if err := o.check("app --"); err != nil {
		return err
	}
	r, err := newProgramRun(c, e, o)
	if err != nil {
		return asToolFailure(err)
	}
	defer r.close()
	rep, status, err := r.appReport(c.Context)
	if err != nil {
		return asToolFailure(err)
	}
	if err := r.writeReport(c, rep); err != nil {
		return asToolFailure(err)
	}
	if status != 0 {
		return &programExit{status: status}
	}
	return nil
}

// programRun is one program being run, traced and priced.
type programRun struct {
	o      programOptions
	e      *env
	c      *cli.Context
	stderr io.Writer
	exe    string // argv[0] resolved
	tmp    string // iobench's scratch: the trace, a captured stdin, tune's copies
	// keepTmp: a restore from a copy in tmp failed, so tmp holds the
	// only good copy of a user's file and is kept.
	keepTmp atomic.Bool
	stdin   string // the captured stdin to replay; "" when not captured
	tty     *os.File
	removed func()
	// before lists the regular files of the working directory before the
	// first run, to tell the files a run created.
	before treeListing
	snap   *treeCopy // tune's copy of the tree before the first run
	// afterFirst, when set, judges the first run before anything else
	// runs: tune refuses there what it could not put back.
	afterFirst func(observed) error
}

func newProgramRun(c *cli.Context, e *env, o programOptions) (*programRun, error) {
	exe, err := program.Resolve(o.argv[0], "", os.Getenv("PATH"))
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(o.scratch, "iobench-app-")
	if err != nil {
		return nil, fmt.Errorf("scratch directory: %w", err)
	}
	r := &programRun{o: o, e: e, c: c, stderr: c.App.ErrWriter, exe: exe, tmp: tmp}
	r.removed = e.cleanups.add(func() { r.removeTmp() })
	if err := r.captureStdin(); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *programRun) close() {
	r.removed()
	r.removeTmp()
}

// removeTmp removes the scratch directory, unless it holds the only
// good copy of a file a failed restore left half-written.
func (r *programRun) removeTmp() {
	if r.keepTmp.Load() {
		fmt.Fprintf(r.stderr, "iobench: kept %s: it holds the copies of your files from before the first run, and putting one back failed\n", r.tmp)
		return
	}
	os.RemoveAll(r.tmp)
}

// restoreFailed keeps the scratch directory and names the copy in err.
func (r *programRun) restoreFailed(copyPath string, err error) error {
	r.keepTmp.Store(true)
	return fmt.Errorf("%w (the copy from before the first run is kept at %s)", err, copyPath)
}

// captureStdin keeps a piped or redirected stdin so that every run reads
// the same bytes; a terminal is passed to the first run as it is.
func (r *programRun) captureStdin() error {
	if st, err := os.Stdin.Stat(); err != nil || st.Mode()&os.ModeCharDevice != 0 {
		r.tty = program.ForegroundTerminal(os.Stdin)
		return nil
	}
	path, _, err := program.CaptureStdin(os.Stdin, r.tmp, stdinReplayLimit)
	if err != nil {
		return fmt.Errorf("standard input: %w", err)
	}
	r.stdin = path
	return nil
}

// spec is one run of the program with the user's streams; quiet runs
// (a timing run, tune's runs) send its output to /dev/null.
func (r *programRun) spec(env []string, quiet bool) (program.Spec, func(), error) {
	s := program.Spec{Argv: r.o.argv, Env: env}
	closer := func() {}
	if r.stdin != "" {
		f, err := os.Open(r.stdin)
		if err != nil {
			return s, closer, err
		}
		s.Stdin, closer = f, func() { f.Close() }
	} else if !quiet {
		s.Stdin, s.Terminal = os.Stdin, r.tty
	}
	if !quiet {
		s.Stdout, s.Stderr = r.c.App.Writer, r.stderr
	}
	return s, closer, nil
}

// observed is what one traced (or loader-watched) run showed.
type observed struct {
	res    program.Result
	input  workload.Input
	exe    string   // the executable that wrote most bytes
	libs   []string // the shared objects its process opened
	traced bool
	note   string           // why the writes are not known, when untraced
	ranks  *report.AppRanks // a launcher's ranks, each traced; nil otherwise
	split  string           // why a launcher's command line was not split
	// mapNote names the shared objects only the process's maps showed.
	mapNote string
}

// observe runs the program once under strace, or, when strace is
// missing or refused, with the loader's trace for its libraries alone.
func (r *programRun) observe(ctx context.Context) (observed, error) {
	st, err := program.FindStrace(os.Getenv("PATH"))
	if err == nil {
		err = program.Preflight(ctx, st)
	}
	if ctx.Err() != nil {
		return observed{}, fmt.Errorf("%w before the program ran", iobench.ErrInterrupted)
	}
	if err != nil {
		fmt.Fprintf(r.stderr, "iobench: %v\niobench: running the program untraced: its time and libraries are reported, not its writes\n", err)
		return r.observeLoaded(ctx, err.Error())
	}
	s, done, err := r.spec(nil, false)
	if err != nil {
		return observed{}, err
	}
	defer done()
	ob := observed{traced: true, split: r.launcherNote()}
	sampler := sampleMaps(&s)
	res, out, err := r.tracedRun(ctx, s, st, strace.RecordFlags(), scratchTrace)
	maps := sampler.stop()
	if err != nil {
		return observed{}, err
	}
	defer out.remove()
	if err := out.roomLeft(); err != nil {
		return observed{}, err
	}
	ob.res = res
	if err := r.readTrace(out, &ob); err != nil {
		return ob, err
	}
	ob.addMapped(maps)
	return ob, nil
}

// mapsSampler samples a run's processes' maps from its start.
type mapsSampler struct{ w *program.MapsWatch }

// sampleMaps has s's run sampled for the files its processes map.
func sampleMaps(s *program.Spec) *mapsSampler {
	m := &mapsSampler{}
	s.OnStart = func(pid int) { m.w = program.WatchMaps(pid, program.MapsEvery) }
	return m
}

// stop ends the sampling: the files mapped, by executable.
func (m *mapsSampler) stop() map[string][]string { return m.w.Stop() }

// addMapped adds the shared objects the program's process had mapped
// that the trace or the loader did not name, and says so.
func (ob *observed) addMapped(maps map[string][]string) {
	exe, _ := filepath.Abs(ob.exe) // /proc/PID/exe is absolute, links resolved
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	var added []string
	for _, lib := range maps[exe] {
		if strace.IsSharedObject(lib) && !slices.Contains(ob.libs, lib) {
			ob.libs = append(ob.libs, lib)
			added = append(added, lib)
		}
	}
	if len(added) > 0 {
		ob.mapNote = fmt.Sprintf("%d shared object(s) seen only in /proc/PID/maps of %s: %s", len(added), ob.exe, strings.Join(added, ", "))
	}
}

// launcherNote says, once, that a launcher's command line could not be
// split, and that its ranks elsewhere go unseen.
func (r *programRun) launcherNote() string {
	_, _, err := program.ParseLauncher(r.o.argv, os.Getenv("PATH"))
	if err == nil {
		return ""
	}
	note := fmt.Sprintf("%v; traced the launcher with strace -f instead: ranks it starts on other nodes are not seen", err)
	fmt.Fprintf(r.stderr, "iobench: %s\n", note)
	return note
}

func (r *programRun) observeLoaded(ctx context.Context, why string) (observed, error) {
	s, done, err := r.spec(nil, false)
	if err != nil {
		return observed{}, err
	}
	defer done()
	sampler := sampleMaps(&s)
	res, loaded, err := program.RunLoaded(ctx, s, r.tmp)
	maps := sampler.stop()
	if err != nil {
		return observed{}, err
	}
	ob := observed{res: res, note: why, input: workload.Input{Path: strings.Join(r.o.argv, " "), Kind: workload.KindStrace}}
	ob.exe, ob.libs = programOf(loaded, r.exe)
	ob.addMapped(maps)
	return ob, nil
}

// programOf is the process of a loader-watched run that app reads: the
// last one that loaded an I/O runtime other than libc (app -- ./run.sh
// reads the program the script starts, not the shell), else the last
// one; its executable resolved as ld.so named it, else fallback.
func programOf(loaded []program.Loaded, fallback string) (string, []string) {
	if len(loaded) == 0 {
		return fallback, nil
	}
	loaded = slices.SortedFunc(slices.Values(loaded), func(a, b program.Loaded) int { return a.PID - b.PID }) // the order they started
	pick := loaded[len(loaded)-1]
	for _, l := range slices.Backward(loaded) {
		if slices.ContainsFunc(l.Libs, func(lib string) bool { k, ok := binary.IdentifyLib(lib); return ok && k != binary.Stdio }) {
			pick = l
			break
		}
	}
	wd, _ := os.Getwd() // a relative name is the process's own cwd's: most often app's
	exe, err := program.Resolve(pick.Program, wd, os.Getenv("PATH"))
	if err != nil {
		exe = fallback
	}
	return exe, pick.Libs
}

// readTrace parses the run's trace, keeping a copy where --trace says.
func (r *programRun) readTrace(out traceOut, ob *observed) error {
	if r.o.traceOut != "" {
		if err := out.keep(r.o.traceOut); err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
	}
	tr, ranks, err := out.read()
	if err != nil {
		return fmt.Errorf("reading the trace: %w", err)
	}
	ob.ranks = ranks
	ob.input = workload.FromStrace(strings.Join(r.o.argv, " "), tr, localMounts())
	ob.exe = r.exe
	if p := tr.Program(); p != nil {
		if len(p.Execs) > 0 {
			ob.exe = p.Execs[len(p.Execs)-1]
		}
		ob.libs = p.Libs
	}
	ob.input.Exe = ob.exe
	return nil
}

// copyNew copies src to a new file dst, refusing to replace one.
func copyNew(src, dst string) error {
	return report.WriteNew(dst, func(w io.Writer) error {
		f, err := os.Open(src)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
}

// libraries names the program's I/O runtimes from its executable and
// the shared objects it loaded; an MPI runtime's MPI-IO component from
// those, the launcher's options in argv and the environment.
func libraries(exe string, argv, libs []string, fstype string) ([]report.AppLibrary, map[string]string, []string) {
	facts, err := binary.Inspect(exe, libs)
	var notes []string
	if err != nil && !errors.Is(err, binary.ErrNotELF) {
		notes = append(notes, fmt.Sprintf("reading %s: %v", exe, err))
	}
	var out []report.AppLibrary
	linked := map[string]string{}
	for _, rt := range facts.Runtimes {
		out = append(out, report.AppLibrary{Kind: string(rt.Kind), Lib: rt.Lib, Version: rt.Version, Evidence: rt.Evidence})
		if name := adviceRuntime(rt.Kind); name != "" {
			linked[name] = rt.Evidence
		}
		if rt.Kind == binary.OpenMPI || rt.Kind == binary.MPICH {
			component, why := mpiioComponent(rt, argv, libs, fstype)
			linked[mpiioRuntime(component)] = rt.Evidence + "; MPI-IO through " + component + ": " + why
			out[len(out)-1].Evidence += "; MPI-IO component " + component + " (" + why + ")"
		}
	}
	return out, linked, notes
}

// mpiioRuntime is the advice's name of an MPI-IO component.
func mpiioRuntime(component string) string {
	if component == "ompio" {
		return advice.RuntimeOMPIO
	}
	return advice.RuntimeROMIO
}

// adviceRuntime is the advice's name of a runtime binary found; "" for
// one without settings of its own there.
func adviceRuntime(k binary.Kind) string {
	switch k {
	case binary.Gfortran:
		return advice.RuntimeLibgfortran
	case binary.IntelFortran:
		return advice.RuntimeIntel
	case binary.HDF5:
		return advice.RuntimeHDF5
	}
	return ""
}
