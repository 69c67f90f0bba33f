//go:build !mpi

package mpi

import (
	"os"
	"sync/atomic"
	"time"
)

// initialized makes a second Init fail as it does with MPI, so code that
// passes its tests in this build does not break in the MPI one.
var initialized atomic.Bool

// start is when the package was initialised, close enough to process start
// for Wtime, which only ever measures differences.
var start = time.Now()

// World is the job's set of ranks (MPI_COMM_WORLD). In this build, without
// the mpi tag, it is a single rank.
type World struct {
	finalized bool
}

// Enabled reports whether this binary was built with MPI (-tags mpi).
func Enabled() bool { return false }

// Init starts MPI and returns the world communicator. In this build it
// returns a World of one rank. It fails if called twice.
func Init() (*World, error) {
	if !initialized.CompareAndSwap(false, true) {
		return nil, errInitTwice
	}
	return &World{}, nil
}

// Rank returns this process's rank, 0 to Size()-1; here always 0.
func (w *World) Rank() int { return 0 }

// Size returns the number of ranks; here always 1.
func (w *World) Size() int { return 1 }

// Barrier waits until every rank has reached it; here it returns at once.
func (w *World) Barrier() error { return w.check() }

// AllreduceFloat64 combines v across ranks with op and returns the result
// on every rank; with one rank, v itself.
func (w *World) AllreduceFloat64(v float64, op Op) (float64, error) {
	if err := w.checkOp(op); err != nil {
		return 0, err
	}
	return v, nil
}

// AllreduceInt64 combines v across ranks with op and returns the result on
// every rank; with one rank, v itself.
func (w *World) AllreduceInt64(v int64, op Op) (int64, error) {
	if err := w.checkOp(op); err != nil {
		return 0, err
	}
	return v, nil
}

// Gather collects every rank's b at rank 0, which gets Size() slices in
// rank order; other ranks get nil. Here it returns a copy of b.
func (w *World) Gather(b []byte) ([][]byte, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	return [][]byte{append([]byte{}, b...)}, nil
}

// Bcast sends rank 0's b to every rank and returns each rank's copy; other
// ranks' b is ignored. Here it returns a copy of b.
func (w *World) Bcast(b []byte) ([]byte, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	return append([]byte{}, b...), nil
}

// Wtime returns seconds on a monotonic clock; only differences mean
// anything. Here the clock starts near process start.
func (w *World) Wtime() float64 { return time.Since(start).Seconds() }

// Abort ends every rank of the job with exit status code; here os.Exit.
func (w *World) Abort(code int) { os.Exit(code) }

// Finalize shuts MPI down; no World method but Rank, Size, Wtime and Abort
// may be called after it.
func (w *World) Finalize() error {
	if err := w.check(); err != nil {
		return err
	}
	w.finalized = true
	return nil
}

// check fails once the World is finalized, as the MPI build does.
func (w *World) check() error {
	if w.finalized {
		return errFinalized
	}
	return nil
}

// checkOp is check plus the same Op validation as the MPI build.
func (w *World) checkOp(op Op) error {
	if err := w.check(); err != nil {
		return err
	}
	if !op.valid() {
		return errOp(op)
	}
	return nil
}
