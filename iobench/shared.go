package iobench

import (
	"fmt"
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
	if r.kept == r.Shared.Name { // --keep held the last run's file
		r.kept = ""
		if err := r.remove(r.Shared.Name); err != nil {
			return err
		}
	}
	f, err := r.createTracked(r.Shared.Name, false)
	if err != nil {
		return fmt.Errorf("creating the shared file: %w", err)
	}
	return f.Close()
}

func (r *Runner) sharedWriteRun(run Run) (Sample, error) {
	s, err := r.timed(run, func() (File, error) {
		return r.FS.OpenWrite(r.Shared.Name, r.Config.Direct, r.Shared.Offset)
	}, r.writeChunks)
	if err != nil {
		return s, r.runError(run, r.Shared.Name, s.Bytes, err)
	}
	return s, nil
}
