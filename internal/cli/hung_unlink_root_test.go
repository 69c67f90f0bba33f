//go:build linux

package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/iobench/iobench/internal/testkit/faultfs"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// signalTwice sends the first Ctrl-C, waits for it to say it waits for an
// unlink(2), sends the second and waits for the exit: 130, with no trace.
func signalTwice(t *testing.T, cmd *exec.Cmd, stderr *lockedBuffer, exited chan struct{}) string {
	t.Helper()
	_ = cmd.Process.Signal(syscall.SIGINT)
	testwait.Until(t, "message of the first signal", func() bool {
		return strings.Contains(stderr.String(), "waiting for an unlink(2) in the kernel; Ctrl-C again to quit now")
	})
	_ = cmd.Process.Signal(syscall.SIGINT)
	testwait.Exit(t, "exit after the second signal", cmd.Process, exited, stderr.String)
	out := stderr.String()
	if code := cmd.ProcessState.ExitCode(); code != 130 || strings.Contains(out, "goroutine ") {
		t.Errorf("exit %d, want 130 and no trace:\n%s", code, out)
	}
	return out
}

// A sweep whose unlink(2) hangs, then two Ctrl-C: the second names the
// data file whose removal hangs.
func TestHungUnlinkSecondSignalNamesTheFile(t *testing.T) {
	f := faultfs.Mount(t)
	f.Set(faultfs.Unlink, faultfs.Fault{Hang: true})
	cmd, stderr, exited := startHungSweep(t, f, faultfs.Unlink)
	out := signalTwice(t, cmd, stderr, exited)
	held := dirEntries(t, f.Dir) // not before: the hung unlink locks the directory
	if len(held) != 1 || !strings.Contains(out, "1 data file(s) could not be removed") || !strings.Contains(out, "\n  "+filepath.Join(f.Dir, held[0])+"\n") {
		t.Errorf("want %v named as not removed:\n%s", held, out)
	}
}

// iobench clean whose unlink(2) hangs, then two Ctrl-C: the second names
// the file in the kernel and the one clean did not reach.
func TestCleanHungUnlinkSecondSignalNamesTheFiles(t *testing.T) {
	f := faultfs.Mount(t)
	files := []string{killedRunFile(t, f.Dir), killedRunFile(t, f.Dir)}
	f.Set(faultfs.Unlink, faultfs.Fault{Hang: true})
	cmd, stderr, exited := startHung(t, f, faultfs.Unlink, "clean", "--dir", f.Dir)
	out := signalTwice(t, cmd, stderr, exited)
	for _, name := range files {
		if !strings.Contains(out, "2 data file(s) could not be removed") || !strings.Contains(out, "\n  "+filepath.Join(f.Dir, name)+"\n") {
			t.Errorf("want %s named as not removed:\n%s", name, out)
		}
	}
}

// One Ctrl-C while clean's unlink(2) hangs: once the call returns, clean
// stops before the next file, names it, and exits 130.
func TestCleanStopsAtASignalNamingWhatItKept(t *testing.T) {
	f := faultfs.Mount(t)
	killedRunFile(t, f.Dir)
	killedRunFile(t, f.Dir)
	f.Set(faultfs.Unlink, faultfs.Fault{Hang: true})
	cmd, stderr, exited := startHung(t, f, faultfs.Unlink, "clean", "--dir", f.Dir)
	_ = cmd.Process.Signal(syscall.SIGINT)
	testwait.Until(t, "message of the signal", func() bool {
		return strings.Contains(stderr.String(), "waiting for an unlink(2) in the kernel")
	})
	f.Release()
	testwait.Exit(t, "exit once the unlink returned", cmd.Process, exited, stderr.String)
	left := dirEntries(t, f.Dir)
	out := stderr.String()
	if code := cmd.ProcessState.ExitCode(); code != 130 || len(left) != 1 || !strings.Contains(out, "1 data file(s) of gone runs not removed; run iobench clean again:\n  "+filepath.Join(f.Dir, left[0])) {
		t.Errorf("exit %d, left %v; want 130 and the file not reached named:\n%s", code, left, out)
	}
}
