package binary

import (
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
)

// Kind is an I/O runtime.
type Kind string

const (
	Gfortran     Kind = "libgfortran"
	Stdio        Kind = "glibc stdio"
	OpenMPI      Kind = "Open MPI"
	MPICH        Kind = "MPICH"
	HDF5         Kind = "HDF5"
	IntelFortran Kind = "Intel Fortran runtime"
	// Cxx and Python buffer in themselves, out of any setting's reach:
	// named so that tune can say so.
	Cxx    Kind = "libstdc++"
	Python Kind = "Python"
)

// ErrNotELF is wrapped when the executable is a script or other non-ELF file.
var ErrNotELF = errors.New("not an ELF file")

// Runtime is one I/O runtime found in a program.
type Runtime struct {
	Kind     Kind
	Lib      string // the shared object's path, or the executable for static
	Version  string // e.g. "GFORTRAN_12 (GCC >= 12)"; "" if unknown
	Evidence string // how it was found, one short phrase
	// BufferVars: libgfortran honours GFORTRAN_UNFORMATTED_BUFFER_SIZE (GCC >= 9.2).
	BufferVars bool
}

// Facts is what Inspect learned about a program.
type Facts struct {
	Exe      string
	Static   bool     // no PT_INTERP and no DT_NEEDED
	Needed   []string // DT_NEEDED of the executable
	Runtimes []Runtime
}

// order is the order of Facts.Runtimes: most specific advice first.
var order = []Kind{Gfortran, IntelFortran, OpenMPI, MPICH, HDF5, Cxx, Python, Stdio}

// found collects one Runtime per Kind; the first evidence wins.
type found map[Kind]Runtime

func (m found) add(k Kind, lib, evidence string) {
	if _, ok := m[k]; ok {
		return
	}
	r := Runtime{Kind: k, Lib: lib, Evidence: evidence}
	if k == Stdio && filepath.Base(lib) == "libc.so.6" {
		r.Evidence = "libc.so.6: glibc stdio"
	}
	if k == Gfortran {
		r.Version, r.BufferVars = gfortranVersion(lib)
	}
	m[k] = r
}

// version fills an Open MPI runtime's version from lib, a libmpi seen
// after the first evidence (often libopen-pal, which does not tell it).
func (m found) version(k Kind, lib string) {
	if r, ok := m[k]; ok && k == OpenMPI && r.Version == "" {
		r.Version = openMPIVersion(lib)
		m[k] = r
	}
}

func (m found) list() []Runtime {
	var out []Runtime
	for _, k := range order {
		if r, ok := m[k]; ok {
			out = append(out, r)
		}
	}
	return out
}

// Inspect reads exe (ELF) and the loaded shared objects. If loaded is empty,
// the DT_NEEDED entries of exe and of its direct dependencies are used instead.
// A non-ELF exe yields the runtimes of loaded and an error wrapping ErrNotELF.
func Inspect(exe string, loaded []string) (Facts, error) {
	facts := Facts{Exe: exe}
	m := found{}
	why := make([]string, len(loaded))
	for i, p := range loaded {
		why[i] = "loaded " + p
	}
	addLibs(m, loaded, why)
	addPython(m, exe)
	f, err := openELF(exe)
	if err != nil {
		facts.Runtimes = m.list()
		return facts, err
	}
	defer f.Close()
	facts.Needed, _ = f.ImportedLibraries()
	facts.Static = !hasInterp(f) && len(facts.Needed) == 0
	if len(loaded) == 0 && !facts.Static {
		addNeeded(m, f, exe, facts.Needed)
	}
	addCxx(m, f, exe, facts.Needed)
	// Also catches runtimes linked in statically, e.g. -static-libgfortran.
	addSymbols(m, f, exe, facts.Static)
	facts.Runtimes = m.list()
	return facts, nil
}

// openELF opens path as ELF; a file that is not ELF gives ErrNotELF.
// The path may come from a log: only a regular file is opened, so a
// FIFO there cannot hang it.
func openELF(path string) (*elf.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotELF)
	}
	f, err := elf.Open(path)
	var fe *elf.FormatError
	if errors.As(err, &fe) {
		return nil, fmt.Errorf("%s: %w", path, ErrNotELF)
	}
	return f, err
}

func hasInterp(f *elf.File) bool {
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return true
		}
	}
	return false
}

// addLibs names each library; evidence[i] says how libs[i] was found.
func addLibs(m found, libs, evidence []string) {
	openPal := anyOpenPal(libs)
	for i, p := range libs {
		if k, ok := identify(p, openPal); ok && k != Cxx {
			m.add(k, p, evidence[i])
			m.version(k, p)
		}
	}
}

// addNeeded walks DT_NEEDED of exe and, one level deeper, of its libraries.
func addNeeded(m found, f *elf.File, exe string, needed []string) {
	dirs := searchDirs(f, exe)
	var libs, why []string
	seen := map[string]bool{}
	visit := func(names []string, of string) {
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				libs = append(libs, cmp.Or(resolve(n, dirs), n))
				why = append(why, "DT_NEEDED "+n+" of "+of)
			}
		}
	}
	visit(needed, exe)
	for _, lib := range slices.Clone(libs) {
		if strings.Contains(lib, "/") { // resolved
			visit(libNeeded(lib), lib)
		}
	}
	addLibs(m, libs, why)
}

// IdentifyLib names a shared object by its file name or soname.
func IdentifyLib(path string) (Kind, bool) {
	return identify(path, anyOpenPal(libNeeded(path)))
}

// identify names a library; openPal says Open MPI's support libraries are
// present, which decides what an ambiguous libmpi.so.N belongs to.
func identify(path string, openPal bool) (Kind, bool) {
	b := filepath.Base(path)
	switch {
	case b == "libc.so.6":
		return Stdio, true
	case isSO(b, "libgfortran"):
		return Gfortran, true
	case isSO(b, "libifcore"), isSO(b, "libifport"):
		return IntelFortran, true
	case isSO(b, "libhdf5"):
		return HDF5, true
	case isSO(b, "libstdc++"):
		return Cxx, true
	case isSO(b, "libpython"):
		return Python, true
	case isSO(b, "libmpich"):
		return MPICH, true
	case isOpenPal(b), isSO(b, "libmpi_mpifh"), isSO(b, "libmpi_usempi"):
		return OpenMPI, true
	case strings.HasPrefix(b, "libmpi.so"):
		switch {
		case openPal || strings.HasPrefix(b, "libmpi.so.40"):
			return OpenMPI, true
		case strings.HasPrefix(b, "libmpi.so.12"): // MPICH ABI
			return MPICH, true
		}
	}
	return "", false
}

// addCxx names libstdc++ when the executable itself needs it: MPI and
// other runtimes load it for their own use, which says nothing of the
// program's streams.
func addCxx(m found, f *elf.File, exe string, needed []string) {
	for _, n := range needed {
		if isSO(n, "libstdc++") {
			m.add(Cxx, cmp.Or(resolve(n, searchDirs(f, exe)), n), "DT_NEEDED "+n+" of "+exe)
			return
		}
	}
}

var pythonExe = regexp.MustCompile(`^python[0-9.]*$`)

// addPython names Python from the interpreter's name: Debian's python3
// links libpython in, so no libpython.so shows; a script's #! line names
// it when the script itself is the executable.
func addPython(m found, exe string) {
	if pythonExe.MatchString(filepath.Base(exe)) {
		m.add(Python, exe, "the executable is "+filepath.Base(exe))
		return
	}
	if interp := shebang(exe); pythonExe.MatchString(filepath.Base(interp)) {
		m.add(Python, exe, "its #! line runs "+interp)
	}
}

// shebang is the interpreter of a #! line ("env python3" gives python3);
// "" when exe has none.
func shebang(exe string) string {
	f, err := os.OpenFile(exe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := strings.Cut(string(head[:n]), "\n")
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if !strings.HasPrefix(line, "#!") || len(fields) == 0 {
		return ""
	}
	if filepath.Base(fields[0]) == "env" {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				return f
			}
		}
	}
	return fields[0]
}

// isSO: name starts with prefix and is some .so file.
func isSO(name, prefix string) bool {
	return strings.HasPrefix(name, prefix) && strings.Contains(name[len(prefix):], ".so")
}

func isOpenPal(name string) bool {
	return isSO(name, "libopen-pal") || isSO(name, "libopen-rte")
}

func anyOpenPal(paths []string) bool {
	return slices.ContainsFunc(paths, func(p string) bool { return isOpenPal(filepath.Base(p)) })
}
