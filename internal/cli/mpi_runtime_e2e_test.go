//go:build mpi

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

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
