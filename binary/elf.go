package binary

import (
	"bytes"
	"cmp"
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// systemDirs are searched after RUNPATH/RPATH and LD_LIBRARY_PATH, like ld.so.
var systemDirs = []string{
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib",
}

func searchDirs(f *elf.File, exe string) []string {
	var dirs []string
	origin := filepath.Dir(exe)
	expand := strings.NewReplacer("${ORIGIN}", origin, "$ORIGIN", origin)
	for _, tag := range []elf.DynTag{elf.DT_RPATH, elf.DT_RUNPATH} {
		vals, _ := f.DynString(tag)
		for _, v := range vals {
			dirs = append(dirs, filepath.SplitList(expand.Replace(v))...)
		}
	}
	dirs = append(dirs, filepath.SplitList(os.Getenv("LD_LIBRARY_PATH"))...)
	return append(dirs, systemDirs...)
}

// resolve finds soname in dirs; "" if absent.
func resolve(soname string, dirs []string) string {
	if strings.Contains(soname, "/") {
		return soname
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, soname)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// libNeeded is DT_NEEDED of path, nil if it cannot be read.
func libNeeded(path string) []string {
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	n, _ := f.ImportedLibraries()
	return n
}

// gfortranVersion reads the highest GFORTRAN_N[.M] version node of a
// libgfortran (or the exe for static links) and whether it has the
// unformatted buffer-size variables, added in GCC 9.2.
func gfortranVersion(path string) (version string, bufferVars bool) {
	f, err := elf.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	best, bestN := "", -1
	vers, _ := f.DynamicVersions()
	for _, v := range vers {
		if n, ok := gfortranNode(v.Name); ok && n > bestN {
			best, bestN = v.Name, n
		}
	}
	bufferVars = bestN >= 902 || rodataHas(f, "GFORTRAN_UNFORMATTED_BUFFER_SIZE")
	switch {
	case best == "":
	case bestN < 800:
		version = best + " (GCC < 8)"
	default:
		version = fmt.Sprintf("%s (GCC >= %s)", best, strings.TrimPrefix(best, "GFORTRAN_"))
	}
	return version, bufferVars
}

// gfortranNode parses "GFORTRAN_10.2" to 1002; F2C/C99 nodes are not versions.
func gfortranNode(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "GFORTRAN_")
	maj, min, _ := strings.Cut(rest, ".")
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(cmp.Or(min, "0"))
	return a*100 + b, ok && err1 == nil && err2 == nil
}

func rodataHas(f *elf.File, s string) bool {
	sec := f.Section(".rodata")
	if sec == nil {
		return false
	}
	data, err := sec.Data()
	return err == nil && bytes.Contains(data, []byte(s))
}

// marker symbols that show a runtime was linked into the executable itself.
var markers = []struct {
	kind Kind
	syms []string
}{
	{Gfortran, []string{"_gfortran_st_write"}},
	{IntelFortran, []string{"for_write_seq_lis", "for_write_seq"}},
	{HDF5, []string{"H5Fcreate"}},
	{Stdio, []string{"_IO_file_xsputn", "fwrite"}},
}

// addSymbols looks for runtimes defined (not imported) in exe's symbol tables.
func addSymbols(m found, f *elf.File, exe string, static bool) {
	defined := definedSymbols(f)
	for _, mk := range markers {
		if mk.kind == Stdio && !static {
			continue // a dynamic exe's stdio is libc's, found via libc.so.6
		}
		for _, s := range mk.syms {
			if defined[s] {
				m.add(mk.kind, exe, "static symbols "+s)
				break
			}
		}
	}
	if k, ok := staticMPI(defined); ok {
		m.add(k, exe, "static symbols MPI_File_open")
	}
}

// staticMPI tells Open MPI from MPICH by their internal symbol prefixes.
func staticMPI(defined map[string]bool) (Kind, bool) {
	if !defined["MPI_File_open"] && !defined["PMPI_File_open"] {
		return "", false
	}
	mpich := false
	for s := range defined {
		if strings.HasPrefix(s, "ompi_") {
			return OpenMPI, true
		}
		mpich = mpich || strings.HasPrefix(s, "MPIR_")
	}
	return MPICH, mpich
}

func definedSymbols(f *elf.File) map[string]bool {
	defined := map[string]bool{}
	syms, _ := f.Symbols()
	dyn, _ := f.DynamicSymbols()
	for _, s := range append(syms, dyn...) {
		if s.Section != elf.SHN_UNDEF && s.Name != "" {
			defined[s.Name] = true
		}
	}
	return defined
}

// ompiSeries is the Open MPI release series of libmpi.so.40.A.x by its
// libtool age A (each series' VERSION file); 5.0 kept soname 40.
var ompiSeries = map[string]string{"0": "3.0", "10": "3.1", "20": "4.0", "30": "4.1", "40": "5.0"}

var libmpiFile = regexp.MustCompile(`^libmpi\.so\.40\.([0-9]+)\.[0-9]+$`)

// openMPIVersion is the Open MPI release of a libmpi: its series from
// the real file's name (libmpi.so.40.30.4 is 4.1), the release from the
// version string the library carries ("4.1.4"), else the series alone;
// "" when the name does not tell.
func openMPIVersion(lib string) string {
	real, err := filepath.EvalSymlinks(lib)
	if err != nil {
		return ""
	}
	sub := libmpiFile.FindStringSubmatch(filepath.Base(real))
	if sub == nil || ompiSeries[sub[1]] == "" {
		return ""
	}
	series := ompiSeries[sub[1]]
	return cmp.Or(rodataRelease(real, series), series)
}

// rodataRelease finds "S.N" or "vS.N", a whole string, in lib's .rodata.
func rodataRelease(lib, series string) string {
	f, err := elf.Open(lib)
	if err != nil {
		return ""
	}
	defer f.Close()
	sec := f.Section(".rodata")
	if sec == nil {
		return ""
	}
	data, err := sec.Data()
	if err != nil {
		return ""
	}
	re := regexp.MustCompile(`\x00v?(` + regexp.QuoteMeta(series) + `\.[0-9]+)\x00`)
	if m := re.FindSubmatch(data); m != nil {
		return string(m[1])
	}
	return ""
}
