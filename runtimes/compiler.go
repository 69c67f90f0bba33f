package runtimes

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrNoCompiler is what a *NoCompilerError matches with errors.Is.
var ErrNoCompiler = errors.New("no compiler")

// NoCompilerError: the compiler a runtime's writer needs is not on PATH.
type NoCompilerError struct {
	Runtime Runtime
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
	flags    []string // before -o
}

// Fortran needs no runtime flags: the buffer and byte order come from
// the environment at run time, as for a user's program. -O2 keeps the
// fill loop from costing more than it must; the timed part is all
// library calls anyway.
var specs = map[Runtime]compilerSpec{
	Gfortran: {what: "gfortran", names: []string{"gfortran"}, versions: "gfortran-", pkg: "gfortran", source: "src/writer.f90", flags: []string{"-O2"}},
	Stdio:    {what: "a C compiler (cc or gcc)", names: []string{"cc", "gcc"}, versions: "gcc-", pkg: "gcc", source: "src/writer.c", flags: []string{"-O2", "-std=c99"}},
}

// FindCompiler looks for rt's compiler in the directories of pathList (a
// PATH value): the plain names first, else the newest versioned one
// (gfortran-13 before gfortran-12), which Debian installs without the
// plain name when only gfortran-NN is installed.
func FindCompiler(rt Runtime, pathList string) (string, error) {
	spec, ok := specs[rt]
	if !ok {
		_, err := ParseRuntime(string(rt))
		return "", err
	}
	dirs := filepath.SplitList(pathList)
	for _, name := range spec.names {
		for _, d := range dirs {
			if p := filepath.Join(d, name); isExecutable(p) {
				return p, nil
			}
		}
	}
	if p := newestVersioned(dirs, spec.versions); p != "" {
		return p, nil
	}
	return "", &NoCompilerError{Runtime: rt, What: spec.what, Tried: append(slices.Clone(spec.names), spec.versions+"NN"), Package: spec.pkg}
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
