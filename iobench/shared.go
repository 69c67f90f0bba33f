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
	id := FileID{Dev: binary.LittleEndian.Uint64(got), Ino: binary.LittleEndian.Uint64(got[8:])}
	if r.Shared.Creator {
		return nil
	}
	if id, err = r.peerID(r.Shared.Name, id); err != nil {
		return fmt.Errorf("shared file: %w", err)
	}
	r.Shared.ID = id
	r.holdShared(r.Shared.Name, id)
	return nil
}

// holdShared has a rank that did not create the shared file hold it for this
// run, so that if the creator dies (SIGKILL, a crashed node) the ranks
// that survive it remove the file on their way out.
func (r *Runner) holdShared(name string, id FileID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed && id != (FileID{}) {
		r.files[name] = id
	}
}

// releaseShared ends a run on a rank that did not create the shared file:
// after a good run the creator removes it; after a failure every rank
// tries, as the creator may be the rank that failed.
func (r *Runner) releaseShared(name string, failed bool) error {
	if failed && !r.Config.Keep {
		return r.remove(name)
	}
	r.mu.Lock()
	delete(r.files, name)
	r.mu.Unlock()
	return nil
}

func (r *Runner) sharedWriteRun(run Run) (Sample, error) {
	s, err := r.timed(run, r.Config.TimeLimit, func() (File, error) {
		return r.FS.OpenWrite(r.Shared.Name, r.Shared.ID, r.Config.Direct, r.Shared.Offset)
	}, (*pass).write)
	if err != nil {
		return s, r.runError(run, r.Shared.Name, s.Bytes, err)
	}
	return s, nil
}

// removeOrphanedShared removes the shared file on a rank that did not
// create it and holds no identity for it (the creator was killed between
// creating the next run's file and sending its identity), if the name says
// its creator was a process on this host that no longer exists: the file
// is then this job's, and nobody else will remove it.
func (r *Runner) removeOrphanedShared() {
	if r.Shared == nil || r.Shared.Creator {
		return
	}
	osfs, isOS := localOS(r.FS)
	l, ok := parseLeftover(r.Shared.Name, nameHost())
	if !isOS || !ok || l.State != RunGone {
		return
	}
	var st unix.Stat_t
	if unix.Lstat(osfs.Path(r.Shared.Name), &st) != nil {
		return
	}
	_ = r.removeUntracked(r.Shared.Name, statID(&st))
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
// removes them or `iobench clean` there does.
func (r *Runner) removeOrphans() {
	r.removeOrphanedShared()
	peers, ok := r.Coord.(Peers)
	osfs, isOS := localOS(r.FS)
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
