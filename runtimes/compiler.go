package runtimes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/iobench/iobench/libcheck"
)

// ErrNoCompiler is what a *NoCompilerError matches with errors.Is.
var ErrNoCompiler = errors.New("no compiler")

// NoCompilerError: the compiler a runtime's writer needs is not on PATH.
type NoCompilerError struct {
	Runtime libcheck.Runtime
	What    string   // "gfortran", "a C compiler (cc or gcc)"
	Tried   []string // the names looked for on PATH
	Package string   // the Debian package that provides it
}

func (e *NoCompilerError) Error() string {
	return fmt.Sprintf("%s not found: install it (Debian: apt-get install %s)", e.What, e.Package)
}

// Unwrap lets errors.Is(err, ErrNoCompiler) find it.
func (e *NoCompilerError) Unwrap() error { return ErrNoCompiler }

// compilerSpec is what finding and running one runtime's compiler needs.
type compilerSpec struct {
	what     string   // for NoCompilerError
	names    []string // exact names, in order of preference
	versions string   // prefix of versioned names, "gfortran-" for gfortran-12
	pkg      string   // Debian package
	source   string   // embedded source file
	headers  []string // embedded headers it includes
	flags    []string // before -o
	// library finds the flags that link a library, after the source; nil
	// for none. It may name another compiler that brings them itself.
	library func(ctx context.Context, dirs []string, cc string) (compiler string, libs []string, err error)
}

// Fortran needs no runtime flags: the buffer and byte order come from
// the environment at run time, as for a user's program. -O2 keeps the
// fill loop from costing more than it must; the timed part is all
// library calls anyway.
var specs = map[libcheck.Runtime]compilerSpec{
	libcheck.Gfortran: {what: "gfortran", names: []string{"gfortran"}, versions: "gfortran-", pkg: "gfortran", source: "src/writer.f90", flags: []string{"-O2"}},
	libcheck.Stdio:    {what: "a C compiler (cc or gcc)", names: []string{"cc", "gcc"}, versions: "gcc-", pkg: "gcc", source: "src/writer.c", headers: cHeaders, flags: []string{"-O2", "-std=c99"}},
	// Open MPI's wrapper brings its own include and link flags.
	libcheck.MPIIO: {what: "mpicc (an MPI C compiler)", names: []string{"mpicc"}, pkg: "libopenmpi-dev", source: "src/mpiio.c", headers: cHeaders, flags: []string{"-O2", "-std=gnu99"}},
	libcheck.HDF5:  {what: "a C compiler (cc or gcc)", names: []string{"cc", "gcc"}, versions: "gcc-", pkg: "gcc", source: "src/hdf5.c", headers: cHeaders, flags: []string{"-O2", "-std=gnu99"}, library: hdf5Library},
}

// cHeaders are what every C writer includes.
var cHeaders = []string{"src/procio.h"}

// hdf5Library is libhdf5's flags from pkg-config (Debian's serial
// build), else h5cc, HDF5's own compiler wrapper.
func hdf5Library(ctx context.Context, dirs []string, cc string) (string, []string, error) {
	if pc := lookPath(dirs, "pkg-config"); pc != "" {
		out, err := exec.CommandContext(ctx, pc, "--cflags", "--libs", "hdf5").Output()
		if err == nil {
			return cc, strings.Fields(string(out)), nil
		}
	}
	if h5cc := lookPath(dirs, "h5cc"); h5cc != "" {
		return h5cc, nil, nil
	}
	return "", nil, &NoCompilerError{Runtime: libcheck.HDF5, What: "libhdf5 (pkg-config hdf5, or h5cc)", Tried: []string{"pkg-config hdf5", "h5cc"}, Package: "libhdf5-dev"}
}

// lookPath is the first executable name in dirs, "" if none.
func lookPath(dirs []string, name string) string {
	for _, d := range dirs {
		if p := filepath.Join(d, name); isExecutable(p) {
			return p
		}
	}
	return ""
}

// FindCompiler looks for rt's compiler in the directories of pathList (a
// PATH value): the plain names first, else the newest versioned one
// (gfortran-13 before gfortran-12), which Debian installs without the
// plain name when only gfortran-NN is installed. For a library's writer
// the library must be there too (hdf5: pkg-config's hdf5, or h5cc, which
// is then the compiler).
func FindCompiler(rt libcheck.Runtime, pathList string) (string, error) {
	if _, ok := specs[rt]; !ok {
		_, err := libcheck.ParseRuntime(string(rt))
		return "", err
	}
	cc, _, err := findTools(context.Background(), rt, pathList)
	return cc, err
}

// findTools is rt's compiler and the flags that link its library.
func findTools(ctx context.Context, rt libcheck.Runtime, pathList string) (string, []string, error) {
	spec := specs[rt]
	dirs := filepath.SplitList(pathList)
	cc := ""
	for _, name := range spec.names {
		if cc = lookPath(dirs, name); cc != "" {
			break
		}
	}
	if cc == "" && spec.versions != "" {
		cc = newestVersioned(dirs, spec.versions)
	}
	if cc == "" {
		tried := slices.Clone(spec.names)
		if spec.versions != "" {
			tried = append(tried, spec.versions+"NN")
		}
		return "", nil, &NoCompilerError{Runtime: rt, What: spec.what, Tried: tried, Package: spec.pkg}
	}
	if spec.library == nil {
		return cc, nil, nil
	}
	return spec.library(ctx, dirs, cc)
}

// newestVersioned is the executable prefix+N with the largest N in dirs.
func newestVersioned(dirs []string, prefix string) string {
	best, bestN := "", -1
	for _, d := range dirs {
		matches, _ := filepath.Glob(filepath.Join(d, prefix+"[0-9]*"))
		for _, m := range matches {
			n, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(m), prefix))
			if err == nil && n > bestN && isExecutable(m) {
				best, bestN = m, n
			}
		}
	}
	return best
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
