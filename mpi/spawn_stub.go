//go:build !mpi

package mpi

import "time"

// Spawn starts command as an MPI job of its own; without MPI it cannot,
// and returns ErrNeedsMPIBuild.
func (w *World) Spawn(command string, args []string, n int, poll time.Duration) ([]byte, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	return nil, ErrNeedsMPIBuild
}

// IdleBarrier is Barrier without spinning; with one rank it returns at
// once.
func (w *World) IdleBarrier(poll time.Duration) error { return w.check() }
