package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/iobench/iobench/iobench"
)

// Files says how the ranks lay out their data.
type Files struct {
	// SplitCount: cfg.Count is the job's total, split across the ranks;
	// otherwise every rank writes cfg.Count elements.
	SplitCount bool
	// Shared: all ranks write one file, each its own range of it.
	Shared bool
}

// Configure makes the plan the same on every rank and this rank's own:
// its share of the count, rank 0's seed, one syncing rank per node. It
// returns the shared file, named by rank 0 (nil without files.Shared),
// and this rank's prefix for its own files. All ranks must call it.
func (cl *Cluster) Configure(cfg *iobench.Config, files Files) (*iobench.Shared, string, error) {
	first := cfg.Count * int64(cl.Rank())
	if files.SplitCount {
		cfg.Count, first = Share(cfg.Count, cl.Rank(), cl.Size())
	}
	cfg.Ranks = cl.Size()
	if !cl.NodeLeader() {
		cfg.Sync = iobench.SyncNone
	}
	seed, err := cl.bcastUint64(cfg.Seed)
	if err != nil {
		return nil, "", err
	}
	cfg.Seed, cfg.Writer = seed, cl.Rank()
	// Each rank names its own files; a shared file takes rank 0's name.
	// A rank that fails here still makes the collective calls, and Agree
	// stops every rank with it.
	// Every rank learns the prefixes of its host's other ranks, so that
	// the survivors of a killed rank remove the files it left.
	prefix, perr := iobench.UniquePrefix()
	all, err := cl.allGather([]byte(prefix))
	if err != nil {
		return nil, "", errors.Join(perr, err)
	}
	if err := cl.Agree(perr); err != nil {
		return nil, "", err
	}
	cl.keepPeers(all)
	if !files.Shared {
		return nil, prefix, nil
	}
	return &iobench.Shared{Name: string(all[0]) + "-shared.dat", Offset: first * cfg.ElemSize(), Creator: cl.Rank() == 0}, prefix, nil
}

// Share is rank's part of a total split across size ranks, and its first
// element; the first total%size ranks take one element more.
func Share(total int64, rank, size int) (count, first int64) {
	base, extra := total/int64(size), total%int64(size)
	r := int64(rank)
	count = base
	if r < extra {
		count++
	}
	return count, r*base + min(r, extra)
}

// bcastUint64 sends rank 0's v to every rank.
func (cl *Cluster) bcastUint64(v uint64) (uint64, error) {
	b, err := cl.c.Bcast(binary.LittleEndian.AppendUint64(nil, v))
	if err != nil {
		return 0, err
	}
	if len(b) != 8 {
		return 0, fmt.Errorf("cluster: rank 0 sent %d bytes for a uint64", len(b))
	}
	return binary.LittleEndian.Uint64(b), nil
}

// PlanMismatchError is a rank whose plan (iobench.Config.PlanKey) differs
// from rank 0's: it would call the collectives a different number of
// times and hang the job.
type PlanMismatchError struct {
	Mine, Rank0 string // the plan keys
}

func (e *PlanMismatchError) Error() string {
	return fmt.Sprintf("this rank's plan (%s) differs from rank 0's (%s)", e.Mine, e.Rank0)
}

// SamePlan checks that this rank runs the plan rank 0 runs; it returns a
// *PlanMismatchError on each rank whose plan differs, nil on the others.
// Pass its error to Agree so that every rank stops. All ranks must call
// it.
func (cl *Cluster) SamePlan(cfg iobench.Config) error {
	mine := cfg.PlanKey()
	first, err := cl.c.Bcast([]byte(mine))
	if err != nil {
		return err
	}
	if string(first) != mine {
		return &PlanMismatchError{Mine: mine, Rank0: string(first)}
	}
	return nil
}
