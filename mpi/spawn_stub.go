//go:build !mpi

package mpi

import "time"

// Child is an MPI program started as a job of its own; without MPI there
// is none.
type Child struct{}

// SpawnChild starts command as an MPI job of its own; without MPI it
// cannot, and returns ErrNeedsMPIBuild.
func (w *World) SpawnChild(command string, args []string, n int) (*Child, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	return nil, ErrNeedsMPIBuild
}

// Request returns ErrNeedsMPIBuild: there is no child without MPI.
func (c *Child) Request(msg []byte, poll time.Duration) ([]byte, error) { return nil, ErrNeedsMPIBuild }

// Close returns ErrNeedsMPIBuild: there is no child without MPI.
func (c *Child) Close() error { return ErrNeedsMPIBuild }

// IdleBarrier is Barrier without spinning; with one rank it returns at
// once.
func (w *World) IdleBarrier(poll time.Duration) error { return w.check() }
