package binary

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found: %v", name, err)
	}
	return p
}

// build writes src to dir/name and runs the compiler with args.
func build(t *testing.T, compiler, dir, name, src string, args ...string) error {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool(t, compiler), append(args, name)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("%s %v: %v\n%s", compiler, args, err, out)
	}
	return err
}

func find(f Facts, k Kind) (Runtime, bool) {
	for _, r := range f.Runtimes {
		if r.Kind == k {
			return r, true
		}
	}
	return Runtime{}, false
}

const cSrc = `#include <stdio.h>
int main(void) { fwrite("hi\n", 1, 3, stdout); return 0; }
`

func TestCStdio(t *testing.T) {
	dir := t.TempDir()
	if err := build(t, "gcc", dir, "p.c", cSrc, "-o", "prog"); err != nil {
		t.Fatal(err)
	}
	f, err := Inspect(filepath.Join(dir, "prog"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Static || len(f.Needed) == 0 {
		t.Errorf("Static=%v Needed=%v, want dynamic", f.Static, f.Needed)
	}
	r, ok := find(f, Stdio)
	if !ok || r.Evidence != "libc.so.6: glibc stdio" {
		t.Errorf("Stdio = %+v, %v; runtimes %+v", r, ok, f.Runtimes)
	}
	if _, ok := find(f, Gfortran); ok {
		t.Errorf("C program reported as Gfortran: %+v", f.Runtimes)
	}
}

func TestFortran(t *testing.T) {
	dir := t.TempDir()
	src := "program p\n  open(10, file='x.bin', form='unformatted')\n  write(10) 42\n  close(10)\nend program p\n"
	if err := build(t, "gfortran", dir, "p.f90", src, "-o", "prog"); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	for _, loaded := range [][]string{nil, {"/usr/lib/x86_64-linux-gnu/libgfortran.so.5", "/lib/x86_64-linux-gnu/libc.so.6"}} {
		f, err := Inspect(exe, loaded)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := find(f, Gfortran)
		if !ok || r.Version == "" || !r.BufferVars || f.Runtimes[0].Kind != Gfortran {
			t.Errorf("loaded=%v: runtimes %+v", loaded, f.Runtimes)
		}
		if _, ok := find(f, Stdio); !ok {
			t.Errorf("loaded=%v: no Stdio in %+v", loaded, f.Runtimes)
		}
		t.Logf("%+v", r)
	}
}

func TestStatic(t *testing.T) {
	dir := t.TempDir()
	if err := build(t, "gcc", dir, "p.c", cSrc, "-static", "-o", "prog"); err != nil {
		t.Skip("static link failed")
	}
	f, err := Inspect(filepath.Join(dir, "prog"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := find(f, Stdio)
	if !f.Static || !ok || !strings.HasPrefix(r.Evidence, "static symbols ") {
		t.Errorf("Static=%v runtimes %+v", f.Static, f.Runtimes)
	}
}

// fakeLibs builds shared objects that only carry a soname, standing in
// for runtimes Debian does not ship.
func fakeLibs(t *testing.T, dir string, sonames ...string) {
	t.Helper()
	for _, so := range sonames {
		err := build(t, "gcc", dir, "x.c", "int fake_sym(void) { return 1; }\n",
			"-shared", "-fPIC", "-Wl,-soname,"+so, "-o", so)
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestSyntheticLoaded(t *testing.T) {
	dir := t.TempDir()
	fakeLibs(t, dir, "libifcore.so.5", "libmpich.so.12")
	if err := build(t, "gcc", dir, "p.c", cSrc, "-o", "prog"); err != nil {
		t.Fatal(err)
	}
	for so, want := range map[string]Kind{"libifcore.so.5": IntelFortran, "libmpich.so.12": MPICH} {
		lib := filepath.Join(dir, so)
		f, err := Inspect(filepath.Join(dir, "prog"), []string{lib})
		if err != nil {
			t.Fatal(err)
		}
		r, ok := find(f, want)
		if !ok || r.Lib != lib || r.Evidence != "loaded "+lib {
			t.Errorf("%s: runtimes %+v", so, f.Runtimes)
		}
	}
}

// TestNeededFallback links against fake libs and resolves them via RUNPATH.
func TestNeededFallback(t *testing.T) {
	dir := t.TempDir()
	fakeLibs(t, dir, "libmpi.so.40", "libhdf5_serial.so.103")
	err := build(t, "gcc", dir, "p.c", cSrc, "-o", "prog", "-Wl,-rpath,$ORIGIN", "-Wl,--no-as-needed",
		filepath.Join(dir, "libmpi.so.40"), filepath.Join(dir, "libhdf5_serial.so.103"))
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	f, err := Inspect(exe, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := find(f, OpenMPI)
	if !ok || r.Lib != filepath.Join(dir, "libmpi.so.40") || r.Evidence != "DT_NEEDED libmpi.so.40 of "+exe {
		t.Errorf("OpenMPI = %+v; runtimes %+v", r, f.Runtimes)
	}
	var kinds []Kind
	for _, r := range f.Runtimes {
		kinds = append(kinds, r.Kind)
	}
	if want := []Kind{OpenMPI, HDF5, Stdio}; strings.Join(toStrings(kinds), ",") != strings.Join(toStrings(want), ",") {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
}

func toStrings(ks []Kind) []string {
	var s []string
	for _, k := range ks {
		s = append(s, string(k))
	}
	return s
}

func TestScript(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nexec ./prog\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := Inspect(exe, []string{"/usr/lib/libhdf5.so.200", "/opt/x/libopen-pal.so.40", "/opt/x/libmpi.so.20"})
	if !errors.Is(err, ErrNotELF) {
		t.Fatalf("err = %v, want ErrNotELF", err)
	}
	if len(f.Runtimes) != 2 || f.Runtimes[0].Kind != OpenMPI || f.Runtimes[0].Lib != "/opt/x/libopen-pal.so.40" || f.Runtimes[1].Kind != HDF5 {
		t.Errorf("runtimes %+v", f.Runtimes)
	}
	if _, err := Inspect(filepath.Join(dir, "missing"), nil); err == nil || errors.Is(err, ErrNotELF) {
		t.Errorf("missing exe: err = %v", err)
	}
}

func TestIdentifyLib(t *testing.T) {
	for _, tc := range []struct {
		path string
		want Kind
		ok   bool
	}{
		{"/usr/lib/x86_64-linux-gnu/libgfortran.so.5.0.0", Gfortran, true},
		{"libgfortran.so.3", Gfortran, true},
		{"/lib/x86_64-linux-gnu/libc.so.6", Stdio, true},
		{"libmpi.so.40", OpenMPI, true},
		{"libopen-pal.so.40.30.2", OpenMPI, true},
		{"libopen-rte.so.40", OpenMPI, true},
		{"libmpi.so.12", MPICH, true},
		{"libmpich.so.12", MPICH, true},
		{"libmpichfort.so.12", MPICH, true},
		{"libhdf5_serial.so.103", HDF5, true},
		{"libhdf5.so", HDF5, true},
		{"libifcore.so.5", IntelFortran, true},
		{"libifcoremt.so.5", IntelFortran, true},
		{"libifport.so.5", IntelFortran, true},
		{"libmpi.so.20", "", false}, // ambiguous without libopen-pal
		{"libcrypt.so.1", "", false},
		{"libgfortran.a", "", false},
		{"libc.so", "", false},
	} {
		got, ok := IdentifyLib(tc.path)
		if got != tc.want || ok != tc.ok {
			t.Errorf("IdentifyLib(%q) = %q, %v; want %q, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

// From the environment and the release alone (no trace, no launcher).
func TestMPIIOComponentFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		env           []string
		kind          Kind
		version, fs   string
		want, whyPart string
	}{
		{nil, MPICH, "4.0", "lustre", "ROMIO", "MPICH"},
		{nil, OpenMPI, "4.1.4", "ext4", "ompio", "defaults"},
		{nil, OpenMPI, "", "xfs", "ompio", "defaults"},
		{nil, OpenMPI, "4.1.4", "lustre", "romio321", "lustre"},
		{nil, OpenMPI, "4.0.3", "GPFS", "romio321", "gpfs"},
		{nil, OpenMPI, "5.0.3", "lustre", "ompio", "defaults"},
		{nil, OpenMPI, "1.10.7", "ext4", "romio", "predates"},
		{[]string{"OMPI_MCA_io=romio341"}, OpenMPI, "5.0.3", "ext4", "romio341", "OMPI_MCA_io=romio341"},
		{[]string{"OMPI_MCA_io=ompio", "OMPI_MCA_io=romio321"}, OpenMPI, "4.1", "lustre", "romio321", "OMPI_MCA_io"},
		{[]string{"OMPI_MCA_io=^ompio"}, OpenMPI, "5.0", "ext4", "romio341", "^ompio"},
		{[]string{"OMPI_MCA_io=^romio321"}, OpenMPI, "4.1", "lustre", "ompio", "^romio321"},
		{[]string{"OMPI_MCA_io=ompio,romio321"}, OpenMPI, "4.1", "lustre", "ompio", "OMPI_MCA_io"},
		{nil, Stdio, "", "ext4", "", "not an MPI"},
	} {
		got, why := MPIIOComponentFrom(tc.kind, tc.version, MPIIOSources{Env: tc.env, FSType: tc.fs})
		if got != tc.want || !strings.Contains(why, tc.whyPart) {
			t.Errorf("MPIIOComponentFrom(%v, %q, %q, %q) = %q, %q; want %q, ~%q",
				tc.env, tc.kind, tc.version, tc.fs, got, why, tc.want, tc.whyPart)
		}
	}
}

func TestGfortranNode(t *testing.T) {
	for name, want := range map[string]int{"GFORTRAN_8": 800, "GFORTRAN_9.2": 902, "GFORTRAN_10": 1000, "GFORTRAN_1.4": 104} {
		if got, ok := gfortranNode(name); !ok || got != want {
			t.Errorf("gfortranNode(%q) = %v, %v", name, got, ok)
		}
	}
	for _, name := range []string{"GFORTRAN_F2C_8", "GFORTRAN_C99_8", "libgfortran.so.5", "GFORTRAN_9.x", "GFORTRAN_"} {
		if _, ok := gfortranNode(name); ok {
			t.Errorf("gfortranNode(%q) accepted", name)
		}
	}
}

// TestStaticLibgfortran: the runtime is inside the exe, found by symbol.
func TestStaticLibgfortran(t *testing.T) {
	dir := t.TempDir()
	src := "program p\n  write(*,*) 'hi'\nend program p\n"
	if err := build(t, "gfortran", dir, "p.f90", src, "-static-libgfortran", "-o", "prog"); err != nil {
		t.Skip("-static-libgfortran failed")
	}
	exe := filepath.Join(dir, "prog")
	f, err := Inspect(exe, []string{"/lib/x86_64-linux-gnu/libc.so.6"})
	if err != nil {
		t.Fatal(err)
	}
	r, ok := find(f, Gfortran)
	if !ok || r.Lib != exe || r.Evidence != "static symbols _gfortran_st_write" || !r.BufferVars {
		t.Errorf("runtimes %+v", f.Runtimes)
	}
}
