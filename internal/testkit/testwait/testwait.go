// Package testwait is the tests' last-resort watchdog. A test waits for
// what it waits for, however slow a busy machine makes it; only a wait
// that outlasts Hang fails, and it fails as a hang, with the stacks of
// every goroutine (and of a child iobench, which prints its own on
// SIGQUIT), never as a failure of the feature under test.
//
// It is imported by tests only.
package testwait

import (
	"os"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Hang is how long a wait lasts before it is called a hang: far beyond
// anything a loaded machine needs, well inside go test's own timeout.
const Hang = 2 * time.Minute

// poll is how often Until looks again.
const poll = 10 * time.Millisecond

// Until waits until cond holds.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(Hang); !cond(); time.Sleep(poll) {
		if time.Now().After(end) {
			hung(t, what, "")
		}
	}
}

// Recv waits for a value from ch and returns it.
func Recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(Hang):
		hung(t, what, "")
	}
	panic("unreachable")
}

// Exit waits until exited is closed (the child p has been waited for).
// On a hang it sends the child SIGQUIT, so a Go child prints its
// goroutines on its stderr, then kills it; output gives what the child
// wrote for the failure message.
func Exit(t testing.TB, what string, p *os.Process, exited <-chan struct{}, output func() string) {
	t.Helper()
	select {
	case <-exited:
		return
	case <-time.After(Hang):
	}
	_ = p.Signal(syscall.SIGQUIT)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = p.Kill()
		<-exited
	}
	hung(t, what, output())
}

// hung fails t as a hang, with this process's goroutines and the child's
// output, if any.
func hung(t testing.TB, what, child string) {
	t.Helper()
	var stacks strings.Builder
	_ = pprof.Lookup("goroutine").WriteTo(&stacks, 2)
	if child != "" {
		child = "\nthe child's output:\n" + child
	}
	t.Fatalf("hang: no %s after %v; this is a hang, not a slow machine\ngoroutines of the test:\n%s%s", what, Hang, stacks.String(), child)
}
