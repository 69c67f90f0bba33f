package cluster

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
)

// Collective is the slice of MPI the protocol needs. Every method but
// Rank and Size is a collective call: all ranks make it, in the same
// order. Gather returns the parts on rank 0 only; Bcast returns rank 0's
// bytes on every rank.
type Collective interface {
	Rank() int
	Size() int
	Gather(b []byte) ([][]byte, error)
	Bcast(b []byte) ([]byte, error)
	AllreduceInt64(v int64, op mpi.Op) (int64, error)
}

var _ Collective = (*mpi.World)(nil)

// A Cluster is the engine's Coordinator for all three of its roles.
var (
	_ iobench.Coordinator = (*Cluster)(nil)
	_ iobench.Decider     = (*Cluster)(nil)
	_ iobench.Broadcaster = (*Cluster)(nil)
	_ iobench.Shifter     = (*Cluster)(nil)
)

// Cluster is this rank's view of the job.
type Cluster struct {
	c       Collective
	members []Member // each rank's process
	peers   []string // data file prefixes of the other ranks on this host, once Configure ran
	// decided is how many of this rank's samples Decide has sent; rank 0
	// keeps their aggregate.
	decided    int
	aggregated []iobench.Sample
}

// Member is a rank's process: its host name and process id.
type Member struct {
	Host string
	PID  int
}

// New learns every rank's host name and process id; me is this rank's.
// All ranks must call it. A job of one rank is a cluster of one, so its
// report has the same form as a larger job's.
func New(c Collective, me Member) (*Cluster, error) {
	parts, err := allGather(c, fmt.Appendf(nil, "%d %s", me.PID, me.Host))
	if err != nil {
		return nil, err
	}
	cl := &Cluster{c: c, members: make([]Member, len(parts))}
	names := map[string]string{} // one string per host, however many ranks it runs
	for r, p := range parts {
		pid, host, _ := bytes.Cut(p, []byte(" "))
		if cl.members[r].PID, err = strconv.Atoi(string(pid)); err != nil {
			return nil, fmt.Errorf("cluster: rank %d's process id: %w", r, err)
		}
		name, ok := names[string(host)]
		if !ok {
			name = string(host)
			names[name] = name
		}
		cl.members[r].Host = name
	}
	return cl, nil
}

// Rank is this rank, 0 to Size()-1.
func (cl *Cluster) Rank() int { return cl.c.Rank() }

// Size is the number of ranks.
func (cl *Cluster) Size() int { return cl.c.Size() }

// Host is the host name of rank r.
func (cl *Cluster) Host(r int) string { return cl.members[r].Host }

// NodeLeader reports whether this rank is the lowest on its host: the one
// that syncs the file system for all of them.
func (cl *Cluster) NodeLeader() bool {
	return slices.IndexFunc(cl.members, cl.onMyHost) == cl.Rank()
}

// GoneRanks are the ranks on this rank's host whose process no longer
// exists (exists says), in rank order: killed, as a launcher's signal
// to the survivors may mean. Ranks on other hosts cannot be seen.
func (cl *Cluster) GoneRanks(exists func(pid int) bool) []int {
	var out []int
	for r, m := range cl.members {
		if r != cl.Rank() && cl.onMyHost(m) && !exists(m.PID) {
			out = append(out, r)
		}
	}
	return out
}

// Member is rank r's process.
func (cl *Cluster) Member(r int) Member { return cl.members[r] }

// onMyHost: m runs on this rank's host.
func (cl *Cluster) onMyHost(m Member) bool { return m.Host == cl.Host(cl.Rank()) }

// Nodes lists the distinct hosts in rank order.
func (cl *Cluster) Nodes() []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range cl.members {
		if !seen[m.Host] {
			seen[m.Host] = true
			out = append(out, m.Host)
		}
	}
	return out
}

// Broadcast sends rank 0's b to every rank (the shared file's identity).
func (cl *Cluster) Broadcast(b []byte) ([]byte, error) { return cl.c.Bcast(b) }

// Shift sends b to the rank n places back and returns the bytes of the
// rank n places on, (rank+n) mod size: --read-shift's exchange of the read
// files. n may be any integer; a multiple of Size is this rank's own b.
func (cl *Cluster) Shift(b []byte, n int) ([]byte, error) {
	got, err := cl.allGather(b)
	if err != nil {
		return nil, err
	}
	return got[ShiftedRank(cl.Rank(), n, cl.Size())], nil
}

// allGather gives every rank every rank's b, in rank order.
func (cl *Cluster) allGather(b []byte) ([][]byte, error) { return allGather(cl.c, b) }

// allGather gives every rank every rank's b, in rank order: rank 0 sends
// them on framed by their lengths, which every rank reads back without
// decoding or copying, so the cost per rank stays that of the bytes.
func allGather(c Collective, b []byte) ([][]byte, error) {
	parts, err := c.Gather(b)
	if err != nil {
		return nil, err
	}
	var all []byte
	if c.Rank() == 0 {
		all = frame(parts)
	}
	list, err := c.Bcast(all)
	if err != nil {
		return nil, err
	}
	got, err := unframe(list, c.Size())
	if err != nil {
		return nil, fmt.Errorf("cluster: the parts from rank 0: %w", err)
	}
	if len(got) != c.Size() {
		return nil, fmt.Errorf("cluster: rank 0 sent %d parts for %d ranks", len(got), c.Size())
	}
	return got, nil
}

// frame writes each part after its length (a uvarint).
func frame(parts [][]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = binary.AppendUvarint(out, uint64(len(p)))
		out = append(out, p...)
	}
	return out
}

// unframe splits what frame wrote, n parts expected; the parts share b.
func unframe(b []byte, n int) ([][]byte, error) {
	out := make([][]byte, 0, n)
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, errors.New("a part's length runs past the end")
		}
		out = append(out, b[k:k+int(n):k+int(n)])
		b = b[k+int(n):]
	}
	return out, nil
}

// PeerPrefixes are the data file prefixes of the other ranks on this
// host, so that a rank that survives a killed one removes what it left
// (iobench.Peers). Only this host's can be: a process on another host
// cannot be seen to be gone.
func (cl *Cluster) PeerPrefixes() []string { return cl.peers }

// keepPeers keeps the prefixes of the other ranks on this host.
func (cl *Cluster) keepPeers(prefixes [][]byte) {
	cl.peers = nil
	for r, p := range prefixes {
		if r != cl.Rank() && cl.onMyHost(cl.members[r]) {
			cl.peers = append(cl.peers, string(p))
		}
	}
}

// ShiftedRank is the rank n places on from rank, (rank+n) mod size, for
// any n.
func ShiftedRank(rank, n, size int) int {
	return ((rank+n)%size + size) % size
}

// Max is the largest of every rank's v, on every rank.
func (cl *Cluster) Max(v int64) (int64, error) { return cl.c.AllreduceInt64(v, mpi.Max) }
