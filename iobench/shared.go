package iobench

import (
	"fmt"
	"time"
)

// Shared makes every rank write its own disjoint, contiguous segment of one
// file (IOR without -F). The creator makes the file, untimed, before the
// run's barrier; every rank then opens it inside the timing.
type Shared struct {
	Name    string // agreed by all ranks
	Offset  int64  // this rank's first byte
	Creator bool   // this rank creates and removes the file
}

// PrepareShared creates the shared file for the next run (creator only);
// tracked, so teardown removes it if another rank fails first.
func (r *Runner) PrepareShared() error {
	if r.Shared == nil || !r.Shared.Creator {
		return nil
	}
	f, err := r.createTracked(r.Shared.Name, false)
	if err != nil {
		return fmt.Errorf("creating the shared file %s: %w", r.displayPath(r.Shared.Name), err)
	}
	return f.Close()
}

func (r *Runner) sharedWriteRun(run Run) (Sample, error) {
	s := Sample{Run: run}
	s.Start = time.Now()
	f, err := r.FS.OpenWrite(r.Shared.Name, r.Config.Direct, r.Shared.Offset)
	if err != nil {
		return s, &RunError{Op: "open", Run: run, Path: r.displayPath(r.Shared.Name), Err: err}
	}
	err = r.writeChunks(f, &s)
	if err == nil && r.Config.Fsync {
		err = wrapOp("fsync", f.Fsync())
	}
	if cerr := f.Close(); err == nil {
		err = wrapOp("close", cerr)
	}
	s.End = time.Now()
	s.Seconds = s.End.Sub(s.Start).Seconds()
	r.moved.Store(0)
	if err != nil {
		return s, r.runError(run, r.Shared.Name, s.Bytes, err)
	}
	return s, nil
}
