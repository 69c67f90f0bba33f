package strace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/workload/strace"
)

// testdata/rank.* hold two ranks' traces, from different hosts, with the
// same pids: rank 1's writes are its thread 4102's.
func mergeRanks(t *testing.T, names ...string) *strace.Trace {
	t.Helper()
	var parts []strace.Part
	for _, name := range names {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		tr, err := strace.ParseStreams(strace.Stream{Name: name, R: f})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, strace.Part{Name: name, Trace: tr})
	}
	return strace.Merge(parts...)
}

func TestMergeSumsTheRanksFiles(t *testing.T) {
	tr := mergeRanks(t, "rank.0.n1.4100", "rank.1.n2.4100")
	if len(tr.Files) != 2 || tr.Files[0].Path != "/scratch/run/out.dat" || tr.Files[1].Path != "/scratch/run/rank1.log" {
		t.Fatalf("files %+v: want out.dat, then rank1.log", tr.Files)
	}
	out := tr.Files[0]
	if out.Writes != 4 || out.Bytes != 24576 || !cmp.Equal(out.Sizes, map[int64]int64{4096: 2, 8192: 2}) {
		t.Errorf("out.dat: %d writes, %d bytes, sizes %v; want 4, 24576, 2 of 4096 and 2 of 8192", out.Writes, out.Bytes, out.Sizes)
	}
	if out.Flushes["fsync"] != 1 || !cmp.Equal(out.OpenFlags, []string{"O_CREAT"}) || out.Syscalls["pwrite64"] != 4 {
		t.Errorf("out.dat: flushes %v, flags %v, syscalls %v", out.Flushes, out.OpenFlags, out.Syscalls)
	}
	if tr.PIDs != 3 || tr.Lines != 18 || !tr.Timed || tr.Skipped != 0 {
		t.Errorf("pids %d, lines %d, timed %v, skipped %d: want 3, 18, true, 0", tr.PIDs, tr.Lines, tr.Timed, tr.Skipped)
	}
}

// Equal pids of two ranks stay two processes: rank 1's thread counts
// for rank 1's leader, not for rank 0's process of the same pid.
func TestMergeKeysProcessesByTraceAndPID(t *testing.T) {
	for _, order := range [][]string{{"rank.0.n1.4100", "rank.1.n2.4100"}, {"rank.1.n2.4100", "rank.0.n1.4100"}} {
		tr := mergeRanks(t, order...)
		if len(tr.Procs) != 3 {
			t.Fatalf("%v: procs %+v, want 3", order, tr.Procs)
		}
		p := tr.Program()
		if p == nil || p.Trace != "rank.1.n2.4100" || p.PID != 4100 || p.Bytes != 16396 {
			t.Errorf("%v: Program() = %+v, want rank 1's 4100 with its thread's 16384 bytes and its own 12", order, p)
		}
		if p != nil && !cmp.Equal(p.Execs, []string{"/scratch/run/writer"}) {
			t.Errorf("%v: execs %v: want the thread's none added to the leader's one", order, p.Execs)
		}
	}
}
