package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/binary"
	"github.com/iobench/iobench/program"
	"github.com/iobench/iobench/report"
)

// TestAppWhenTracingIsRefused: a tracer the system refuses (here a fake
// strace that fails as ptrace rules make it fail) is told from the
// program: one line says so and what to do, the program still runs,
// untraced, and its own exit status is app's.
func TestAppWhenTracingIsRefused(t *testing.T) {
	refuseTracing(t)
	t.Chdir(t.TempDir())
	stdout, stderr, code := runCLI(t, "app", "--", "sh", "-c", "echo ran; exit 3")
	if code != 3 {
		t.Errorf("exit %d, want the program's 3\n%s", code, stderr)
	}
	if stdout != "ran\n" {
		t.Errorf("stdout %q: the program did not run once, untraced, with its own output", stdout)
	}
	words := strings.Join(strings.Fields(stderr), " ")
	for _, want := range []string{"Operation not permitted", "Darshan"} {
		if !strings.Contains(words, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(words, "There is nothing to price") {
		t.Errorf("an untraced program is told there is nothing to price, not how to trace it:\n%s", stderr)
	}
}

// refuseTracing puts first on PATH a strace that fails as ptrace rules
// make it fail.
func refuseTracing(t *testing.T) {
	t.Helper()
	bin := t.TempDir()
	fake := "#!/bin/sh\necho 'strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "strace"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
}

// Untraced, app -- sh ./run.sh names the Fortran program the script
// starts and its libgfortran, from the loader's trace.
func TestAppUntracedReadsTheScriptsProgram(t *testing.T) {
	dir := t.TempDir()
	exe := buildC(t, "gfortran", dir, "p.f90", "program p\nopen(10, file='x.dat', form='unformatted')\nwrite(10) 1.0d0\nclose(10)\nend program\n")
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n./prog\ncat x.dat > /dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	refuseTracing(t)
	t.Chdir(dir)
	out := filepath.Join(t.TempDir(), "app.json")
	if _, stderr, code := runCLI(t, "app", "--format", "json", "-o", out, "--", "sh", "./run.sh"); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rep report.AppReport
	if raw, err := os.ReadFile(out); err != nil || json.Unmarshal(raw, &rep) != nil {
		t.Fatalf("no report: %v", err)
	}
	if rep.Program.Exe != exe || !slices.ContainsFunc(rep.Program.Libraries, func(l report.AppLibrary) bool { return l.Kind == string(binary.Gfortran) }) {
		t.Errorf("exe %q, libraries %+v; want %s and libgfortran", rep.Program.Exe, rep.Program.Libraries, exe)
	}
}

// TestAppOwnFailuresAre125: as env(1) does, app's own failure after the
// program ran is 125, never a status the program could have given.
func TestAppOwnFailuresAre125(t *testing.T) {
	t.Chdir(t.TempDir())
	_, stderr, code := runCLI(t, "app", "--curve", filepath.Join(t.TempDir(), "missing.json"), "--", "true")
	if code != 125 || !strings.Contains(stderr, "--curve") {
		t.Errorf("a missing --curve: exit %d, %q; want 125 naming --curve", code, stderr)
	}
}

// Untraced, app reads the process that loaded an I/O runtime, not the
// shell that started it, nor the last helper the script ran.
func TestProgramOfALoaderWatchedScript(t *testing.T) {
	libc, gf := "/lib/x86_64-linux-gnu/libc.so.6", "/nowhere/libgfortran.so.5"
	loaded := []program.Loaded{{PID: 1, Program: "/bin/sh", Libs: []string{libc}}, {PID: 2, Program: "/bin/true", Libs: []string{libc, gf}},
		{PID: 3, Program: "/bin/cat", Libs: []string{libc}}}
	if exe, libs := programOf(loaded, "/work/run.sh"); exe != "/bin/true" || !slices.Contains(libs, gf) {
		t.Errorf("programOf = %q, %v; want /bin/true with libgfortran", exe, libs)
	}
	if exe, _ := programOf(loaded[:1], "/work/run.sh"); exe != "/bin/sh" {
		t.Errorf("without a runtime: %q, want the last process, /bin/sh", exe)
	}
	if exe, _ := programOf([]program.Loaded{{Program: "./gone", Libs: []string{gf}}}, "/work/run.sh"); exe != "/work/run.sh" {
		t.Errorf("an executable not found: %q, want the fallback", exe)
	}
}

// blindStrace is a strace that runs the program and records none of its
// calls: a trace cut short, or one that missed the libraries' openat.
const blindStrace = `#!/bin/sh
out=/dev/null
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-s|-e) shift 2 ;;
	--) shift; break ;;
	-*) shift ;;
	*) break ;;
	esac
done
echo "1 exit_group(0) = ?" > "$out"
exec "$@"
`

// The process's maps name the libraries a trace missed: a Fortran
// program's libgfortran, said to come from there.
func TestAppReadsTheMapsTheTraceMissed(t *testing.T) {
	dir := t.TempDir()
	buildC(t, "gfortran", dir, "p.f90", "program p\ncall sleep(1)\nend program\n")
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "strace"), []byte(blindStrace), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	t.Chdir(dir)
	out := filepath.Join(t.TempDir(), "app.json")
	if _, stderr, code := runCLI(t, "app", "--format", "json", "-o", out, "--", "./prog"); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rep report.AppReport
	if raw, err := os.ReadFile(out); err != nil || json.Unmarshal(raw, &rep) != nil {
		t.Fatalf("no report: %v", err)
	}
	gf := slices.ContainsFunc(rep.Program.Libraries, func(l report.AppLibrary) bool { return l.Kind == string(binary.Gfortran) })
	said := slices.ContainsFunc(rep.Program.Notes, func(n string) bool {
		return strings.Contains(n, "/proc/PID/maps") && strings.Contains(n, "libgfortran")
	})
	if !gf || !said {
		t.Errorf("libraries %+v, notes %q: want libgfortran, from the maps, said so", rep.Program.Libraries, rep.Program.Notes)
	}
}
