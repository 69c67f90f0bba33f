package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// runWithStdoutClosed runs iobench with descriptor 1 closed (>&-), in
// cwd, and returns its stderr and exit code.
func runWithStdoutClosed(t *testing.T, cwd string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"-c", `exec "$0" "$@" >&-`, iobenchBin}, args...)...)
	cmd.Dir = cwd
	var errb strings.Builder
	cmd.Stderr = &errb
	_ = cmd.Run()
	return errb.String(), cmd.ProcessState.ExitCode()
}

// A report meant for a stdout the command started without is never lost
// with exit 0: it is saved aside (exit 1), or the command stops before it
// measures, naming -o; a stdout sent to /dev/null on purpose is honoured.
func TestStdoutClosedAtStartIsNeverASilentSuccess(t *testing.T) {
	dir, cwd, stateHome := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("XDG_STATE_HOME", stateHome)
	sweep := []string{"sweep", "--dir", dir, "--size", "1MiB", "--max", "64KiB", "--repeat", "1", "--sync", "none", "--no-progress"}

	errOut, code := runWithStdoutClosed(t, cwd, append(sweep, "--format", "json")...)
	saved, _ := filepath.Glob(filepath.Join(stateHome, "iobench", "iobench-report-*.json"))
	if len(saved) != 1 {
		t.Fatalf("json, stdout closed: exit %d, saved %v, stderr %q; want one report saved in $XDG_STATE_HOME/iobench", code, saved, errOut)
	}
	if code != 1 || !strings.Contains(errOut, "the report is saved in "+saved[0]) {
		t.Errorf("json, stdout closed: exit %d, saved %v, stderr %q; want exit 1 and the report saved aside, named", code, saved, errOut)
	}
	if left := dirEntries(t, cwd); len(left) != 0 {
		t.Errorf("the working directory got %v: a saved report belongs in $XDG_STATE_HOME", left)
	}
	if out, _, _ := runCLI(t, "clean", "--dir", dir, "--dry-run"); !strings.Contains(out, "saved report "+saved[0]) {
		t.Errorf("clean does not list the saved report:\n%s", out)
	}
	errOut, code = runWithStdoutClosed(t, cwd, sweep...)
	if code != 1 || !strings.Contains(errOut, "stdout is closed") || !strings.Contains(errOut, "-o FILE") {
		t.Errorf("text, stdout closed: exit %d, stderr %q; want exit 1 naming stdout and -o", code, errOut)
	}
	errOut, code = runWithStdoutClosed(t, cwd, "plot", saved[0], "--format", "png", "-o", "-")
	if code != 1 || !strings.Contains(errOut, "stdout is closed") {
		t.Errorf("plot to a closed stdout: exit %d, stderr %q; want exit 1 naming the write error", code, errOut)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("data files left: %v", left)
	}
	null := exec.Command("bash", append([]string{"-c", `exec "$0" "$@" >/dev/null`, iobenchBin}, sweep...)...)
	if out, err := null.CombinedOutput(); err != nil {
		t.Errorf("stdout to /dev/null: %v\n%s", err, out)
	}
}

// A call cut short by the signal that stops the command (EINTR from a
// statfs hung on a dead server) exits 130, "interrupted", not 1.
func TestFailureAfterASignalIsAnInterruption(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	statfs := fmt.Errorf("statfs /gpfs/x: %w", syscall.EINTR)
	if got := afterSignal(ctx, statfs); exitCode(got, io.Discard) != exitFailure {
		t.Errorf("without a signal: exit %d, want %d", exitCode(got, io.Discard), exitFailure)
	}
	cancel(errors.New("received interrupt"))
	got := afterSignal(ctx, statfs)
	var msg strings.Builder
	if code := exitCode(got, &msg); code != exitInterrupted || !strings.HasPrefix(msg.String(), "iobench: interrupted (received interrupt) while: statfs") {
		t.Errorf("after a signal: exit %d, %q; want %d, interrupted", code, msg.String(), exitInterrupted)
	}
	if afterSignal(ctx, nil) != nil {
		t.Error("a success after a signal became an error")
	}
}
