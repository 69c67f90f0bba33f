package runtimes

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
)

// libraryPlan is one round of cases on dir, small data.
func libraryPlan(t *testing.T, dir string, cases []libcheck.Case, elements int64, lp libcheck.LibraryPlan) libcheck.Plan {
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	return libcheck.Plan{Dir: dir, Prefix: prefix, Elements: elements, RecordBytes: kib, CaseList: cases, Library: lp, Rounds: 1, Seed: 1,
		Fsync: true, Sync: iobench.SyncNone}
}

// checkLibraryCalls runs the plan and holds every case's calls to its
// rule: the data's exactly, the overhead's within its range.
func checkLibraryCalls(t *testing.T, rt libcheck.Runtime, w *Writer, p libcheck.Plan) *libcheck.Result {
	t.Helper()
	res, err := w.Measure(t.Context(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := libcheck.Summarize(rt, p, res, nil)
	if len(sum.Cases) != len(p.CaseList) {
		t.Fatalf("%d of %d cases summarized", len(sum.Cases), len(p.CaseList))
	}
	for _, cs := range sum.Cases {
		if cs.CallsAsPredicted {
			continue
		}
		o := cs.PredictedOverhead
		if o == nil {
			o = &libcheck.CallRange{}
		}
		t.Errorf("%+v: measured %d calls (%d overhead), predicted %d for the data (%s) + %d..%d overhead %s",
			cs.Case, cs.WriteCalls, cs.OverheadCalls, cs.Predicted.Count, cs.Rule, o.Min, o.Max, cs.NoRule)
	}
	if entries, _ := os.ReadDir(p.Dir); len(entries) != 0 {
		t.Errorf("%d files left in %s", len(entries), p.Dir)
	}
	return res
}

// TestHDF5CallsMatchRules: every case of an HDF5 plan, on the disk and on
// tmpfs, with chunks that fit the chunk cache and chunks that do not.
func TestHDF5CallsMatchRules(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count write(2) calls")
	}
	testenv.Full(t, "HDF5 programs built with h5cc, 8 seconds of runs")
	w := writerFor(t, libcheck.HDF5)
	ch := libcheck.HDF5Choice{Storages: []string{libcheck.StorageContiguous, libcheck.StorageChunked}, Layouts: []libcheck.Layout{libcheck.LayoutArray, libcheck.LayoutRecords},
		Orders: []convert.Order{convert.Native, convert.BigEndian}, Recommended: map[string]int64{libcheck.SettingAlignment: 256 * kib, libcheck.SettingSieve: 256 * kib, libcheck.SettingTconv: 256 * kib}}
	cases, _ := libcheck.HDF5Cases(ch)
	for fs, dir := range dataDirs(t) {
		for _, chunk := range []int64{256 * kib, 2 * mib} {
			t.Run(fmt.Sprintf("%s/chunk%d", fs, chunk), func(t *testing.T) {
				checkLibraryCalls(t, libcheck.HDF5, w, libraryPlan(t, dir, cases, mib, libcheck.LibraryPlan{ChunkBytes: chunk}))
			})
		}
	}
}

// mpirunFor is an MPIRun launcher, or a skip where Open MPI is missing.
func mpirunFor(t *testing.T) MPIRun {
	testenv.Full(t, "MPI jobs under mpirun, a minute of them")
	path, err := exec.LookPath("mpirun")
	if err != nil {
		t.Skip("no mpirun")
	}
	t.Setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none") // containers forbid ptrace's single copy
	extra := []string{"--oversubscribe", "--bind-to", "none"}
	if os.Geteuid() == 0 {
		extra = append(extra, "--allow-run-as-root")
	}
	return MPIRun{Path: path, Extra: extra}
}

// TestMPIIOCallsMatchRules: every case of an MPI-IO plan on 3 ranks, both
// components, on the disk and on tmpfs; small buffers, so that each rule
// cuts the calls.
func TestMPIIOCallsMatchRules(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count write(2) calls")
	}
	if testing.Short() {
		t.Skip("-short: 84 MPI jobs take about a minute")
	}
	launcher := mpirunFor(t)
	w := writerFor(t, libcheck.MPIIO)
	w.SetLauncher(launcher) // the MPI-IO writer runs only under a launcher
	ch := libcheck.MPIIOChoice{Components: []string{libcheck.OMPIO, libcheck.ROMIO}, Layouts: []libcheck.Layout{libcheck.LayoutPerRank, libcheck.LayoutShared}, Collective: []bool{false, true},
		Memories: []string{libcheck.MemoryContiguous, libcheck.MemoryStrided}, Ranks: 3,
		Recommended: map[string]int64{libcheck.SettingCBBuffer: mib, libcheck.SettingIndWrBuffer: 256 * kib, libcheck.SettingBytesPerAgg: 2 * mib, libcheck.SwitchCBWrite: 0}}
	cases, _ := libcheck.MPIIOCases(ch)
	lp := libcheck.LibraryPlan{Ranks: 3, Hosts: 1, CallBytes: mib, Type: "int32", Stride: 2}
	for fs, dir := range dataDirs(t) {
		t.Run(fs, func(t *testing.T) {
			t.Parallel() // each run waits mostly for MPI to start
			checkLibraryCalls(t, libcheck.MPIIO, w, libraryPlan(t, dir, cases, 4*mib/libcheck.ElementBytes+512, lp))
		})
	}
}

// TestMPIIOWindowSourceCallsMatchRules: with the window source (one
// call's data written again, as IOR does) every default case makes the
// calls of its rule and reads back the values the window holds (the
// writer checks the first and last element of each rank).
func TestMPIIOWindowSourceCallsMatchRules(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count write(2) calls")
	}
	w := writerFor(t, libcheck.MPIIO)
	w.SetLauncher(mpirunFor(t))
	ch := libcheck.MPIIOChoice{Components: []string{libcheck.OMPIO, libcheck.ROMIO}, Layouts: []libcheck.Layout{libcheck.LayoutPerRank, libcheck.LayoutShared}, Collective: []bool{true},
		Memories: []string{libcheck.MemoryContiguous, libcheck.MemoryStrided}, Ranks: 3}
	cases, _ := libcheck.MPIIOCases(ch)
	lp := libcheck.LibraryPlan{Ranks: 3, Hosts: 1, CallBytes: 256 * kib, Type: "int32", Stride: 2, Source: libcheck.SourceWindow}
	// 5 calls and a short one a rank: the last element lies inside the window
	res := checkLibraryCalls(t, libcheck.MPIIO, w, libraryPlan(t, t.TempDir(), cases, (5*256*kib+4*kib)/libcheck.ElementBytes, lp))
	// Every run carries its slowest rank's own span beside the time of
	// all ranks, and that span lies within it.
	for _, s := range res.Samples {
		if s.SlowestNanos <= 0 || s.SlowestNanos > s.Nanos {
			t.Errorf("%+v: %d ns from the first open to the last close, the slowest rank's own span %d ns", s.Case, s.Nanos, s.SlowestNanos)
		}
	}
}

// TestLibraryArgsSource: the writer gets the plan's source, array when
// the plan names none (reports written before the window existed).
func TestLibraryArgsSource(t *testing.T) {
	j := libcheck.Job{Elements: 1024, Case: libcheck.Case{Layout: libcheck.LayoutShared, Component: libcheck.OMPIO, Memory: libcheck.MemoryContiguous},
		Library: libcheck.LibraryPlan{Ranks: 2, CallBytes: 4096, Type: "int32", Stride: 1}}
	for source, want := range map[string]string{"": libcheck.SourceArray, libcheck.SourceArray: libcheck.SourceArray, libcheck.SourceWindow: libcheck.SourceWindow} {
		j.Library.Source = source
		if args := libraryArgs(j, libcheck.MPIIO, "/d/x.dat"); args[len(args)-1] != want {
			t.Errorf("source %q: writer arguments %q, want the last %q", source, args, want)
		}
	}
	j.Dir, j.Name = "/d", "x.dat"
	if err := j.Validate(libcheck.MPIIO); err != nil {
		t.Fatalf("the job before its source is changed: %v", err)
	}
	j.Library.Source = "windows"
	if err := j.Validate(libcheck.MPIIO); err == nil || !strings.Contains(err.Error(), "source") {
		t.Errorf("source \"windows\": %v, want refused for its source", err)
	}
}

// leavingLauncher makes the files an MPI-IO writer makes from its
// arguments, as a writer killed before removing them would leave them,
// and reports a run.
type leavingLauncher struct{ t *testing.T }

func (l leavingLauncher) Launch(_ context.Context, run Launch) ([]byte, error) {
	path, bytes := run.Args[0], run.Args[1]
	names := []string{path + ".dat"}
	if run.Args[3] == string(libcheck.LayoutPerRank) {
		names = nil
		for r := range run.Ranks {
			names = append(names, fmt.Sprintf("%s-r%d.dat", path, r))
		}
	}
	for _, n := range names {
		if err := os.WriteFile(n, nil, 0o600); err != nil {
			l.t.Fatal(err)
		}
	}
	n, _ := strconv.ParseInt(bytes, 10, 64)
	return fmt.Appendf(nil, "elapsed_ns=1000 syscw=1 wchar=1 bytes=%d elements=%d convert=native\n", n*int64(run.Ranks), n/4*int64(run.Ranks)), nil
}

// TestLaunchedFilesRemoved: what a launched writer left under the names
// it makes from its arguments, Run removes, for each file layout.
func TestLaunchedFilesRemoved(t *testing.T) {
	w := &Writer{rt: libcheck.MPIIO, bin: "writer", launcher: leavingLauncher{t}}
	for _, layout := range []libcheck.Layout{libcheck.LayoutPerRank, libcheck.LayoutShared} {
		dir := t.TempDir()
		j := libcheck.Job{Dir: dir, Name: newName(t, libcheck.MPIIO, 1), Elements: 1024, Case: libcheck.Case{Layout: layout, Component: libcheck.OMPIO, Memory: libcheck.MemoryContiguous, Convert: "native"},
			Library: libcheck.LibraryPlan{Ranks: 3, CallBytes: 4096, Type: "int32", Stride: 1}}
		if _, err := w.Run(t.Context(), j); err != nil {
			t.Fatalf("%s: %v", layout, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: %d files left", layout, len(entries))
		}
	}
}
