// Command iobench measures how file write throughput depends on the size of
// each write(2), finds the knee where it levels off, and says which buffer
// size a program should use on that file system.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync/atomic"
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

// activeRunner is the sweep in progress, for the signal handler: the
// first signal says what it waits for, the second abandons its files.
var activeRunner atomic.Pointer[iobench.Runner]

// abandonWait is how long a second signal waits for the data files to be
// removed before it exits anyway, naming those left.
const abandonWait = time.Second

func main() {
	// The engine's raw write(2) holds its P; keep one free for signals.
	runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	w, err := mpi.Init()
	if err != nil {
		fmt.Fprintf(os.Stderr, "iobench: starting MPI: %v\n", err)
		os.Exit(exitFailure)
	}
	world = w
	// Only rank 0 prints; the others' failures reach it through Agree.
	stdout, stderr := io.Writer(os.Stdout), io.Writer(os.Stderr)
	if w.Rank() != 0 {
		stdout, stderr = io.Discard, io.Discard
	}
	warnUnaggregated(os.Getenv)
	// A closed stdout or stderr (| head) must fail a write, not kill the
	// run by SIGPIPE before it removes its files and saves its report.
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancelCause(context.Background())
	go handleSignals(cancel)
	code := exitCode(run(ctx, os.Args, stdout, stderr), stderr)
	if err := w.Finalize(); err != nil && code == exitOK {
		fmt.Fprintf(stderr, "iobench: %v\n", err)
		code = exitFailure
	}
	os.Exit(code)
}

// launcherWarnings go into every report of a build without MPI that a
// launcher started as one of several tasks.
var launcherWarnings []string

// warnUnaggregated notes, for the sweep to print once per rank and put in
// its report, that mpirun or srun started several copies of a build
// without MPI: each measures alone.
func warnUnaggregated(getenv func(string) string) {
	n := mpi.LauncherSize(getenv)
	if mpi.Enabled() || n < 2 {
		return
	}
	w := fmt.Sprintf("started as task %d of %d by a launcher, but this iobench was built without MPI (go build -tags mpi): the tasks run independently and their results are not aggregated",
		mpi.LauncherRank(getenv), n)
	launcherWarnings = append(launcherWarnings, w)
}

func handleSignals(cancel context.CancelCauseFunc) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	// A closed terminal or ssh session sends SIGHUP: clean up as for
	// Ctrl-C, unless started under nohup, which must keep working.
	if !signal.Ignored(syscall.SIGHUP) {
		signal.Notify(sigs, syscall.SIGHUP)
	}
	sig := <-sigs
	cancel(fmt.Errorf("received %v", sig))
	r := activeRunner.Load()
	if r != nil {
		fmt.Fprintf(os.Stderr, "iobench: %v: stopping; waiting for %s; Ctrl-C again to quit now\n", sig, r.Phase().Waiting())
		if world.Size() > 1 {
			// A launcher signals every rank when the job aborts (a rank was
			// killed) and SIGKILLs them soon after, possibly while they wait
			// in a collective for the dead rank: remove the files now.
			go r.RemoveFiles()
		}
	}
	<-sigs
	os.Exit(abandon(os.Stderr, activeRunner.Load()))
}

// abandon is the second signal: remove what can be removed within
// abandonWait, name the rest, and give the exit code.
func abandon(stderr io.Writer, r *iobench.Runner) int {
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

// exitCode prints err once and maps it to 0, 1, 2 or 130.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "iobench: %v\n", err)
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, iobench.ErrInterrupted):
		return exitInterrupted
	}
	return exitFailure
}

// usageError is bad input: exit code 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &usageError{err}
}
