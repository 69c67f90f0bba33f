//go:build linux

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/internal/testkit/faultfs"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// fullPipe is a pipe whose buffer is already full: a process writing to
// its write end blocks in write(2).
func fullPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := unix.Write(p[1], chunk); err != nil {
			break // EAGAIN: full
		}
	}
	if err := unix.SetNonblock(p[1], false); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(p[0]), "pipe"), os.NewFile(uintptr(p[1]), "pipe")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// inPipeWrite reports whether a thread of pid waits in write(2) to a
// full pipe.
func inPipeWrite(pid int) bool {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/wchan")
	for _, p := range tasks {
		if b, _ := os.ReadFile(p); strings.HasSuffix(string(b), "pipe_write") { // anon_pipe_write in newer kernels
			return true
		}
	}
	return false
}

// A sweep that ended leaving a file it could not remove, stuck writing
// its report (a stdout nobody reads): the second signal still names the
// file, though the sweep is no longer running.
func TestSecondSignalAfterTheSweepNamesItsLeftovers(t *testing.T) {
	if b, err := os.ReadFile("/proc/self/wchan"); err != nil || len(b) == 0 {
		t.Skip("no /proc/PID/wchan to tell a write to a full pipe:", err)
	}
	f := faultfs.Mount(t)
	f.Set(faultfs.Unlink, faultfs.Fault{Err: syscall.EIO})
	_, stdout := fullPipe(t)
	cmd := exec.Command(iobenchBin, faultSweep(f, "--format", "json")...)
	stderr := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	testwait.Until(t, "the report stuck on stdout", func() bool { return inPipeWrite(cmd.Process.Pid) })
	// Two of one signal sent at once may merge into one; two kinds never do.
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	testwait.Exit(t, "exit after the second signal", cmd.Process, exited, stderr.String)
	f.Set(faultfs.Unlink, faultfs.Fault{})
	left := dirEntries(t, f.Dir)
	out := stderr.String()
	if code := cmd.ProcessState.ExitCode(); code != 130 || len(left) != 1 || !strings.Contains(out, "\n  "+filepath.Join(f.Dir, left[0])+"\n") {
		t.Errorf("exit %d, left %v; want 130 and the file named:\n%s", code, left, out)
	}
}
