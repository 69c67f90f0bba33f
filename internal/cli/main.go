package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// abandonWait is how long a second signal waits for the data files to be
// removed before it exits anyway, naming those left.
const abandonWait = time.Second

// Main is the whole program: it runs the command line of this process
// and returns the exit code: 0, 1 for a failure, 2 for bad input, 130
// when interrupted.
func Main() int {
	// The engine's raw write(2) holds its P; keep one free for signals.
	runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	closed := startedClosed()
	w, err := mpi.Init()
	e := processEnv(w)
	e.closeStdio(closed)
	if err != nil {
		fmt.Fprintf(e.stderr, "iobench: starting MPI: %v\n", err)
		return exitFailure
	}
	// A closed stdout or stderr (| head) must fail a write, not kill the
	// run by SIGPIPE before it removes its files and saves its report.
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancelCause(context.Background())
	go handleSignals(cancel, e)
	err = e.joinToStop(run(ctx, e, os.Args))
	code := signalCode(ctx, exitCode(afterSignal(ctx, err), e.stderr))
	if err := w.Finalize(); err != nil && code == exitOK {
		fmt.Fprintf(e.stderr, "iobench: %v\n", err)
		code = exitFailure
	}
	return code
}

// signalCause is the cancellation of a run by a signal.
type signalCause struct{ sig os.Signal }

func (s signalCause) Error() string { return fmt.Sprintf("received %v", s.sig) }

// exitTerminated is the exit of a run SIGTERM stopped, as a shell gives
// it (128+15): a batch system's kill, told apart from Ctrl-C's 130.
const exitTerminated = 143

// signalCode makes an interruption by SIGTERM exit 143.
func signalCode(ctx context.Context, code int) int {
	var sc signalCause
	if code == exitInterrupted && errors.As(context.Cause(ctx), &sc) && sc.sig == syscall.SIGTERM {
		return exitTerminated
	}
	return code
}

// handleSignals stops the command on the first signal, saying what it
// waits for, and exits at once on the second.
func handleSignals(cancel context.CancelCauseFunc, e *env) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	// A closed terminal or ssh session sends SIGHUP: clean up as for
	// Ctrl-C, unless started under nohup, which must keep working.
	if !signal.Ignored(syscall.SIGHUP) {
		signal.Notify(sigs, syscall.SIGHUP)
	}
	sig := <-sigs
	cancel(signalCause{sig})
	r := e.active.Load()
	if r != nil {
		e.say(fmt.Sprintf("iobench: %v: stopping; waiting for %s; Ctrl-C again to quit now\n", sig, r.Waiting()), false)
		if e.ranks() > 1 {
			go e.stopRank(r)
		}
	}
	<-sigs
	e.say("", true)
	code := abandon(e.console, e.active.Last())
	e.cleanups.run()
	os.Exit(code)
}

// abandon is the second signal: remove what can be removed within
// abandonWait, name the rest, and give the exit code.
func abandon(stderr io.Writer, r stoppable) int {
	if r == nil {
		fmt.Fprintln(stderr, "iobench: second signal: exiting now")
		return exitInterrupted
	}
	left := r.Abandon(abandonWait)
	if len(left) == 0 {
		fmt.Fprintln(stderr, "iobench: second signal: exiting now; the data files are removed")
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "iobench: second signal: exiting now; %d data file(s) could not be removed (a call is hung in the kernel or failed); remove by hand:\n", len(left))
	for _, p := range left {
		fmt.Fprintf(stderr, "  %s\n", p)
	}
	return exitInterrupted
}

// afterSignal tells a failure that a signal caused as an interruption:
// a call the signal cut short (a statfs hung on a dead server returns
// EINTR) is not a failure of its own, and the exit is 130.
func afterSignal(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil || errors.Is(err, iobench.ErrInterrupted) {
		return err
	}
	return fmt.Errorf("%w (%v) while: %w", iobench.ErrInterrupted, context.Cause(ctx), err)
}

// exitCode prints err once and maps it to 0, 1, 2 or 130.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var pe *programExit
	if errors.As(err, &pe) && pe.err == nil {
		return pe.status // the program's own status: it said why itself
	}
	fmt.Fprintf(stderr, "iobench: %v\n", err)
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, iobench.ErrInterrupted):
		return exitInterrupted
	case errors.As(err, &pe):
		return pe.status
	}
	return exitFailure
}
