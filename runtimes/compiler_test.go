package runtimes

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/libcheck"
)

// fakeTools makes an executable for each name in a new directory.
func fakeTools(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		mode := os.FileMode(0o755)
		if strings.HasSuffix(n, ":noexec") {
			n, mode = strings.TrimSuffix(n, ":noexec"), 0o644
		}
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFindCompiler(t *testing.T) {
	tests := []struct {
		name  string
		rt    libcheck.Runtime
		tools []string
		want  string // base name; "" for none
	}{
		{"plain name first", libcheck.Gfortran, []string{"gfortran", "gfortran-13"}, "gfortran"},
		{"newest version", libcheck.Gfortran, []string{"gfortran-9", "gfortran-12", "gfortran-13"}, "gfortran-13"},
		{"not executable", libcheck.Gfortran, []string{"gfortran:noexec", "gfortran-12"}, "gfortran-12"},
		{"no number", libcheck.Gfortran, []string{"gfortran-x"}, ""},
		{"cc before gcc", libcheck.Stdio, []string{"gcc", "cc"}, "cc"},
		{"gcc-ar is not gcc", libcheck.Stdio, []string{"gcc-ar-12", "gcc-12"}, "gcc-12"},
		{"none", libcheck.Stdio, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fakeTools(t, tt.tools...)
			got, err := FindCompiler(tt.rt, dir+string(os.PathListSeparator)+t.TempDir())
			if tt.want == "" {
				if !errors.Is(err, ErrNoCompiler) {
					t.Fatalf("FindCompiler = %q, %v; want ErrNoCompiler", got, err)
				}
				return
			}
			if err != nil || got != filepath.Join(dir, tt.want) {
				t.Errorf("FindCompiler = %q, %v; want %s", got, err, filepath.Join(dir, tt.want))
			}
		})
	}
}

func TestNoCompilerMessage(t *testing.T) {
	tests := map[libcheck.Runtime]string{
		libcheck.Gfortran: "gfortran not found: install it (Debian: apt-get install gfortran)",
		libcheck.Stdio:    "a C compiler (cc or gcc) not found: install it (Debian: apt-get install gcc)",
	}
	for rt, want := range tests {
		_, err := FindCompiler(rt, t.TempDir())
		var nc *NoCompilerError
		if !errors.As(err, &nc) || err.Error() != want {
			t.Errorf("FindCompiler(%s) error = %v, want %q", rt, err, want)
		}
	}
	if _, err := FindCompiler("ifort", ""); err == nil || !strings.Contains(err.Error(), "valid: gfortran, stdio") {
		t.Errorf("unknown runtime: error = %v", err)
	}
}

// TestBuildWithoutCompiler: an empty PATH gives the install hint, and no
// temp directory is made.
func TestBuildWithoutCompiler(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	work := t.TempDir()
	_, err := Build(t.Context(), libcheck.Gfortran, work)
	if !errors.Is(err, ErrNoCompiler) {
		t.Fatalf("Build error = %v, want ErrNoCompiler", err)
	}
	if entries, _ := os.ReadDir(work); len(entries) != 0 {
		t.Errorf("Build left %d entries in the work directory", len(entries))
	}
}

func TestSourcesEmbedded(t *testing.T) {
	for _, rt := range libcheck.Runtimes() {
		src, err := Source(rt)
		if err != nil || len(src) == 0 {
			t.Fatalf("Source(%s) = %d bytes, %v", rt, len(src), err)
		}
	}
	// The stdio writer's conversion chunk is the one Predict assumes.
	src, _ := Source(libcheck.Stdio)
	if !strings.Contains(string(src), "#define SWAP_CHUNK 512") || libcheck.SwapChunk != 512 {
		t.Error("writer.c SWAP_CHUNK and libcheck.SwapChunk differ")
	}
	f90, _ := Source(libcheck.Gfortran)
	if !strings.Contains(string(f90), "status='new'") {
		t.Error("writer.f90 must open with status='new' so it never overwrites a file")
	}
	// The libraries' writers never overwrite a file either.
	for rt, excl := range map[libcheck.Runtime]string{libcheck.MPIIO: "MPI_MODE_EXCL", libcheck.HDF5: "H5F_ACC_EXCL"} {
		src, err := Source(rt)
		if err != nil || !strings.Contains(string(src), excl) {
			t.Errorf("Source(%s): %v; it must create its files with %s", rt, err, excl)
		}
	}
}
