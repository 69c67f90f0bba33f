package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/mpi"
	"github.com/iobench/iobench/report"
)

// TestRuntimeHDF5Report: a small HDF5 check makes its rules' calls in
// every case, marks its own apply row measured, and touches no other
// file in the directory.
func TestRuntimeHDF5Report(t *testing.T) {
	testenv.Full(t, "HDF5 programs built with h5cc")
	needCompiler(t, libcheck.HDF5)
	dir := t.TempDir()
	prefill(t, dir)
	before := snapshot(t, dir)
	out, errOut, code := runCLI(t, "runtime", "hdf5", "--dir", dir, "--size", "2MiB", "--repeat", "2", "--sync", "none",
		"--profile", "generic", "--no-progress", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc report.LibraryReport
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	if !doc.Summary.CallsAsPredicted || len(doc.Summary.Cases) < 8 || doc.Library.ChunkBytes <= 0 {
		t.Errorf("calls as predicted %v, %d cases, chunk %d: want every case's calls as predicted, 8 groups at least, a chunk",
			doc.Summary.CallsAsPredicted, len(doc.Summary.Cases), doc.Library.ChunkBytes)
	}
	for _, a := range doc.Apply {
		if a.Runtime == "hdf5" && a.Setting == "H5Pset_alignment" && (!a.Measured || !strings.Contains(a.Note, "Measured through HDF5 itself")) {
			t.Errorf("H5Pset_alignment row not measured: %+v", a)
		}
	}
	assertUntouched(t, dir, before)
}

// TestRuntimeHDF5WithoutTheLibrary: a C compiler but no libhdf5 says in
// one line what to install.
func TestRuntimeHDF5WithoutTheLibrary(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	path := t.TempDir()
	if err := os.Symlink(cc, filepath.Join(path, "cc")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", path)
	want := "iobench: libhdf5 (pkg-config hdf5, or h5cc) not found: install it (Debian: apt-get install libhdf5-dev)\n"
	out, errOut, code := runCLI(t, "runtime", "hdf5", "--dir", t.TempDir(), "--size", "2MiB", "--profile", "generic", "--no-progress")
	if code != 1 || errOut != want || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errOut, want)
	}
}

// TestRuntimeMPIIOWithoutTheMPIBuild: the build without MPI says in one
// line how to build the one that has it.
func TestRuntimeMPIIOWithoutTheMPIBuild(t *testing.T) {
	if mpi.Enabled() {
		t.Skip("this binary has MPI: the MPI tests run runtime mpiio")
	}
	_, errOut, code := runCLI(t, "runtime", "mpiio", "--dir", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "go build -tags mpi") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 2 and one line saying how to build with MPI", code, errOut)
	}
}
