//go:build mpi

package cli

import (
	"strings"
	"testing"
)

// TestMPIRefusesJobs: under MPI each rank is one writer; --jobs above 1
// with more than one rank is refused before any I/O, naming the flag.
func TestMPIRefusesJobs(t *testing.T) {
	bin := mpiBinary(t)
	dir := t.TempDir()
	r := mpirun(t, "-np", "2", bin, "sweep", "--dir", dir, "--size", "1MiB", "--max", "64KiB", "--jobs", "2", "--no-progress")
	if r.code == 0 || !strings.Contains(r.stderr, "--jobs: 2 writers per process with 2 MPI ranks") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}
