package cluster

import (
	"encoding/json"
	"fmt"
	"slices"

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
	c        Collective
	hosts    []string // host name of each rank
	prefixes []string // data file prefix of each rank, once Configure ran
}

// New learns every rank's host name; host is this rank's. All ranks must
// call it. A job of one rank is a cluster of one, so its report has the
// same form as a larger job's.
func New(c Collective, host string) (*Cluster, error) {
	parts, err := c.Gather([]byte(host))
	if err != nil {
		return nil, err
	}
	var list []byte
	if c.Rank() == 0 {
		list, _ = json.Marshal(stringsOf(parts)) // a []string always encodes
	}
	all, err := c.Bcast(list)
	if err != nil {
		return nil, err
	}
	cl := &Cluster{c: c}
	if err := json.Unmarshal(all, &cl.hosts); err != nil {
		return nil, fmt.Errorf("cluster: the host names from rank 0: %w", err)
	}
	if len(cl.hosts) != c.Size() {
		return nil, fmt.Errorf("cluster: rank 0 sent %d host names for %d ranks", len(cl.hosts), c.Size())
	}
	return cl, nil
}

func stringsOf(parts [][]byte) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}

// Rank is this rank, 0 to Size()-1.
func (cl *Cluster) Rank() int { return cl.c.Rank() }

// Size is the number of ranks.
func (cl *Cluster) Size() int { return cl.c.Size() }

// Host is the host name of rank r.
func (cl *Cluster) Host(r int) string { return cl.hosts[r] }

// NodeLeader reports whether this rank is the lowest on its host: the one
// that syncs the file system for all of them.
func (cl *Cluster) NodeLeader() bool {
	return slices.Index(cl.hosts, cl.hosts[cl.Rank()]) == cl.Rank()
}

// Nodes lists the distinct hosts in rank order.
func (cl *Cluster) Nodes() []string {
	var out []string
	for _, h := range cl.hosts {
		if !slices.Contains(out, h) {
			out = append(out, h)
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
func (cl *Cluster) allGather(b []byte) ([][]byte, error) {
	parts, err := cl.c.Gather(b)
	if err != nil {
		return nil, err
	}
	var all []byte
	if cl.Rank() == 0 {
		all, _ = json.Marshal(parts) // a [][]byte always encodes
	}
	list, err := cl.c.Bcast(all)
	if err != nil {
		return nil, err
	}
	var got [][]byte
	if err := json.Unmarshal(list, &got); err != nil {
		return nil, fmt.Errorf("cluster: the parts from rank 0: %w", err)
	}
	if len(got) != cl.Size() {
		return nil, fmt.Errorf("cluster: rank 0 sent %d parts for %d ranks", len(got), cl.Size())
	}
	return got, nil
}

// PeerPrefixes are the data file prefixes of the other ranks, so that a
// rank that survives a killed one removes what it left
// (iobench.Peers).
func (cl *Cluster) PeerPrefixes() []string {
	var out []string
	for r, p := range cl.prefixes {
		if r != cl.Rank() {
			out = append(out, p)
		}
	}
	return out
}

// ShiftedRank is the rank n places on from rank, (rank+n) mod size, for
// any n.
func ShiftedRank(rank, n, size int) int {
	return ((rank+n)%size + size) % size
}

// Max is the largest of every rank's v, on every rank.
func (cl *Cluster) Max(v int64) (int64, error) { return cl.c.AllreduceInt64(v, mpi.Max) }
