package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppWhenTracingIsRefused: a tracer the system refuses (here a fake
// strace that fails as ptrace rules make it fail) is told from the
// program: one line says so and what to do, the program still runs,
// untraced, and its own exit status is app's.
func TestAppWhenTracingIsRefused(t *testing.T) {
	bin := t.TempDir()
	fake := "#!/bin/sh\necho 'strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "strace"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
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

// TestAppOwnFailuresAre125: as env(1) does, app's own failure after the
// program ran is 125, never a status the program could have given.
func TestAppOwnFailuresAre125(t *testing.T) {
	t.Chdir(t.TempDir())
	_, stderr, code := runCLI(t, "app", "--curve", filepath.Join(t.TempDir(), "missing.json"), "--", "true")
	if code != 125 || !strings.Contains(stderr, "--curve") {
		t.Errorf("a missing --curve: exit %d, %q; want 125 naming --curve", code, stderr)
	}
}
