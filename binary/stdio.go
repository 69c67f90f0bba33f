package binary

import (
	"debug/elf"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// stdioOpeners give a FILE of a file: a program that writes a file
// through stdio calls one (stdout redirected to a file aside).
var stdioOpeners = []string{"fopen", "fopen64", "fdopen", "freopen", "freopen64", "tmpfile", "tmpfile64"}

// stdioOutput are stdio's output calls.
var stdioOutput = []string{"fwrite", "fwrite_unlocked", "fputs", "fputs_unlocked", "fprintf", "__fprintf_chk",
	"vfprintf", "__vfprintf_chk", "fputc", "fputc_unlocked", "putc", "putc_unlocked", "_IO_putc"}

// directWrites are the calls of a program that writes with write(2) itself.
var directWrites = []string{"write", "__write", "writev", "pwrite", "pwrite64", "pwritev", "pwritev2", "pwritev64"}

// StdioWriter says whether the program writes files through C stdio:
// exe, or a library of libs that is the program's own (one exe needs
// itself, not a system library or a runtime this package names), imports a FILE opener and
// an output call, and none of them imports write(2) itself, which would
// make calls of any size, st_blksize's too (dd bs=4k imports fwrite for
// its messages, and write). why says which; ok is false when it cannot
// be told, why then says why.
func StdioWriter(exe string, libs []string) (why string, ok bool) {
	needed := libNeeded(exe)
	for i, n := range needed {
		needed[i] = filepath.Base(n)
	}
	own := slices.DeleteFunc(slices.Clone(libs), func(l string) bool { return notOwn(l) || !slices.Contains(needed, filepath.Base(l)) })
	objs := append([]string{exe}, own...)
	var uses, direct []string
	for _, o := range objs {
		imp, static, err := imported(o)
		switch {
		case err != nil && o == exe:
			return fmt.Sprintf("%s cannot be read: %v", exe, err), false
		case err != nil:
			continue
		}
		open, out := firstOf(imp, stdioOpeners), firstOf(imp, stdioOutput)
		if open != "" && out != "" {
			uses = append(uses, fmt.Sprintf("%s %s %s and %s", filepath.Base(o), verb(static), open, out))
		}
		if w := firstOf(imp, directWrites); w != "" && !static {
			direct = append(direct, fmt.Sprintf("%s imports %s", filepath.Base(o), w))
		}
	}
	switch {
	case len(uses) == 0:
		return fmt.Sprintf("neither %s nor a library of its own opens a FILE and writes through it", filepath.Base(exe)), false
	case len(direct) > 0:
		return fmt.Sprintf("%s, but %s: its own write(2) calls could make these", strings.Join(uses, "; "), strings.Join(direct, ", ")), false
	}
	return strings.Join(uses, "; "), true
}

func verb(static bool) string {
	if static {
		return "defines (static)"
	}
	return "imports"
}

// notOwn: a system library or a runtime's; only the program's own
// libraries speak for its writes.
func notOwn(lib string) bool {
	if _, ok := identify(lib, false); ok {
		return true
	}
	base := filepath.Base(lib)
	if strings.HasPrefix(base, "ld-linux") || strings.HasPrefix(base, "mca_") || isSO(base, "libpython") || isSO(base, "libstdc++") || isSO(base, "libmpi") {
		return true
	}
	return slices.ContainsFunc(systemDirs, func(d string) bool { return strings.HasPrefix(lib, d+"/") })
}

// imported is the functions an ELF file imports; a static one's defined
// symbols stand in, since its libc is inside it.
func imported(path string) (map[string]bool, bool, error) {
	f, err := openELF(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	needed, _ := f.ImportedLibraries()
	if !hasInterp(f) && len(needed) == 0 {
		return definedSymbols(f), true, nil
	}
	syms, _ := f.DynamicSymbols()
	out := map[string]bool{}
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			out[s.Name] = true
		}
	}
	return out, false, nil
}

func firstOf(have map[string]bool, names []string) string {
	for _, n := range names {
		if have[n] {
			return n
		}
	}
	return ""
}
