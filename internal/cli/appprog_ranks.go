package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/dustin/go-humanize"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/program"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload/strace"
)

// rankTraceDir begins the name of the directory of a launcher's ranks'
// traces, made in the working directory: MPI jobs run where every node
// sees it, and /tmp is each node's own.
const rankTraceDir = ".iobench-ranks-"

// traceOut is where one traced run's trace went: a file, or under a
// launcher a directory of one file per rank.
type traceOut struct {
	file   string
	ranks  string // the ranks' directory; "" when strace ran the command itself
	launch program.Launch
	forget func() // unregisters the directory's removal on a second signal
}

// tracedRun runs s once under strace with args (without -o): a
// launcher's ranks each under an strace of their own, the launcher
// untraced; anything else, or a launcher's command line that cannot be
// split, under strace -f as a whole.
func (r *programRun) tracedRun(ctx context.Context, s program.Spec, st string, args []string, name string) (program.Result, traceOut, error) {
	l, ok, err := program.ParseLauncher(s.Argv, os.Getenv("PATH"))
	if !ok || err != nil {
		out := traceOut{file: filepath.Join(r.tmp, name)}
		res, err := program.Traced(ctx, s, st, append(slices.Clone(args), "-o", out.file))
		return res, out, err
	}
	out, err := r.rankDir(l)
	if err != nil {
		return program.Result{}, out, err
	}
	res, err := program.TracedRanks(ctx, s, l, st, args, out.ranks)
	return res, out, err
}

// rankDir makes the directory the ranks write their traces into.
func (r *programRun) rankDir(l program.Launch) (traceOut, error) {
	wd, err := os.Getwd()
	if err == nil {
		var dir string
		if dir, err = os.MkdirTemp(wd, rankTraceDir); err == nil {
			return traceOut{ranks: dir, launch: l, forget: r.e.cleanups.add(func() { os.RemoveAll(dir) })}, nil
		}
	}
	return traceOut{}, fmt.Errorf("a directory for the ranks' traces in the working directory: %w", err)
}

// traceFullBelow is the free space under which a trace's file system is
// taken to have filled up while strace wrote it.
const traceFullBelow = 256 << 10

// roomLeft refuses a trace whose file system filled up while strace
// wrote it: strace goes on without the lines it could not write, so the
// program's writes would be undercounted.
func (t traceOut) roomLeft() error {
	dir, fix := t.ranks, "the ranks' traces go to the working directory: make room there"
	if dir == "" {
		dir, fix = filepath.Dir(t.file), "give --scratch a directory with room"
	}
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil || st.Blocks == 0 {
		return nil
	}
	free := st.Bavail
	if os.Geteuid() == 0 { // root writes into the reserved blocks too
		free = st.Bfree
	}
	if bytes := free * uint64(st.Bsize); bytes < traceFullBelow {
		return fmt.Errorf("the trace filled the file system of %s (%s left): strace could not write all of it, and the program's writes would be undercounted; %s", dir, humanize.IBytes(bytes), fix)
	}
	return nil
}

// remove removes the trace.
func (t traceOut) remove() {
	if t.ranks == "" {
		os.Remove(t.file)
		return
	}
	os.RemoveAll(t.ranks)
	t.forget()
}

// read parses the trace; the ranks' traces merged, with how many ranks
// it holds of how many the command line asks for.
func (t traceOut) read() (*strace.Trace, *report.AppRanks, error) {
	if t.ranks == "" {
		tr, err := parseTraceFile(t.file, "")
		return tr, nil, err
	}
	files, err := program.RankTraces(t.ranks)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no rank wrote a trace into %s: the ranks ran where it cannot be seen, or without strace", t.ranks)
	}
	if err != nil {
		return nil, nil, err
	}
	parts := make([]strace.Part, len(files))
	for i, f := range files {
		name := filepath.Base(f)
		tr, err := parseTraceFile(f, name)
		if err != nil {
			return nil, nil, err
		}
		parts[i] = strace.Part{Name: name, Trace: tr}
	}
	ranks := &report.AppRanks{Launcher: string(t.launch.Kind), Traced: len(files), Asked: t.launch.Ranks()}
	return strace.Merge(parts...), ranks, nil
}

// parseTraceFile parses one trace file, its positions named name.
func parseTraceFile(path, name string) (*strace.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return strace.ParseStreams(strace.Stream{Name: name, R: f})
}

// keep copies the trace to dst, a new file; the ranks' traces to new
// files dst.RANKFILE, one each.
func (t traceOut) keep(dst string) error {
	if t.ranks == "" {
		return copyNew(t.file, dst)
	}
	files, err := program.RankTraces(t.ranks)
	for _, f := range files {
		if err == nil {
			err = copyNew(f, dst+"."+filepath.Base(f))
		}
	}
	return err
}
