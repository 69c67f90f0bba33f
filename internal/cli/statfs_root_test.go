package cli

import (
	"strings"
	"syscall"
	"testing"

	"github.com/iobench/iobench/internal/testkit/faultfs"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// A file system that hangs in statfs at start: after about a second the
// command says what it waits for; SIGINT ends it with 130 and the usual
// interrupted message, SIGTERM with 143, for the sweep and for info.
func TestHungStatfsIsNamedAndInterrupted(t *testing.T) {
	for _, c := range []struct {
		name string
		args func(dir string) []string
		sig  syscall.Signal
		code int
	}{
		{"sweep SIGINT", func(d string) []string { return []string{"sweep", "--dir", d, "--size", "1MiB", "--no-progress"} }, syscall.SIGINT, 130},
		{"info SIGINT", func(d string) []string { return []string{"info", "--dir", d} }, syscall.SIGINT, 130},
		{"info SIGTERM", func(d string) []string { return []string{"info", "--dir", d} }, syscall.SIGTERM, 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := faultfs.Mount(t)
			f.Set(faultfs.Statfs, faultfs.Fault{Hang: true})
			cmd, stderr, exited := startHung(t, f, faultfs.Statfs, c.args(f.Dir)...)
			testwait.Until(t, "the waiting line", func() bool {
				return strings.Contains(stderr.String(), "waiting for the file system of "+f.Dir)
			})
			_ = cmd.Process.Signal(c.sig)
			testwait.Exit(t, "exit after the signal", cmd.Process, exited, stderr.String)
			if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(stderr.String(), "interrupted") || strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("exit %d, want %d with the interrupted message:\n%s", code, c.code, stderr.String())
			}
			f.Release()
		})
	}
}
