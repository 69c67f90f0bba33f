//go:build linux

package cli

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/faultfs"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// lockedBuffer collects a child's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// faultSweep is a short sweep on a fault file system.
func faultSweep(f *faultfs.FS, extra ...string) []string {
	return append([]string{"sweep", "--dir", f.Dir, "--size", "4MiB", "--sizes", "64KiB,1MiB", "--repeat", "2",
		"--sync", "none", "--no-progress", "--profile", "generic", "--force"}, extra...)
}

// startHungSweep starts a sweep on f and waits until a call of op hangs.
func startHungSweep(t *testing.T, f *faultfs.FS, op faultfs.Op, extra ...string) (*exec.Cmd, *lockedBuffer, chan struct{}) {
	t.Helper()
	return startHung(t, f, op, faultSweep(f, extra...)...)
}

// startHung starts iobench with args and waits until a call of op on f
// hangs.
func startHung(t *testing.T, f *faultfs.FS, op faultfs.Op, args ...string) (*exec.Cmd, *lockedBuffer, chan struct{}) {
	t.Helper()
	cmd := exec.Command(iobenchBin, args...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	testwait.Until(t, "hung call", func() bool {
		select {
		case <-exited: // it will never hang now: say why it ended
			t.Fatalf("iobench %v exited (%v) before a call of %v hung; stderr:\n%s", args, cmd.ProcessState, op, stderr.String())
		default:
		}
		return f.Hung(op) > 0
	})
	return cmd, stderr, exited
}

// A write(2) or fsync(2) hung in the kernel: the first signal says so,
// the second exits 130 at once and names the file it could not remove.
func TestHungCallSecondSignalExitsAtOnce(t *testing.T) {
	for _, c := range []struct {
		op    faultfs.Op
		extra []string
		call  string
	}{{faultfs.Write, nil, "a write(2)"}, {faultfs.Fsync, []string{"--fsync"}, "an fsync(2)"}} {
		t.Run(c.call, func(t *testing.T) {
			f := faultfs.Mount(t)
			f.Set(c.op, faultfs.Fault{Hang: true})
			cmd, stderr, exited := startHungSweep(t, f, c.op, c.extra...)
			_ = cmd.Process.Signal(syscall.SIGINT)
			testwait.Until(t, "message of the first signal", func() bool {
				return strings.Contains(stderr.String(), "waiting for "+c.call+" in the kernel; Ctrl-C again to quit now")
			})
			_ = cmd.Process.Signal(syscall.SIGINT)
			// The call is never released: an exit is one that did not wait for it.
			testwait.Exit(t, "exit after the second signal", cmd.Process, exited, stderr.String)
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Errorf("exit %d, want 130", code)
			}
			if out := stderr.String(); !strings.Contains(out, "could not be removed") || !strings.Contains(out, f.Dir+"/.iobench-") || strings.Contains(out, "goroutine ") {
				t.Errorf("want the unremoved file named, no trace:\n%s", out)
			}
		})
	}
}

// Failing and short calls: each is named with its errno, every data file
// is removed (or named when it cannot be), and nothing panics.
func TestFaultsAreNamedAndLeaveNoFiles(t *testing.T) {
	cases := []struct {
		name  string
		op    faultfs.Op
		fault faultfs.Fault
		extra []string
		code  int
		want  string
		left  int
	}{
		{"write EIO", faultfs.Write, faultfs.Fault{Err: syscall.EIO}, nil, 1, "(EIO)", 0},
		{"write ENOSPC", faultfs.Write, faultfs.Fault{Err: syscall.ENOSPC}, nil, 1, "(ENOSPC)", 0},
		{"fsync EIO", faultfs.Fsync, faultfs.Fault{Err: syscall.EIO}, []string{"--fsync"}, 1, "(EIO)", 0},
		{"close EIO", faultfs.Close, faultfs.Fault{Err: syscall.EIO}, nil, 1, "(EIO)", 0},
		{"unlink EIO", faultfs.Unlink, faultfs.Fault{Err: syscall.EIO}, nil, 1, "LEFT BEHIND", 1},
		{"short writes", faultfs.Write, faultfs.Fault{Short: true}, []string{"--format", "csv"}, 0, ",1048576,", 0},
		{"slow writes", faultfs.Write, faultfs.Fault{Delay: 2 * time.Millisecond}, nil, 0, "knee", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := faultfs.Mount(t)
			f.Set(c.op, c.fault)
			r := runBinary(t, faultSweep(f, c.extra...)...)
			all := r.stdout + r.stderr
			if r.code != c.code || !strings.Contains(all, c.want) || strings.Contains(all, "goroutine ") {
				t.Errorf("exit %d (want %d), want %q in:\n%s", r.code, c.code, c.want, all)
			}
			if c.fault.Short && !shortWritesCounted(r.stdout) {
				t.Errorf("short writes not counted:\n%s", r.stdout)
			}
			f.Set(c.op, faultfs.Fault{})
			if left := dirEntries(t, f.Dir); len(left) != c.left {
				t.Errorf("files left: %v, want %d", left, c.left)
			}
		})
	}
}

// shortWritesCounted: every CSV row of a run counts short writes.
func shortWritesCounted(csv string) bool {
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	col := slices.Index(strings.Split(lines[0], ","), "short_writes")
	for _, l := range lines[1:] {
		if f := strings.Split(l, ","); col < 0 || col >= len(f) || f[col] == "0" {
			return false
		}
	}
	return col >= 0 && len(lines) > 1
}

// A write whose server ignores even interrupts holds its thread in the
// kernel: signals must still be heard (the kernel must not hand them to
// that thread), and the second one must print what it left and exit as
// soon as the kernel lets the process go.
func TestSignalsAreHeardWhileAWriteIgnoresInterrupts(t *testing.T) {
	f := faultfs.Mount(t)
	f.Set(faultfs.Write, faultfs.Fault{Hang: true, Deaf: true})
	cmd, stderr, exited := startHungSweep(t, f, faultfs.Write)
	for _, want := range []string{"waiting for a write(2) in the kernel", "second signal: exiting now; 1 data file(s) could not be removed"} {
		_ = cmd.Process.Signal(syscall.SIGINT)
		testwait.Until(t, "message "+want, func() bool { return strings.Contains(stderr.String(), want) })
	}
	f.Release()
	testwait.Exit(t, "exit once the write returned", cmd.Process, exited, stderr.String)
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
}
