package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/dustin/go-humanize"
	"golang.org/x/term"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/internal/progress"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload"
)

// Bounds of the quick curve's runs: each run writes one file of the
// program's largest file's size, within these.
const (
	quickCurveMinBytes = 16 << 20
	quickCurveMaxBytes = 1 << 30
	quickCurveMinSize  = 4 << 10
	quickCurveMaxSize  = 16 << 20
)

// pricedCurve is the curve a program is priced on, and where it came from.
type pricedCurve struct {
	rep  *report.Report
	path string
}

// programCurve is --curve, said to match the program's flush mode or
// not, or a quick curve measured here with the program's flush mode.
func (r *programRun) programCurve(ctx context.Context, in workload.Input, p *report.AppProgram) (*pricedCurve, error) {
	if r.o.curve != "" {
		loaded, err := loadInput(r.o.curve, loadOpts{applyFor: r.o.applyFor})
		if err != nil {
			return nil, fmt.Errorf("--curve: %w", err)
		}
		mode := curveFlush(loaded.Report.Config)
		p.Curve = &report.AppProgramCurve{Source: r.o.curve, Flush: mode, Matches: mode == p.Flush, Comparable: mode == p.Flush}
		return &pricedCurve{rep: loaded.Report, path: r.o.curve}, nil
	}
	return r.quickCurve(ctx, in, p)
}

// curveFlush is a sweep's flush mode in the program's words.
func curveFlush(c report.Config) string {
	switch {
	case c.Direct:
		return workload.FlushODirect
	case c.OpenSync == iobench.OpenSyncAll:
		return workload.FlushOSync
	case c.OpenSync == iobench.OpenDSync:
		return workload.FlushODSync
	case c.Flush == string(iobench.FlushFdatasync):
		return workload.FlushFdatasync
	case c.Flush == string(iobench.FlushFsync), c.Flush == "" && c.Fsync:
		return workload.FlushFsync
	}
	return workload.FlushNone
}

// flushConfig sets the sweep's flush to the program's mode. msync is
// priced as fsync: both wait for the file's dirty pages.
func flushConfig(cfg *iobench.Config, mode string) {
	cfg.Flush, cfg.Fsync, cfg.OpenSync, cfg.Direct = iobench.FlushNone, false, iobench.OpenSyncOff, false
	switch mode {
	case workload.FlushODirect:
		cfg.Direct = true
	case workload.FlushOSync:
		cfg.OpenSync = iobench.OpenSyncAll
	case workload.FlushODSync:
		cfg.OpenSync = iobench.OpenDSync
	case workload.FlushFsync, workload.FlushMsync:
		cfg.Flush, cfg.Fsync = iobench.FlushFsync, true
	case workload.FlushFdatasync:
		cfg.Flush = iobench.FlushFdatasync
	}
}

// quickCurve measures a curve in a scratch directory beside the
// program's largest file, flushing as the program did, with its call
// sizes among the sizes, within --curve-time.
func (r *programRun) quickCurve(ctx context.Context, in workload.Input, p *report.AppProgram) (*pricedCurve, error) {
	big := largestFile(in)
	if big == nil {
		p.NoCurve = "the program wrote no regular file: there is no curve to measure and nothing to price"
		return nil, nil
	}
	dir, done, err := r.scratchBeside(big.Path, ".iobench-curve-", "the quick curve")
	if err != nil {
		return nil, fmt.Errorf("%w (give a measured curve with --curve)", err)
	}
	defer done()
	info, err := fsinfo.Stat(dir)
	if err != nil {
		return nil, err
	}
	if why := noRoom(info, "the quick curve", clampBytes(big.Bytes)); why != "" {
		p.NoCurve = fmt.Sprintf("no quick curve: %s; free space there, or give a measured curve with --curve", why)
		return nil, nil
	}
	cfg := iobench.DefaultConfig()
	cfg.Dir, cfg.Count = dir, clampBytes(big.Bytes)/8
	cfg.Sizes = curveSizes(in, cfg.TotalBytes())
	cfg.Auto, cfg.TimeBudget, cfg.Order, cfg.KneeFraction = true, r.o.curveTime, iobench.Shuffled, defaultFraction()
	cfg.ReferenceSizes = callSizes(in)
	flushConfig(&cfg, p.Flush)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	fmt.Fprintf(r.stderr, "iobench: a quick curve in %s (%s): %d sizes, %s per run, flushing as the program did (%s), within --curve-time %v after its first %d rounds, which always run\n",
		dir, info.Type, len(cfg.Sizes), humanBytes(cfg.TotalBytes()), p.Flush, r.o.curveTime, iobench.MinAutoRounds)
	begin := time.Now()
	qs := &sweepJob{cfg: cfg, fs: info, env: r.e, stderr: r.stderr, progress: r.progressMode()}
	qs.rep = &report.Report{Header: report.Header{FS: info}, Config: cfg.Record()}
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		return nil, err
	}
	res, err := qs.sweep(ctx, nil, prefix)
	if err != nil {
		return nil, fmt.Errorf("the quick curve: %w", err)
	}
	qs.rep.SetResult(res)
	p.Curve = &report.AppProgramCurve{Source: "quick sweep", Flush: p.Flush, Matches: true, Comparable: true,
		Dir: filepath.Dir(big.Path), FileBytes: cfg.TotalBytes(), Seconds: time.Since(begin).Seconds()}
	return &pricedCurve{rep: qs.rep, path: "quick sweep in " + filepath.Dir(big.Path)}, nil
}

// noRoom says why a scratch run writing data bytes at a time does not
// fit on the file system of info, or "" when it does; the margin is the
// sweep's, so neither fills a shared file system.
func noRoom(info fsinfo.Info, what string, data int64) string {
	need := iobench.SpaceFor(data, info.TotalBytes)
	if uint64(need) <= info.AvailBytes {
		return ""
	}
	return fmt.Sprintf("%s needs %s (%d bytes: a run's data plus a margin) and the file system mounted at %s has %s available",
		what, humanBytes(need), need, info.MountPoint, humanize.IBytes(info.AvailBytes))
}

// largestFile is the regular file the program wrote most bytes to.
func largestFile(in workload.Input) *workload.File {
	var best *workload.File
	for i := range in.Files {
		f := &in.Files[i]
		if !isRegularFile(*f) {
			continue
		}
		if best == nil || f.Bytes > best.Bytes {
			best = f
		}
	}
	return best
}

// isRegularFile tells a file the program wrote that a curve can stand
// for: a regular file by its absolute path, not a pipe or a terminal.
func isRegularFile(f workload.File) bool {
	st, err := os.Stat(f.Path)
	return err == nil && st.Mode().IsRegular() && filepath.IsAbs(f.Path)
}

func clampBytes(n int64) int64 {
	return min(max(n, quickCurveMinBytes), quickCurveMaxBytes) &^ 7
}

// callSizes are the program's exact call sizes that carry at least 1%
// of a file's bytes.
func callSizes(in workload.Input) []int64 {
	var out []int64
	for _, f := range in.Files {
		if !isRegularFile(f) {
			continue
		}
		for _, c := range f.Sizes {
			if c.Exact() && c.Low >= 8 && c.Low*c.Calls*100 >= f.Bytes {
				out = append(out, (c.Low+7)&^7) // the engine writes whole float64s
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// curveSizes are powers of two from 4 KiB to 16 MiB and the program's
// own call sizes, none over the run's bytes.
func curveSizes(in workload.Input, total int64) []int64 {
	sizes := callSizes(in)
	for s := int64(quickCurveMinSize); s <= quickCurveMaxSize; s *= 2 {
		sizes = append(sizes, s)
	}
	sizes = slices.DeleteFunc(sizes, func(s int64) bool { return s > total })
	slices.Sort(sizes)
	return slices.Compact(sizes)
}

func defaultFraction() float64 { return knee.DefaultFraction }

func humanBytes(n int64) string { return humanize.IBytes(uint64(n)) }

// progressMode is the quick curve's progress: a bar and the time left
// on a terminal; elsewhere (a log, a batch job) a line per round, not
// per run, since the curve is not what the user asked to read.
func (r *programRun) progressMode() progress.Mode {
	if f, ok := r.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return progress.Auto
	}
	return progress.Rounds
}

// scratchBeside is a directory of iobench's own beside the program's
// file, on its file system, for a quick curve or a price: removed by
// done, and by a second Ctrl-C, which exits without running defers.
func (r *programRun) scratchBeside(file, prefix, what string) (dir string, done func(), err error) {
	dir, err = os.MkdirTemp(filepath.Dir(file), prefix)
	if err != nil {
		return "", nil, fmt.Errorf("a scratch directory for %s beside %s: %w", what, file, err)
	}
	forget := r.e.cleanups.add(func() { os.RemoveAll(dir) })
	return dir, func() { forget(); os.RemoveAll(dir) }, nil
}
