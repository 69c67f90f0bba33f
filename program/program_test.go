package program

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "prog"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(dir, "data"), "x", 0o644)
	tests := []struct {
		argv0, want string
		status      int
	}{
		{"./prog", filepath.Join(dir, "prog"), 0},
		{"prog", filepath.Join(dir, "prog"), 0}, // found on PATH
		{"./data", "", ExitNotExecutable},
		{"./missing", "", ExitNotFound},
		{".", "", ExitNotExecutable}, // not found on PATH as a name: see below
		{"no-such-program-iobench", "", ExitNotFound},
		{"", "", ExitNotFound},
	}
	tests[4].argv0 = dir + "/" // a directory
	for _, tt := range tests {
		got, err := Resolve(tt.argv0, dir, dir)
		var se *StartError
		switch {
		case tt.status == 0 && err != nil:
			t.Errorf("Resolve(%q): %v", tt.argv0, err)
		case tt.status == 0 && got != tt.want:
			t.Errorf("Resolve(%q) = %q, want %q", tt.argv0, got, tt.want)
		case tt.status != 0 && !errors.As(err, &se):
			t.Errorf("Resolve(%q) error = %v, want a *StartError", tt.argv0, err)
		case tt.status != 0 && se.Status != tt.status:
			t.Errorf("Resolve(%q) status = %d, want %d (%v)", tt.argv0, se.Status, tt.status, err)
		}
	}
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

func TestRunStatusAndSignal(t *testing.T) {
	tests := []struct {
		script string
		status int
		signal syscall.Signal
		desc   string
	}{
		{"exit 0", 0, 0, "exit status 0"},
		{"exit 3", 3, 0, "exit status 3"},
		{"kill -9 $$", 137, syscall.SIGKILL, "killed by signal 9 (killed)"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), Spec{Argv: []string{"sh", "-c", tt.script}})
		if err != nil {
			t.Fatalf("%s: %v", tt.script, err)
		}
		if res.Status != tt.status || res.Signal != tt.signal || res.Describe() != tt.desc {
			t.Errorf("%s: status %d signal %v %q, want %d %v %q", tt.script, res.Status, res.Signal, res.Describe(), tt.status, tt.signal, tt.desc)
		}
		if res.Failed() != (tt.status != 0) || res.Stopped {
			t.Errorf("%s: Failed %v Stopped %v", tt.script, res.Failed(), res.Stopped)
		}
	}
}

func TestRunPassesStreamsAndDir(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	s := Spec{Argv: []string{"sh", "-c", "cat; pwd; echo oops >&2"}, Dir: dir,
		Stdin: strings.NewReader("in\n"), Stdout: &out, Stderr: &errOut}
	if _, err := Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if diff := cmp.Diff("in\n"+real+"\n", out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if errOut.String() != "oops\n" {
		t.Errorf("stderr = %q", errOut.String())
	}
}

// A cancelled run ends the whole group, the program's children included.
func TestRunCancelStopsTheGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	// Both ignore SIGINT: the SIGKILL after the grace must end them.
	s := Spec{Argv: []string{"sh", "-c", "trap '' INT; sleep 60 & echo $! >" + pidFile + "; wait"}, Grace: 200 * time.Millisecond}
	res, err := Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || !res.Interrupted() {
		t.Errorf("Stopped %v Interrupted %v, want both", res.Stopped, res.Interrupted())
	}
	b, _ := os.ReadFile(pidFile)
	pid := strings.TrimSpace(string(b))
	if pid == "" {
		t.Fatal("the child's pid was not written")
	}
	// SIGKILL reached the group; the child's death is the kernel's to
	// finish, and under load that takes a moment after the leader's.
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the program's child %s still runs 5 s after the stop", pid)
		}
	}
}

// alive says whether a pid runs: present in /proc and not a zombie.
func alive(pid string) bool {
	st, err := os.ReadFile("/proc/" + pid + "/stat")
	return err == nil && !strings.Contains(string(st), ") Z")
}

func TestRunStartErrors(t *testing.T) {
	_, err := Run(context.Background(), Spec{Argv: []string{"/nonexistent/prog"}})
	var se *StartError
	if !errors.As(err, &se) || se.Status != ExitNotFound {
		t.Errorf("err = %v, want a StartError with status 127", err)
	}
}

func TestParseLDDebug(t *testing.T) {
	f, err := os.Open("testdata/ld-debug-two.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ParseLDDebug(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []Loaded{
		{PID: 3717, Program: "sh", Libs: []string{"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libc.so.6"}},
		{PID: 3718, Program: "ls", Libs: []string{"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libc.so.6",
			"/lib/x86_64-linux-gnu/libpcre2-8.so.0", "/lib/x86_64-linux-gnu/libselinux.so.1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRunLoaded(t *testing.T) {
	_, loaded, err := RunLoaded(context.Background(), Spec{Argv: []string{"sh", "-c", "ls >/dev/null"}}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var programs []string
	for _, l := range loaded {
		programs = append(programs, l.Program)
	}
	if !strings.Contains(strings.Join(programs, " "), "ls") {
		t.Errorf("programs %v, want ls among them", programs)
	}
}

func TestCaptureStdin(t *testing.T) {
	dir := t.TempDir()
	path, n, err := CaptureStdin(strings.NewReader("12345"), dir, 5)
	if err != nil || n != 5 {
		t.Fatalf("CaptureStdin = %d, %v", n, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "12345" {
		t.Errorf("captured %q", b)
	}
	_, _, err = CaptureStdin(strings.NewReader("123456"), t.TempDir(), 5)
	if !errors.Is(err, ErrStdinTooLarge) {
		t.Errorf("err = %v, want ErrStdinTooLarge", err)
	}
}

// needStrace is strace's path; t is skipped where it cannot trace.
func needStrace(t *testing.T) string {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed")
	}
	if err := Preflight(context.Background(), strace); err != nil {
		t.Skipf("strace cannot trace here: %v", err)
	}
	return strace
}

func TestTracedPassesTheStatus(t *testing.T) {
	strace := needStrace(t)
	out := filepath.Join(t.TempDir(), "trace")
	res, err := Traced(context.Background(), Spec{Argv: []string{"sh", "-c", "echo x >/dev/null; exit 4"}}, strace, []string{"-f", "-o", out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != 4 || res.Argv[0] != strace {
		t.Errorf("status %d argv %v, want 4 under strace", res.Status, res.Argv)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Errorf("no trace written: %v", err)
	}
}

func TestFindStraceMissing(t *testing.T) {
	_, err := FindStrace(t.TempDir())
	if !errors.Is(err, ErrNoTracer) || !strings.Contains(err.Error(), "apt-get install strace") {
		t.Errorf("err = %v, want ErrNoTracer with how to install", err)
	}
}
