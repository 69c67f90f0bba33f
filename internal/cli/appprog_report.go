package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/program"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload"
)

// appReport runs the program, traced, then untraced for its time when
// the traced run was short, and prices its writes on a curve that
// flushes as it did. status is the program's exit status.
func (r *programRun) appReport(ctx context.Context) (*report.AppReport, int, error) {
	rep, ob, err := r.measure(ctx)
	return rep, ob.res.Status, err
}

// measure is appReport with what the traced run observed, for tune.
func (r *programRun) measure(ctx context.Context) (*report.AppReport, observed, error) {
	if dir, err := workDir(); err == nil {
		r.before = listTree(dir)
	}
	if err := r.saveTree(ctx); err != nil {
		return nil, observed{}, err
	}
	ob, err := r.observe(ctx)
	if err != nil {
		return nil, ob, err
	}
	if ob.res.Interrupted() {
		return nil, ob, fmt.Errorf("%w: %s %s", iobench.ErrInterrupted, r.o.argv[0], ob.res.Describe())
	}
	if r.afterFirst != nil {
		if err := r.afterFirst(ob); err != nil {
			return nil, ob, err
		}
	}
	p := r.programRecord(ob)
	r.timeUntraced(ctx, ob, p)
	inputs := []workload.Input{ob.input}
	libs, linked, notes := libraries(ob.exe, r.o.argv, ob.libs, writtenFSType(ob.input))
	p.Libraries, p.Notes = libs, append(p.Notes, notes...)
	p.Behaviours = behaviours(ob.input, r.gfortranBuffer(), linked)
	head := report.AppReport{Tool: toolInfo(), Command: commandLine(r.c), StartTime: time.Now(), Program: p}
	unpriced := func() (*report.AppReport, observed, error) {
		return report.NewAppReport(head, inputs, nil, nil, advice.RuntimesOf(inputs, advice.ProgramFacts{Linked: linked}), nil), ob, nil
	}
	if !ob.traced {
		return unpriced()
	}
	curve, err := r.programCurve(ctx, ob.input, p)
	if err != nil {
		return nil, ob, err
	}
	if curve == nil {
		return unpriced()
	}
	rep := priceOn(head, inputs, curve, advice.ProgramFacts{Linked: linked})
	rep.Warnings = append(rep.Warnings, programWarnings(p)...)
	return rep, ob, r.priceThroughRuntime(ctx, ob.input, curve, p)
}

// writtenFSType is the file system type of the program's largest file.
func writtenFSType(in workload.Input) string {
	if f := largestFile(in); f != nil {
		return f.FSType
	}
	return ""
}

// programRecord is what the report says of the run itself.
func (r *programRun) programRecord(ob observed) *report.AppProgram {
	p := &report.AppProgram{Argv: r.o.argv, Exe: ob.exe, Status: ob.res.Status, Outcome: ob.res.Describe(), Traced: ob.traced, TraceWhy: ob.note, Ranks: ob.ranks}
	for _, n := range []string{ob.split, ob.mapNote} {
		if n != "" {
			p.Notes = append(p.Notes, n)
		}
	}
	if ob.traced {
		p.TracedSeconds = ob.res.Wall.Seconds()
		p.WallBasis = "traced"
		for _, f := range ob.input.Files {
			p.TracedWriteSeconds += f.WriteSeconds
		}
	} else {
		p.UntracedSeconds, p.WallBasis = ob.res.Wall.Seconds(), "untraced"
	}
	fl := workload.FlushOf([]workload.Input{ob.input})
	p.Flush, p.FlushWhy, p.Unseen = fl.Mode, fl.Why, dataFiles(fl.Mapped)
	if !ob.traced {
		p.Flush, p.FlushWhy = "unknown", "the program's calls were not traced"
	}
	return p
}

// dataFiles are the mapped files that outlived the run as regular
// files of some size: the program's data, not a runtime's shared
// memory segments and locks, which are gone or tiny.
func dataFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() && st.Size() >= 1<<20 && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// timeUntraced runs the program again without the tracer when the
// traced run was short, for a wall time the tracer did not inflate. A
// program that appends to a file it did not create would change it on
// a second run: then the traced time stands, labelled so.
func (r *programRun) timeUntraced(ctx context.Context, ob observed, p *report.AppProgram) {
	if !ob.traced {
		return
	}
	switch why := r.untracedRefusal(ob); {
	case why != "":
		p.UntracedWhy = why
		return
	}
	fmt.Fprintf(r.stderr, "iobench: running %s again, untraced, for its wall time (the traced run took %.3g s, under --untraced-below %v); its output goes to /dev/null\n",
		r.o.argv[0], ob.res.Wall.Seconds(), r.o.untracedBelow)
	s, done, err := r.spec(nil, true)
	if err != nil {
		p.UntracedWhy = err.Error()
		return
	}
	defer done()
	if removed := r.removeCreated(ob.input.Files); len(removed) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("the untraced run started as the traced one did: %s, which the traced run created, removed first (the untraced run writes it again)", strings.Join(removed, ", ")))
	}
	if restored, err := r.restoreSaved(ob.input.Files); err != nil {
		p.UntracedWhy = err.Error()
		return
	} else if len(restored) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("the untraced run started as the traced one did: %s put back as it was before the traced run", strings.Join(restored, ", ")))
	}
	if updated := r.updatedInPlace(ob.input.Files); len(updated) > 0 && r.snap == nil {
		note := fmt.Sprintf("the program updates %s in place, which the untraced run updates again: after app they are as two runs leave them (--untraced-below 0 runs the program once; tune copies them first)", strings.Join(updated, ", "))
		fmt.Fprintf(r.stderr, "iobench: %s\n", note)
		p.Notes = append(p.Notes, note)
	}
	res, err := program.Run(ctx, s)
	switch {
	case err != nil:
		p.UntracedWhy = err.Error()
	case res.Status != ob.res.Status:
		p.UntracedWhy = fmt.Sprintf("the untraced run ended otherwise (%s, traced: %s): its time is not used", res.Describe(), ob.res.Describe())
	default:
		p.UntracedSeconds, p.WallBasis = res.Wall.Seconds(), "untraced"
	}
}

// removeCreated removes the regular files of the working directory that
// the traced run created: the second run must not pay for truncating
// them, which the first did not.
func (r *programRun) removeCreated(files []workload.File) []string {
	var out []string
	for _, f := range files {
		if !r.before.created(f.Path) || !isRegularFile(f) {
			continue
		}
		if os.Remove(f.Path) == nil {
			out = append(out, f.Path)
		}
	}
	return out
}

// updatedInPlace are the working directory's files that existed before
// the run and that it opened and wrote without truncating or appending:
// a second run starts from what the first left.
func (r *programRun) updatedInPlace(files []workload.File) []string {
	var out []string
	for _, f := range files {
		flags := f.OpenFlags
		if f.Opened && f.Bytes > 0 && r.before.inTree(f.Path) && !r.before.created(f.Path) && isRegularFile(f) &&
			!slices.Contains(flags, "O_TRUNC") && !slices.Contains(flags, "O_APPEND") {
			out = append(out, f.Path)
		}
	}
	return out
}

// saveTree copies the tree's files before the first run, for tune.
func (r *programRun) saveTree(ctx context.Context) error {
	if !r.o.copyFirst {
		return nil
	}
	room, inMemory := scratchRoom(r.tmp)
	s, err := copyTree(ctx, r.before.files, min(r.o.saveFirst, room), r.tmp)
	if err != nil {
		return err
	}
	s.room, s.roomBound, s.inMemory = room, room < r.o.saveFirst, inMemory
	s.failed, r.snap = r.restoreFailed, s
	if len(s.copies) > 0 || s.skipped > 0 {
		fmt.Fprintf(r.stderr, "iobench: tune: %s\n", s.words())
	}
	return nil
}

// saveBudget is what tune may hold saved after the traced run, the
// copies it keeps from before included (the guard counts both):
// maxSaved, or less when the scratch directory cannot spare it.
func (r *programRun) saveBudget(maxSaved int64) int64 {
	room, _ := scratchRoom(r.tmp)
	if kept := r.snap.keptBytes(); room < math.MaxInt64-kept {
		room += kept
	}
	return min(maxSaved, room)
}

// restoreSaved puts the files the traced run updated back as they were
// before it, from tune's copy of the tree.
func (r *programRun) restoreSaved(files []workload.File) ([]string, error) {
	var out []string
	for _, f := range files {
		if !f.Opened {
			continue // the user's redirect, not the program's file
		}
		ok, err := r.snap.restore(f.Path)
		if err != nil {
			return out, fmt.Errorf("putting %s back before the untraced run: %w", f.Path, err)
		}
		if ok {
			out = append(out, f.Path)
		}
	}
	return out, nil
}

// untracedRefusal says why the program is not run a second time.
func (r *programRun) untracedRefusal(ob observed) string {
	switch {
	case ob.res.Failed():
		return "the traced run failed (" + ob.res.Describe() + "): the program is not run again"
	case r.o.untracedBelow == 0:
		return "--untraced-below 0: the program ran once, traced; its wall time includes the tracer's cost"
	case ob.res.Wall >= r.o.untracedBelow:
		return fmt.Sprintf("the traced run took %.3g s, over --untraced-below %v: the wall time includes the tracer's cost", ob.res.Wall.Seconds(), r.o.untracedBelow)
	case r.stdin == "" && r.tty != nil:
		return "stdin is the terminal, which a second run could not read the same: the wall time includes the tracer's cost"
	}
	for _, f := range ob.input.Files {
		if slices.Contains(f.OpenFlags, "O_APPEND") && !slices.Contains(f.OpenFlags, "O_TRUNC") {
			return fmt.Sprintf("the program appends to %s, which a second run would change: the wall time includes the tracer's cost", f.Path)
		}
	}
	return ""
}

// gfortranBuffer is the unformatted buffer libgfortran used: the
// program's environment (iobench's own), or the default.
func (r *programRun) gfortranBuffer() int64 {
	if v, err := strconv.ParseInt(os.Getenv("GFORTRAN_UNFORMATTED_BUFFER_SIZE"), 10, 64); err == nil && v > 0 {
		return v
	}
	return advice.GfortranUnformattedDefault
}

// behaviours reads each written file's call sizes as the runtime that
// made them, among those the program loaded; stdio where the sizes are
// st_blksize's and the program writes through stdio.
func behaviours(in workload.Input, gfortranBuf int64, linked map[string]string) []advice.Behaviour {
	var out []advice.Behaviour
	stdio := stdioWriter(in)
	for _, f := range in.Files {
		if linked[advice.RuntimeLibgfortran] != "" {
			if b, ok := gfortranBehaviour(f, gfortranBuf); ok {
				out = append(out, b)
				continue
			}
		}
		if b, ok := recogniseMPIIO(f, linked); ok {
			out = append(out, b)
			continue
		}
		if b, ok := advice.RecogniseStdio(f, blockSizeOf(f.Path), stdio); ok {
			out = append(out, b)
			linked[advice.RuntimeStdio] = b.Why
		}
	}
	return out
}

// recogniseMPIIO reads a file's calls as those of the MPI-IO component
// the program ran, with the collective buffer its environment sets.
func recogniseMPIIO(f workload.File, linked map[string]string) (advice.Behaviour, bool) {
	for _, rt := range []string{advice.RuntimeOMPIO, advice.RuntimeROMIO} {
		if linked[rt] != "" {
			return advice.RecogniseMPIIO(f, rt, mpiioCollective(rt, os.Getenv))
		}
	}
	return advice.Behaviour{}, false
}

// mpiioCollective is the collective buffer in effect: OMPIO's
// bytes_per_agg from its MCA variable, ROMIO's cb_buffer_size from the
// ROMIO_HINTS file, else the component's default.
func mpiioCollective(rt string, getenv func(string) string) int64 {
	if rt == advice.RuntimeOMPIO {
		if v, err := strconv.ParseInt(getenv(advice.SettingBytesPerAgg), 10, 64); err == nil && v > 0 {
			return v
		}
		return advice.MPIIOCollectiveDefault(rt)
	}
	if raw, err := os.ReadFile(getenv("ROMIO_HINTS")); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), " "); ok && k == advice.SettingCBBuffer {
				if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n > 0 {
					return n
				}
			}
		}
	}
	return advice.MPIIOCollectiveDefault(rt)
}

// blockSizeOf is st_blksize of the file system a file is on; 0 when it
// cannot be read.
func blockSizeOf(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int64(sys.Blksize)
	}
	return 0
}

// programWarnings are the first-screen doubts about the figures.
func programWarnings(p *report.AppProgram) []string {
	var out []string
	for _, f := range p.Unseen {
		out = append(out, fmt.Sprintf("%s is written through a shared mapping (mmap): those writes are not write(2) calls, so neither the trace nor the estimate sees them", f))
	}
	if r := p.Ranks; r != nil && r.Missing() > 0 {
		out = append(out, fmt.Sprintf("%d of the %d ranks left no trace (nodes that cannot see the working directory, or without strace): the estimate is of the %d traced ranks' writes alone", r.Missing(), r.Asked, r.Traced))
	}
	if c := p.Curve; c != nil && !c.Matches {
		out = append(out, fmt.Sprintf("the curve flushes with %s, the program with %s: the estimate prices other writes than the program's and is not comparable with its time; measure a curve with the program's flush mode (leave out --curve and app measures one)", c.Flush, p.Flush))
	}
	return out
}

// significant keeps the files with at least 1% of an input's bytes: a
// runtime's semaphore in /dev/shm does not make the curve the wrong one.
func significant(inputs []workload.Input) []workload.Input {
	out := slices.Clone(inputs)
	for i, in := range out {
		var total int64
		for _, f := range in.Files {
			total += f.Bytes
		}
		out[i].Files = slices.DeleteFunc(slices.Clone(in.Files), func(f workload.File) bool { return 100*f.Bytes < total })
	}
	return out
}

// priceOn is the report of the inputs on the curve's report.
func priceOn(head report.AppReport, inputs []workload.Input, pc *pricedCurve, facts advice.ProgramFacts) *report.AppReport {
	curve := pc.rep
	cc := curve.CostCurve(libcheck.DefaultBuffer(libcheck.Stdio, curve.FS.IOBlockSize))
	cost := advice.EstimateCost(inputs, cc)
	ev := advice.RuntimesOf(inputs, facts)
	var rows []advice.Apply
	if curve.Recommendation != nil {
		rows = advice.ApplyFor(curve.Recommendation.Apply, ev)
		if head.Program != nil {
			rows = advice.ForBehaviours(rows, head.Program.Behaviours, curve.Recommendation.BufferSize)
		}
	}
	head.Curve = report.AppCurveOf(pc.path, curve, cc)
	head.Warnings = curveWarnings(head.Curve, significant(inputs))
	return report.NewAppReport(head, inputs, curve, &cost, ev, rows)
}

// writeReport puts the report on stderr (stdout is the program's) or
// into -o's file.
func (r *programRun) writeReport(c *cli.Context, rep *report.AppReport) error {
	render := func(w io.Writer) error { return r.o.format.App(w, rep) }
	if r.o.output == "" || r.o.output == "-" {
		return render(r.stderr)
	}
	if err := outputError(report.WriteNew(r.o.output, render)); err != nil {
		return err
	}
	fmt.Fprintf(r.stderr, "iobench: the report is in %s\n", r.o.output)
	return nil
}
