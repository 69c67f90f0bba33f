package cli

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/binary"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/program"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload"
	"github.com/iobench/iobench/workload/darshan"
	"github.com/iobench/iobench/workload/strace"
)

const appExamples = `Runs a program (-- PROG ARGS...) under strace, or reads what a program wrote from its Darshan
logs or strace traces (the write calls of each file, by size) and, held against a curve of the
file system, says what those writes cost here, what they would cost at the recommended write
size, and what to set, for the libraries the program used. A program is run in the current
directory with its streams passed through; the report goes to stderr (or -o), the exit status
is the program's (125 when iobench fails, 126/127 when the program cannot be run). Without
--curve, app measures a quick curve beside the program's largest file, flushing as it did.

   iobench app -- ./prog input.nml                          # run it, name its libraries, price its writes
   iobench app --format json -o app.json -- mpirun -np 1 ./prog

   iobench app job.darshan                                  # the sizes alone, and how to get a curve
   iobench app job.darshan --curve gpfs.json                # the cost, the saving and what to set
   iobench app rank.1234 rank.1235 --curve ext4.json        # strace -ff files of one run, taken together
   strace -f -T -y -e trace=write,pwrite64,writev,pwritev,openat,close -o trace.txt ./prog
   iobench app trace.txt --curve ext4.json --format markdown -o app.md`

func (e *env) appCommand(onUsage cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{Name: "app", Usage: "what a program's writes cost here: run it (-- PROG ARGS...), or read its Darshan logs or strace traces",
		Description: appExamples, ArgsUsage: "FILE... (Darshan logs or strace traces) | -- PROG ARGS...", Flags: appFlags(), Action: e.appAction, OnUsageError: onUsage}
}

// appOpts are app's flags, read once, for both of its forms.
type appOpts struct {
	curve, format, output, applyFor, trace opt[string]
	scratch                                opt[string]
	curveTime, untracedBelow               opt[time.Duration]
}

func appRows() []optRow[appOpts] {
	return []optRow[appOpts]{
		curveRow("a measured curve of the file system the program wrote to: a saved sweep, or any file analyze reads",
			"none: the sizes alone, and how to measure the curve", func(o *appOpts) *opt[string] { return &o.curve }),
		formatRow(report.CmdApp, "text", "output format: %s", func(o *appOpts) *opt[string] { return &o.format }),
		outputRow("write the report to this new file (atomically) instead of stdout", func(o *appOpts) *opt[string] { return &o.output }),
		forRow(func(o *appOpts) *opt[string] { return &o.applyFor }),
		curveTimeRow("with -- PROG and no --curve: the time the quick curve may take", func(o *appOpts) *opt[time.Duration] { return &o.curveTime }),
		row(&cli.DurationFlag{Name: "untraced-below", Value: defaultUntracedBelow, Usage: "with -- PROG: run the program again untraced, for its wall time, when the traced run was shorter (0: never)"},
			func(o *appOpts) *opt[time.Duration] { return &o.untracedBelow }),
		row(&cli.StringFlag{Name: "trace", Usage: "with -- PROG: keep the strace trace of the run in this new file"}, func(o *appOpts) *opt[string] { return &o.trace }),
		scratchRow(func(o *appOpts) *opt[string] { return &o.scratch }),
	}
}

func appFlags() []cli.Flag { return rowFlags(appRows()) }

// programOnly are the flags given that apply to a program app runs.
func programOnly(o appOpts) []string {
	var given []string
	for _, f := range []struct {
		set  bool
		name string
	}{{o.curveTime.set, "--curve-time"}, {o.untracedBelow.set, "--untraced-below"}, {o.trace.set, "--trace"}, {o.scratch.set, "--scratch"}} {
		if f.set {
			given = append(given, f.name)
		}
	}
	return given
}

func (e *env) appAction(c *cli.Context) error {
	var o appOpts
	if err := readRows(c, appRows(), &o); err != nil {
		return err
	}
	applyFor, err := parseFor(o.applyFor)
	if err != nil {
		return err
	}
	if argv, ok := programArgv(c); ok {
		return e.appProgramAction(c, programOptionsOf(o, argv, applyFor))
	}
	if !c.Args().Present() {
		return usagef("app: name at least one Darshan log or strace trace")
	}
	if given := programOnly(o); len(given) > 0 {
		return usagef("%s: only with app -- PROG; with logs app runs no program", strings.Join(given, ", "))
	}
	format, err := lookupFormat(report.CmdApp, o.format.v)
	if err != nil {
		return err
	}
	if err := checkNewOutput(o.output.v); err != nil {
		return err
	}
	inputs, err := readWorkloads(c.Args().Slice())
	if err != nil {
		return err
	}
	rep, err := appReport(commandLine(c), o.curve, applyFor, inputs)
	if err != nil {
		return err
	}
	return toOutput(c.App.Writer, o.output.v, func(w io.Writer) error { return format.App(w, rep) })
}

// appReport is the inputs, against --curve when it is given.
func appReport(command []string, curveFlag opt[string], applyFor []string, inputs []workload.Input) (*report.AppReport, error) {
	head := report.AppReport{Tool: toolInfo(), Command: command, StartTime: time.Now()}
	if !curveFlag.set {
		return report.NewAppReport(head, inputs, nil, nil, nil, nil), nil
	}
	in, err := loadInput(curveFlag.v, loadOpts{applyFor: applyFor})
	if err != nil {
		return nil, fmt.Errorf("--curve: %w", err)
	}
	curve := in.Report
	cc := curve.CostCurve(libcheck.DefaultBuffer(libcheck.Stdio, curve.FS.IOBlockSize))
	if len(cc.Points) == 0 {
		return nil, fmt.Errorf("--curve: %s has no write runs to hold the writes against", curveFlag.v)
	}
	cost := advice.EstimateCost(inputs, cc)
	bs := logBehaviours(inputs)
	ev := advice.RuntimesOf(inputs, advice.ProgramFacts{FortranExe: fortranExe(inputs), Linked: behaviourEvidence(tracedLibraries(inputs), bs)})
	var rows []advice.Apply
	if curve.Recommendation != nil {
		rows = advice.ApplyFor(curve.Recommendation.Apply, ev)
		rows = advice.ForBehaviours(rows, bs, curve.Recommendation.BufferSize)
	}
	head.Curve = report.AppCurveOf(curveFlag.v, curve, cc)
	head.Warnings = curveWarnings(head.Curve, inputs)
	return report.NewAppReport(head, inputs, curve, &cost, ev, rows), nil
}

// curveWarnings are the reasons to doubt the curve for these writes: its
// knee is not established, or it measured another file system than the
// one the files went to.
func curveWarnings(c *report.AppCurve, inputs []workload.Input) []string {
	var out []string
	if c.Knee > 0 && !c.Established {
		out = append(out, fmt.Sprintf("the curve's knee (%d bytes) is not established: the estimate at the recommended size is provisional; a sweep given more time (--time-budget, or --repeat auto where it ran one round) or a quieter machine would establish it", c.Knee))
	}
	seen := map[string]bool{}
	for _, in := range inputs {
		for _, f := range in.Files {
			if f.FSType != "" && c.FS.Type != "" && f.FSType != c.FS.Type && !seen[f.FSType] {
				seen[f.FSType] = true
				out = append(out, fmt.Sprintf("%s was written to %s (%s), the curve measured %s: the estimate holds for a file system like the curve's", f.Path, f.FSType, f.Mount, c.FS.Type))
			}
		}
	}
	return out
}

// readWorkloads reads each file, a Darshan log or an strace trace (told
// apart by Darshan's magic number); the files of one strace -ff run
// (NAME.PID) are read together as one trace.
func readWorkloads(paths []string) ([]workload.Input, error) {
	var out []workload.Input
	traces := map[string][]string{}
	var order []string
	for _, p := range paths {
		isLog, err := sniffDarshan(p)
		if err != nil {
			return nil, err
		}
		if isLog {
			in, err := readDarshan(p)
			if err != nil {
				return nil, err
			}
			out = append(out, in)
			continue
		}
		group := p
		if _, ok := strace.PIDSuffix(p); ok {
			group = strings.TrimSuffix(p, filepath.Ext(p))
		}
		if _, seen := traces[group]; !seen {
			order = append(order, group)
		}
		traces[group] = append(traces[group], p)
	}
	mounts := localMounts()
	for _, g := range order {
		in, err := readTrace(g, traces[g], mounts)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

// openInput opens a file to read, refusing what is not a regular file
// without blocking on a FIFO.
func openInput(path string) (*os.File, int64, error) {
	if path == "-" {
		return nil, 0, usagef("app: - (standard input) is not read: name the log or trace file")
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file (%s)", path, st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

func sniffDarshan(path string) (bool, error) {
	f, _, err := openInput(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return darshan.IsLog(head[:n]), nil
}

func readDarshan(path string) (workload.Input, error) {
	f, size, err := openInput(path)
	if err != nil {
		return workload.Input{}, err
	}
	defer f.Close()
	l, err := darshan.Parse(f, size, darshan.DefaultLimits())
	if err != nil {
		return workload.Input{}, fmt.Errorf("%s: %w", path, err)
	}
	return workload.FromDarshan(path, l), nil
}

// readTrace reads the files of one strace run, in pid order.
func readTrace(name string, paths []string, mounts []workload.Mount) (workload.Input, error) {
	slices.SortFunc(paths, func(a, b string) int {
		pa, _ := strace.PIDSuffix(a)
		pb, _ := strace.PIDSuffix(b)
		return pa - pb
	})
	var streams []strace.Stream
	for _, p := range paths {
		f, _, err := openInput(p)
		if err != nil {
			return workload.Input{}, err
		}
		defer f.Close()
		s := strace.Stream{Name: p, R: f}
		if len(paths) > 1 {
			s.PID, _ = strace.PIDSuffix(p)
		}
		streams = append(streams, s)
	}
	tr, err := strace.ParseStreams(streams...)
	if errors.Is(err, strace.ErrNotStrace) {
		return workload.Input{}, fmt.Errorf("neither a Darshan log (no Darshan magic number) nor an strace trace: %w", err)
	}
	if err != nil {
		return workload.Input{}, err
	}
	in := workload.FromStrace(name, tr, mounts)
	if p := tr.Program(); p != nil && len(p.Execs) > 0 {
		in.Exe = p.Execs[len(p.Execs)-1] // what its execve ran, as for app -- PROG
	}
	return in, nil
}

// localMounts is this machine's mount table, where a trace's files most
// likely are; nil when it cannot be read.
func localMounts() []workload.Mount {
	ms, err := fsinfo.ReadMountInfo("/proc")
	if err != nil {
		return nil
	}
	out := make([]workload.Mount, len(ms))
	for i, m := range ms {
		out[i] = workload.Mount{Path: m.MountPoint, FSType: m.FSType}
	}
	return out
}

// logBehaviours are the call patterns a log or trace shows without the
// program: libgfortran's sequential flushes with its default buffer;
// in a trace, C stdio's st_blksize calls and MPI-IO's collective-buffer
// calls where traceStdio and traceMPIIO find them unambiguous.
func logBehaviours(inputs []workload.Input) []advice.Behaviour {
	var out []advice.Behaviour
	for _, in := range inputs {
		stdio, mpi := traceStdio(in), traceMPIIO(in)
		for _, f := range in.Files {
			if b, ok := logBehaviour(f, stdio, mpi); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

// logBehaviour is one file's: stdio is the evidence that the program
// writes through it, mpi reads MPI-IO's calls ("" and nil: neither).
func logBehaviour(f workload.File, stdio string, mpi func(workload.File) (advice.Behaviour, bool)) (advice.Behaviour, bool) {
	if b, ok := advice.RecogniseGfortranDefault(f); ok && f.Module != workload.ModuleSTDIO {
		return b, true
	}
	if mpi != nil {
		if b, ok := mpi(f); ok {
			return b, true
		}
	}
	return advice.RecogniseStdio(f, blockSizeOf(f.Path), stdio)
}

// traceStdio is the evidence that a trace's program writes through C
// stdio: its executable is here and does (stdioWriter), and the trace
// shows no other runtime opened that could have made the calls. A
// file's st_blksize is read here, so only files that are here count.
func traceStdio(in workload.Input) string {
	if in.Kind != workload.KindStrace {
		return ""
	}
	for _, lib := range in.Libraries {
		if k, ok := binary.IdentifyLib(lib); ok && k != binary.Stdio {
			return ""
		}
	}
	return stdioWriter(in)
}

// traceMPIIO reads a trace's positioned calls as collective writes of
// the MPI-IO component the trace shows ran, when it shows libmpi
// opened: calls of that component's default collective buffer (ROMIO's
// cb_buffer_size, 16 MiB; OMPIO's bytes_per_agg, 32 MiB). Other sizes
// are not read: without the run's hints the buffer is not known.
func traceMPIIO(in workload.Input) func(workload.File) (advice.Behaviour, bool) {
	if in.Kind != workload.KindStrace {
		return nil
	}
	facts, _ := binary.Inspect("", in.Libraries)
	for _, rt := range facts.Runtimes {
		if rt.Kind != binary.OpenMPI && rt.Kind != binary.MPICH {
			continue
		}
		component, why := mpiioComponent(rt, nil, in.Libraries, writtenFSType(in))
		runtime := mpiioRuntime(component)
		return func(f workload.File) (advice.Behaviour, bool) {
			b, ok := advice.RecogniseMPIIO(f, runtime, advice.MPIIOCollectiveDefault(runtime))
			if !ok || b.Access != advice.AccessCollective {
				return advice.Behaviour{}, false
			}
			b.Why += fmt.Sprintf(" (%s, MPI-IO through %s: %s)", filepath.Base(rt.Lib), component, why)
			return b, true
		}
	}
	return nil
}

// behaviourEvidence adds to linked the runtimes whose calls a trace
// shows, stdio's and MPI-IO's, with why.
func behaviourEvidence(linked map[string]string, bs []advice.Behaviour) map[string]string {
	for _, b := range bs {
		if b.Runtime != advice.RuntimeLibgfortran && linked[b.Runtime] == "" {
			linked[b.Runtime] = b.Path + ": " + b.Why
		}
	}
	return linked
}

// gfortranBehaviour reads a file's calls as libgfortran's unformatted
// output with that buffer, else as its formatted output with the
// formatted buffer in effect. Calls both buffers explain (one size set
// for both) are read as unformatted: the sizes cannot tell them apart.
func gfortranBehaviour(f workload.File, unformatted int64) (advice.Behaviour, bool) {
	if b, ok := advice.RecogniseGfortran(f, unformatted); ok {
		return b, true
	}
	return advice.RecogniseGfortranFormatted(f, envBytes(advice.KnobFormatted, advice.GfortranFormattedDefault))
}

// envBytes is a positive byte count from iobench's environment (the
// program's), else def.
func envBytes(name string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil && v > 0 {
		return v
	}
	return def
}

// mpiioComponent is the MPI-IO component an MPI runtime ran and why:
// from the shared objects the trace shows opened, the launcher's --mca
// io in argv, the environment, Open MPI's parameter files, the release.
func mpiioComponent(rt binary.Runtime, argv, opened []string, fstype string) (string, string) {
	s := binary.MPIIOSources{Env: os.Environ(), Opened: opened, Lib: rt.Lib, FSType: fstype}
	if l, ok, err := program.ParseLauncher(argv, os.Getenv("PATH")); ok && err == nil {
		s.Launcher, s.LauncherOpt, _ = l.MCA("io")
	}
	return binary.MPIIOComponentFrom(rt.Kind, rt.Version, s)
}

// stdioWriter is the evidence that the input's program writes its
// files through C stdio (binary.StdioWriter); "" when it does not, or
// when its executable is not here to tell.
func stdioWriter(in workload.Input) string {
	exe, _, _ := strings.Cut(strings.TrimSpace(in.Exe), " ")
	if exe == "" {
		return ""
	}
	why, ok := binary.StdioWriter(exe, in.Libraries)
	if !ok {
		return ""
	}
	return why
}

// tracedLibraries names the runtimes whose shared objects a trace shows
// the program opening.
func tracedLibraries(inputs []workload.Input) map[string]string {
	linked := map[string]string{}
	for _, in := range inputs {
		for _, lib := range in.Libraries {
			kind, ok := binary.IdentifyLib(lib)
			if name := adviceRuntime(kind); ok && name != "" && linked[name] == "" {
				linked[name] = "the trace shows the program opening " + lib
			}
		}
	}
	return linked
}

// fortranExe says whether the executable a log names is here and linked
// with libgfortran.
func fortranExe(inputs []workload.Input) bool {
	for _, in := range inputs {
		exe, _, _ := strings.Cut(strings.TrimSpace(in.Exe), " ")
		if exe == "" {
			continue
		}
		if linksLibgfortran(exe) {
			return true
		}
	}
	return false
}

// linksLibgfortran says whether the program at path, an ELF file here,
// links libgfortran. The path comes from a log, so the open never waits
// (a FIFO there would hang it) and only a regular file is read.
func linksLibgfortran(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	ef, err := elf.NewFile(f)
	if err != nil {
		return false
	}
	libs, _ := ef.ImportedLibraries()
	return slices.ContainsFunc(libs, func(l string) bool { return strings.HasPrefix(l, "libgfortran") })
}
