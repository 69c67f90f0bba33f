package iobench

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
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

// prepare creates the shared file for the next run (creator only; s may
// be nil), held in t so teardown removes it if another rank fails first.
func (s *Shared) prepare(t *fileTable) error {
	if s == nil || !s.Creator {
		return nil
	}
	if err := t.dropKept(s.Name); err != nil { // --keep held the last run's
		return err
	}
	f, err := t.createTracked(s.Name, false)
	if err != nil {
		return fmt.Errorf("creating the shared file: %w", err)
	}
	s.ID = t.id(s.Name)
	return f.Close()
}

// shareID gives every rank the identity of the shared file the creator
// made for this run. Every rank calls it at the same step.
func (s *Shared) shareID(coord Coordinator, t *fileTable) error {
	b, ok := coord.(Broadcaster)
	if !ok {
		if s.Creator {
			return nil
		}
		return errNoBroadcast
	}
	msg := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, s.ID.Dev), s.ID.Ino)
	got, err := b.Broadcast(msg)
	if err != nil {
		return fmt.Errorf("shared file: broadcasting its identity: %w", err)
	}
	if len(got) != 16 {
		return fmt.Errorf("shared file: a %d-byte identity from the creator, want 16", len(got))
	}
	id := FileID{Dev: binary.LittleEndian.Uint64(got), Ino: binary.LittleEndian.Uint64(got[8:])}
	if s.Creator {
		return nil
	}
	if id, err = t.peerID(s.Name, id); err != nil {
		return fmt.Errorf("shared file: %w", err)
	}
	s.ID = id
	// Held for this run, so that if the creator dies (SIGKILL, a crashed
	// node) the ranks that survive it remove the file on their way out.
	t.hold(s.Name, id)
	return nil
}

// release ends a run on a rank that did not create the shared file: after
// a good run the creator removes it; after a failure every rank tries
// (remove), as the creator may be the rank that failed.
func (s *Shared) release(t *fileTable, remove bool) error {
	if remove {
		return t.remove(s.Name)
	}
	t.forget(s.Name)
	return nil
}

func (w *writer) sharedWriteRun(run Run) (Sample, error) {
	s, err := w.timed(run, w.cfg.TimeLimit, func() (File, error) {
		return w.fs.OpenWrite(w.shared.Name, w.shared.ID, w.cfg.Direct, w.shared.Offset)
	}, (*pass).write)
	if err != nil {
		return s, runError(run, w.files.path(w.shared.Name), s.Bytes, err)
	}
	return s, nil
}

// removeOrphanedShared removes the shared file on a rank that did not
// create it and holds no identity for it (the creator was killed between
// creating the next run's file and sending its identity), if the name says
// its creator was a process on this host that no longer exists: the file
// is then this job's, and nobody else will remove it.
func removeOrphanedShared(fs FS, shared *Shared, remove func(name string, id FileID) error) {
	if shared == nil || shared.Creator {
		return
	}
	osfs, isOS := localOS(fs)
	l, ok := parseLeftover(shared.Name, nameHost())
	if !isOS || !ok || l.State != RunGone {
		return
	}
	var st unix.Stat_t
	if unix.Lstat(osfs.Path(shared.Name), &st) != nil {
		return
	}
	_ = remove(shared.Name, statID(&st))
}

// Peers is a Coordinator that knows the data file prefix of every other
// process of the job (MPI ranks), so that a process that survives a
// killed peer removes the files the peer left.
type Peers interface {
	PeerPrefixes() []string
}

// removeOrphans removes the data files a killed peer left: the shared
// file (removeOrphanedShared) and every file named with a peer's prefix
// whose process no longer exists on this host. A peer on another host
// cannot be seen from here; its files stay, and the peer's own host
// removes them or `iobench clean` there does. remove removes the shared
// file.
func removeOrphans(fs FS, shared *Shared, coord Coordinator, remove func(name string, id FileID) error) {
	removeOrphanedShared(fs, shared, remove)
	peers, ok := coord.(Peers)
	osfs, isOS := localOS(fs)
	if !ok || !isOS {
		return
	}
	found, err := FindLeftovers(osfs.Dir)
	if err != nil {
		return
	}
	for _, l := range found {
		if l.State == RunGone && hasPrefix(l.Name, peers.PeerPrefixes()) {
			_ = RemoveLeftover(osfs.Dir, l)
		}
	}
}

func hasPrefix(name string, prefixes []string) bool {
	for _, p := range prefixes {
		if p != "" && strings.HasPrefix(name, p+"-") {
			return true
		}
	}
	return false
}

// localOS is the OSFS that names and removes fs's data files.
func localOS(fs FS) (OSFS, bool) {
	switch f := fs.(type) {
	case OSFS:
		return f, true
	case interface{ LocalOS() OSFS }:
		return f.LocalOS(), true
	}
	return OSFS{}, false
}
