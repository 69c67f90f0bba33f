package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/report"
)

// buildC writes src to dir/name and compiles it with compiler into
// dir/prog; the test is skipped without the compiler.
func buildC(t *testing.T, compiler, dir, name, src string, args ...string) string {
	t.Helper()
	cc, err := exec.LookPath(compiler)
	if err != nil {
		t.Skipf("%s not found: %v", compiler, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	cmd := exec.Command(cc, append(args, "-o", exe, name)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", compiler, err, out)
	}
	return exe
}

// A C++ program's libraries, read as app reads them, make tune say
// that its streams' buffers are out of reach.
func TestCannotReachCxxStreams(t *testing.T) {
	exe := buildC(t, "g++", t.TempDir(), "p.cc", "#include <fstream>\nint main() { std::ofstream o(\"x\"); o << 1; }\n")
	libs, _, _ := libraries(exe, nil, "ext4")
	rep := &report.AppReport{Program: &report.AppProgram{Exe: exe, Libraries: libs}}
	_, cannot := candidates(rep, nil, nil, "", t.TempDir())
	if !slices.ContainsFunc(cannot, func(s string) bool { return strings.HasPrefix(s, "C++ streams:") }) {
		t.Errorf("cannot %q, libraries %+v: want the C++ streams line", cannot, libs)
	}
}

// The interpreter, by its name or by the libpython it loaded (an
// embedding program), makes tune say a Python file's buffer is the
// program's.
func TestCannotReachPython(t *testing.T) {
	dir := t.TempDir()
	exe := buildC(t, "gcc", dir, "p.c", "int main(void) { return 0; }\n")
	py := filepath.Join(dir, "python3.12")
	if err := os.Link(exe, py); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "libpython3.12.so.1.0")
	if err := os.Link(exe, lib); err != nil { // a soname is all identify reads
		t.Fatal(err)
	}
	for _, tc := range []struct {
		exe    string
		loaded []string
	}{{py, nil}, {exe, []string{lib}}} {
		libs, _, _ := libraries(tc.exe, tc.loaded, "ext4")
		rep := &report.AppReport{Program: &report.AppProgram{Exe: tc.exe, Libraries: libs}}
		_, cannot := candidates(rep, nil, nil, "", t.TempDir())
		if !slices.ContainsFunc(cannot, func(s string) bool { return strings.HasPrefix(s, "Python:") }) {
			t.Errorf("%s %v: cannot %q, libraries %+v: want the Python line", tc.exe, tc.loaded, cannot, libs)
		}
	}
}
