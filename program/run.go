package program

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// StopGrace is how long a program stopped by cancellation has, after
// SIGINT (SIGTERM from a batch system reaches iobench, which passes on
// SIGINT as a terminal would), before its process group is killed.
const StopGrace = 5 * time.Second

// Result is how one run of a program went.
type Result struct {
	Argv []string // what ran: the program, or strace and the program
	// Status is the exit status as a shell gives it: the program's exit
	// code, or 128+N when signal N ended it.
	Status int
	Signal syscall.Signal // the signal that ended it, 0 if it exited
	Wall   time.Duration  // from the start to the end of the leader
	User   time.Duration  // CPU time of the leader and its waited-for children
	System time.Duration
	MaxRSS int64 // bytes, of the largest process
	// Stopped: the run was cut short by cancellation (iobench was
	// interrupted or ran out of time), not by the program.
	Stopped bool
}

// Interrupted says whether the run ended by an interruption: iobench
// stopped it, or the terminal's Ctrl-C (SIGINT) or a SIGTERM ended it.
func (r Result) Interrupted() bool {
	return r.Stopped || r.Signal == syscall.SIGINT || r.Signal == syscall.SIGTERM
}

// Failed says whether the program did not exit with status 0.
func (r Result) Failed() bool { return r.Status != 0 }

// Describe says how the run ended: "exit status 3", "killed by signal 9
// (killed)".
func (r Result) Describe() string {
	if r.Signal != 0 {
		return fmt.Sprintf("killed by signal %d (%v)", int(r.Signal), r.Signal)
	}
	return fmt.Sprintf("exit status %d", r.Status)
}

// Run runs the program once, untraced, and waits for it. The error is a
// *StartError when it could not start; a program that fails is a Result
// with a non-zero Status and no error.
func Run(ctx context.Context, s Spec) (Result, error) {
	return s.run(ctx, s.Argv, true)
}

// run starts argv (the program, or a tracer and the program) and waits.
// endGroup: kill what the program left running in its process group.
func (s Spec) run(ctx context.Context, argv []string, endGroup bool) (Result, error) {
	cmd := s.command(argv)
	res := Result{Argv: argv}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return res, startError(s.Argv[0], err)
	}
	pgid := cmd.Process.Pid
	if s.OnStart != nil {
		s.OnStart(pgid)
	}
	var stopped atomic.Bool
	stopper := newGroupStopper(pgid, s.grace())
	stop := context.AfterFunc(ctx, func() { stopped.Store(true); stopper.stop() })
	err := cmd.Wait()
	res.Wall = time.Since(begin)
	stop()
	stopper.done()
	if endGroup || stopped.Load() {
		_ = unix.Kill(-pgid, unix.SIGKILL) // what the program left behind
	}
	if s.Terminal != nil {
		takeForeground(s.Terminal)
	}
	res.Stopped = stopped.Load()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return res, fmt.Errorf("waiting for %s: %w", s.Argv[0], err)
	}
	fillStatus(&res, cmd.ProcessState)
	return res, nil
}

// startError is a failed start as env(1) reports it.
func startError(name string, err error) error {
	status := ExitNotExecutable
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		status = ExitNotFound
	}
	return &StartError{Name: name, Status: status, Err: err}
}

// fillStatus takes the exit status and the resources used from ps.
func fillStatus(r *Result, ps *os.ProcessState) {
	ws, _ := ps.Sys().(syscall.WaitStatus)
	r.Status = ws.ExitStatus()
	if ws.Signaled() {
		r.Signal = ws.Signal()
		r.Status = 128 + int(r.Signal)
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		r.User = time.Duration(ru.Utime.Nano())
		r.System = time.Duration(ru.Stime.Nano())
		r.MaxRSS = ru.Maxrss << 10 // Linux gives KiB
	}
}

// groupStopper ends a process group on cancellation: SIGINT, then
// SIGKILL after StopGrace unless the group's leader ended first.
type groupStopper struct {
	pgid  int
	grace time.Duration
	ended chan struct{}
}

func newGroupStopper(pgid int, grace time.Duration) *groupStopper {
	return &groupStopper{pgid: pgid, grace: grace, ended: make(chan struct{})}
}

func (g *groupStopper) stop() {
	_ = unix.Kill(-g.pgid, unix.SIGINT)
	go func() {
		select {
		case <-g.ended:
		case <-time.After(g.grace):
			_ = unix.Kill(-g.pgid, unix.SIGKILL)
		}
	}()
}

func (g *groupStopper) done() { close(g.ended) }

// ForegroundTerminal is the terminal on stdin when this process's group
// holds its foreground (a program run there must get it to read it and
// to receive Ctrl-C); nil otherwise: a pipe, a file, or iobench running
// in the background.
func ForegroundTerminal(stdin *os.File) *os.File {
	fg, err := unix.IoctlGetInt(int(stdin.Fd()), unix.TIOCGPGRP)
	if err != nil || fg != unix.Getpgrp() {
		return nil
	}
	return stdin
}

// takeForeground gives the terminal's foreground back to this process's
// group after a program that held it ended. A background group that
// sets the foreground is sent SIGTTOU, which is ignored meanwhile.
func takeForeground(tty *os.File) {
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	_ = unix.IoctlSetPointerInt(int(tty.Fd()), unix.TIOCSPGRP, unix.Getpgrp())
}
