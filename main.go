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

// onSecondSignal is what a second Ctrl-C runs before exiting at once:
// removing the data files of the sweep in progress.
var onSecondSignal atomic.Pointer[func()]

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
	warnUnaggregated(os.Stderr, os.Getenv)
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

// warnUnaggregated warns, once per rank, when mpirun or srun started
// several copies of a build without MPI: each measures alone.
func warnUnaggregated(stderr io.Writer, getenv func(string) string) {
	n := mpi.LauncherSize(getenv)
	if mpi.Enabled() || n < 2 {
		return
	}
	w := fmt.Sprintf("started as task %d of %d by a launcher, but this iobench was built without MPI (go build -tags mpi): the tasks run independently and their results are not aggregated",
		mpi.LauncherRank(getenv), n)
	launcherWarnings = append(launcherWarnings, w)
	fmt.Fprintf(stderr, "iobench: warning: %s\n", w)
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
	<-sigs
	if f := onSecondSignal.Load(); f != nil {
		(*f)()
	}
	fmt.Fprintln(os.Stderr, "iobench: second signal: exiting now, after removing the sweep's data files")
	os.Exit(exitInterrupted)
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
