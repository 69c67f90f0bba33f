package binary

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const mpiioSrc = `#include <mpi.h>
int main(int argc, char **argv) {
	MPI_File fh;
	MPI_Init(&argc, &argv);
	MPI_File_open(MPI_COMM_WORLD, "out", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
	MPI_File_close(&fh);
	MPI_Finalize();
	return 0;
}
`

// A program built with mpicc is Open MPI's, with the release its libmpi
// carries, the one ompi_info reports when it is here.
func TestRealMPIIOProgram(t *testing.T) {
	dir := t.TempDir()
	if err := build(t, "mpicc", dir, "m.c", mpiioSrc, "-o", "prog"); err != nil {
		t.Fatal(err)
	}
	f, err := Inspect(filepath.Join(dir, "prog"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := find(f, OpenMPI)
	if !ok {
		t.Skipf("mpicc is not Open MPI's: runtimes %+v", f.Runtimes)
	}
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+`).MatchString(r.Version) {
		t.Fatalf("Open MPI version %q, want one (%+v)", r.Version, r)
	}
	if want := ompiInfoVersion(t); want != "" && r.Version != want {
		t.Errorf("version %q, ompi_info says %q", r.Version, want)
	}
	t.Logf("%+v", r)
}

// ompiInfoVersion is "4.1.4" from ompi_info's "Open MPI v4.1.4"; "" without it.
func ompiInfoVersion(t *testing.T) string {
	p, err := exec.LookPath("ompi_info")
	if err != nil {
		return ""
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil {
		t.Logf("ompi_info --version: %v", err)
		return ""
	}
	m := regexp.MustCompile(`Open MPI v([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// The release series comes from libmpi's real file name when the
// library carries no version string.
func TestOpenMPIVersionFromFileName(t *testing.T) {
	dir := t.TempDir()
	fakeLibs(t, dir, "libmpi.so.40.40.1")
	link := filepath.Join(dir, "libmpi.so.40")
	if err := os.Symlink("libmpi.so.40.40.1", link); err != nil {
		t.Fatal(err)
	}
	f, _ := Inspect(filepath.Join(dir, "none"), []string{filepath.Join(dir, "libopen-pal.so.80"), link})
	if r, ok := find(f, OpenMPI); !ok || r.Version != "5.0" {
		t.Errorf("Open MPI %+v, want version 5.0 from libmpi.so.40.40.1", r)
	}
	if v := openMPIVersion(filepath.Join(dir, "libmpi.so.40.40.1")); v != "5.0" {
		t.Errorf("openMPIVersion = %q", v)
	}
}

const hdf5Src = `#include <hdf5.h>
int main(void) {
	hid_t f = H5Fcreate("x.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	return H5Fclose(f) < 0;
}
`

// h5cc links libhdf5 statically by default on Debian, -shlib shared:
// both are HDF5 programs.
func TestRealHDF5Program(t *testing.T) {
	for _, args := range [][]string{nil, {"-shlib"}} {
		dir := t.TempDir()
		if err := build(t, "h5cc", dir, "h.c", hdf5Src, append(args, "-o", "prog")...); err != nil {
			t.Fatal(err)
		}
		f, err := Inspect(filepath.Join(dir, "prog"), nil)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := find(f, HDF5)
		if !ok {
			t.Errorf("h5cc %v: no HDF5 in %+v", args, f.Runtimes)
			continue
		}
		wantLib := strings.HasPrefix(r.Evidence, "DT_NEEDED libhdf5") && strings.Contains(filepath.Base(r.Lib), "libhdf5")
		if wantStatic := r.Evidence == "static symbols H5Fcreate"; !wantLib && !wantStatic {
			t.Errorf("h5cc %v: HDF5 %+v, want libhdf5 by DT_NEEDED or H5Fcreate in the executable", args, r)
		}
		t.Logf("h5cc %v: %+v", args, r)
	}
}

const cxxSrc = `#include <fstream>
int main() { std::ofstream out("x.txt"); out << "hi\n"; return 0; }
`

// A C++ program built with g++ links libstdc++, named for what tune
// cannot reach.
func TestRealCxxProgram(t *testing.T) {
	dir := t.TempDir()
	if err := build(t, "g++", dir, "p.cc", cxxSrc, "-o", "prog"); err != nil {
		t.Fatal(err)
	}
	f, err := Inspect(filepath.Join(dir, "prog"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := find(f, Cxx); !ok || filepath.Base(r.Lib) != "libstdc++.so.6" {
		t.Errorf("runtimes %+v, want libstdc++.so.6", f.Runtimes)
	}
	if got := f.Runtimes[len(f.Runtimes)-1].Kind; got != Stdio {
		t.Errorf("last runtime %q, want glibc stdio last", got)
	}
}

// Python shows by a libpython soname, the interpreter's name, or a
// script's #! line.
func TestPython(t *testing.T) {
	dir := t.TempDir()
	fakeLibs(t, dir, "libpython3.11.so.1.0")
	if err := build(t, "gcc", dir, "p.c", cSrc, "-o", "python3.11"); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "run.py")
	if err := os.WriteFile(script, []byte("#!/usr/bin/env -S python3 -u\nprint(1)\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		exe    string
		loaded []string
		why    string
	}{
		{filepath.Join(dir, "python3.11"), nil, "the executable is python3.11"},
		{filepath.Join(dir, "none"), []string{filepath.Join(dir, "libpython3.11.so.1.0")}, "loaded " + filepath.Join(dir, "libpython3.11.so.1.0")},
		{script, nil, "its #! line runs python3"},
	} {
		f, _ := Inspect(tc.exe, tc.loaded)
		if r, ok := find(f, Python); !ok || r.Evidence != tc.why {
			t.Errorf("%s %v: runtimes %+v, want Python: %q", tc.exe, tc.loaded, f.Runtimes, tc.why)
		}
	}
	f, _ := Inspect(filepath.Join(dir, "run.sh"), nil)
	if _, ok := find(f, Python); ok {
		t.Errorf("a missing file read as Python: %+v", f.Runtimes)
	}
}

// libstdc++ that a runtime loaded is not the program's.
func TestCxxOnlyFromTheExecutable(t *testing.T) {
	dir := t.TempDir()
	if err := build(t, "gcc", dir, "p.c", cSrc, "-o", "prog"); err != nil {
		t.Fatal(err)
	}
	f, _ := Inspect(filepath.Join(dir, "prog"), []string{"/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/lib/x86_64-linux-gnu/libc.so.6"})
	if _, ok := find(f, Cxx); ok {
		t.Errorf("a C program that loaded libstdc++ read as C++: %+v", f.Runtimes)
	}
}
