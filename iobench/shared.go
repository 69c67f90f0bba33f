package iobench

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Shared makes every rank write its own disjoint, contiguous segment of one
// file (IOR without -F). The creator makes the file, untimed, before the
// run's barrier; every rank then opens it inside the timing, and checks
// that it opened the very file the creator made.
type Shared struct {
	Name    string // agreed by all ranks
	Offset  int64  // this rank's first byte
	Creator bool   // this rank creates and removes the file
	// ID is the file the creator made for the current run: its own on the
	// creator, broadcast to every other rank before the run.
	ID FileID
}

// Broadcaster is a Coordinator that can send the creator's bytes (MPI
// rank 0's) to every process. A shared file needs it when this process
// did not create the file.
type Broadcaster interface {
	Broadcast(b []byte) ([]byte, error)
}

// errNoBroadcast: a rank that did not create the shared file cannot learn
// its identity, and would open it on trust.
var errNoBroadcast = errors.New("shared file: the coordinator cannot broadcast the creator's file identity")

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
	r.Shared.ID = r.id(r.Shared.Name)
	return f.Close()
}

// shareID gives every rank the identity of the shared file the creator
// made for this run. Every rank calls it at the same step.
func (r *Runner) shareID() error {
	b, ok := r.Coord.(Broadcaster)
	if !ok {
		if r.Shared.Creator {
			return nil
		}
		return errNoBroadcast
	}
	msg := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, r.Shared.ID.Dev), r.Shared.ID.Ino)
	got, err := b.Broadcast(msg)
	if err != nil {
		return fmt.Errorf("shared file: broadcasting its identity: %w", err)
	}
	if len(got) != 16 {
		return fmt.Errorf("shared file: a %d-byte identity from the creator, want 16", len(got))
	}
	r.Shared.ID = FileID{Dev: binary.LittleEndian.Uint64(got), Ino: binary.LittleEndian.Uint64(got[8:])}
	return nil
}

func (r *Runner) sharedWriteRun(run Run) (Sample, error) {
	s, err := r.timed(run, func() (File, error) {
		return r.FS.OpenWrite(r.Shared.Name, r.Shared.ID, r.Config.Direct, r.Shared.Offset)
	}, r.writeChunks)
	if err != nil {
		return s, r.runError(run, r.Shared.Name, s.Bytes, err)
	}
	return s, nil
}
