//go:build mpi

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/report"
)

// TestMPIRuntimeMPIIO: under mpirun, runtime mpiio runs each case as a
// writer job of its own, every case's write(2) calls are its rule's, the
// report covers both components, and the data directory is left empty.
func TestMPIRuntimeMPIIO(t *testing.T) {
	bin := mpiBinary(t)
	if _, err := exec.LookPath("mpicc"); err != nil {
		t.Skip("no mpicc to build the MPI-IO writer")
	}
	dir, saved := t.TempDir(), savedSweep(t)
	// The collective calls on a shared file: every rule of both components
	// but the independent ones, in some 15 writer jobs.
	r := mpirun(t, "-np", "3", bin, "runtime", "mpiio", "--dir", dir, "--size", "1MiB", "--call-size", "256KiB", "--layouts", "shared",
		"--modes", "collective", "--repeat", "1", "--sync", "none", "--profile", "generic", "--from", saved, "--no-progress", "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var doc report.LibraryReport
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
	}
	components := map[string]bool{}
	for _, c := range doc.Summary.Cases {
		components[c.Component] = true
		if !c.CallsAsPredicted {
			t.Errorf("%+v: %d calls (%d of the library's own), predicted %d for the data by %s", c.Case, c.WriteCalls, c.OverheadCalls, c.Predicted.Count, c.Rule)
		}
	}
	if !components["ompio"] || !components["romio321"] || doc.Library.Ranks != 3 || len(doc.Summary.Pack) == 0 {
		t.Errorf("components %v, ranks %d, %d pack costs: want both components, 3 ranks and the pack costs", components, doc.Library.Ranks, len(doc.Summary.Pack))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left in the data directory", len(entries))
	}
}

// A flag refused on any rank, or given another value than on rank 0,
// stops every rank of runtime mpiio at once, with one line naming it and
// no data file made: a rank refused by the
// parser used to wait for the others, which ran the whole check without
// it and then waited for it at the end, for ever.
func TestMPIRuntimeMPIIOBadFlagOnOneRankStopsEveryRank(t *testing.T) {
	bin := mpiBinary(t)
	for _, c := range []struct {
		flag, value string
		oddRank     int
		want        string
	}{
		{"--bogus", "", 2, "rank 2 (" /* its host */},
		{"--repeat", "x", 2, `--repeat "x" (rank 0: "1")`},
		{"--size", "2MiB", 2, `--size "2MiB" (rank 0: "1MiB")`},
		{"--ranks", "0", 0, "--ranks: 0: want at least 1"},
		{"--source", "windw", 0, `--source: "windw" (valid: array, window)`},
	} {
		dir := t.TempDir()
		common := []string{"runtime", "mpiio", "--dir", dir, "--size", "1MiB", "--repeat", "1", "--no-progress", "--profile", "generic", "--from", savedSweep(t)}
		start := time.Now()
		r := mpirun(t, oddRankArgs(bin, common, withFlag(common, c.flag, c.value), c.oddRank)...)
		took := time.Since(start)
		if r.code == 0 || took > 30*time.Second || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "iobench: ") != 1 {
			t.Errorf("rank %d given %s %s: exit %d after %v; want one line naming %q, within seconds:\n%s", c.oddRank, c.flag, c.value, r.code, took.Round(time.Millisecond), c.want, r.stderr)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("rank %d given %s: files left: %v", c.oddRank, c.flag, left)
		}
	}
}
