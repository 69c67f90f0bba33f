package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
	"github.com/iobench/iobench/report"
)

// world is the MPI world main started; nil in tests and single-rank runs.
var world *mpi.World

// cluster is this rank's view of an MPI job. It is the engine's
// Coordinator: every Agree is a collective call on all ranks.
type cluster struct {
	w     *mpi.World
	rank  int
	size  int
	hosts []string // host name of each rank
}

// newCluster gathers every rank's host name; nil without MPI. Under
// mpirun -np 1 it is a cluster of one, so the report has the same form.
func newCluster(w *mpi.World) (*cluster, error) {
	if w == nil || !mpi.Enabled() {
		return nil, nil
	}
	c := &cluster{w: w, rank: w.Rank(), size: w.Size()}
	host, _ := os.Hostname()
	parts, err := w.Gather([]byte(host))
	if err != nil {
		return nil, err
	}
	all, err := w.Bcast(joinParts(parts))
	if err != nil {
		return nil, err
	}
	c.hosts = strings.Split(string(all), "\n")
	return c, nil
}

func joinParts(parts [][]byte) []byte {
	strs := make([]string, len(parts))
	for i, p := range parts {
		strs[i] = string(p)
	}
	return []byte(strings.Join(strs, "\n"))
}

// nodeLeader is the lowest rank on this host: the one that syncs.
func (c *cluster) nodeLeader() bool {
	return slices.Index(c.hosts, c.hosts[c.rank]) == c.rank
}

// nodes lists the distinct hosts in rank order.
func (c *cluster) nodes() []string {
	var out []string
	for _, h := range c.hosts {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// rankError is a failure on one or more ranks, as every rank sees it.
type rankError struct {
	msg         string
	interrupted bool
	local       error
}

func (e *rankError) Error() string { return e.msg }
func (e *rankError) Unwrap() error { return e.local }

// Is lets every rank exit 130 when any rank was interrupted.
func (e *rankError) Is(target error) bool {
	return target == iobench.ErrInterrupted && e.interrupted
}

// Agree is a barrier that also agrees on failure: if any rank failed,
// every rank returns one error naming each failed rank and its cause.
func (c *cluster) Agree(err error) error {
	var flag int64
	if err != nil {
		flag = 1
	}
	failed, merr := c.w.AllreduceInt64(flag, mpi.Max)
	if merr != nil {
		return errors.Join(err, merr)
	}
	if failed == 0 {
		return nil
	}
	return c.shareFailure(err)
}

func (c *cluster) shareFailure(err error) error {
	mine := ""
	if err != nil {
		mine = fmt.Sprintf("rank %d (%s): %v", c.rank, c.hosts[c.rank], err)
		if errors.Is(err, iobench.ErrInterrupted) {
			mine = "!" + mine
		}
	}
	parts, gerr := c.w.Gather([]byte(mine))
	if gerr != nil {
		return errors.Join(err, gerr)
	}
	all, berr := c.w.Bcast([]byte(failureText(parts)))
	if berr != nil {
		return errors.Join(err, berr)
	}
	text := string(all)
	return &rankError{msg: strings.TrimPrefix(text, "!"), interrupted: strings.HasPrefix(text, "!"), local: err}
}

// failureText joins the failed ranks' messages; a leading "!" says one of
// them was interrupted.
func failureText(parts [][]byte) string {
	var msgs []string
	interrupted := false
	for _, p := range parts {
		m := string(p)
		if m == "" {
			continue
		}
		if strings.HasPrefix(m, "!") {
			interrupted, m = true, m[1:]
		}
		msgs = append(msgs, m)
	}
	text := strings.Join(msgs, "; ")
	if interrupted {
		text = "!" + text
	}
	return text
}

// bcastUint64 sends rank 0's value to every rank.
func (c *cluster) bcastUint64(v uint64) (uint64, error) {
	b, err := c.w.Bcast(binary.LittleEndian.AppendUint64(nil, v))
	if err != nil || len(b) != 8 {
		return 0, errors.Join(err, errors.New("mpi: broadcast of a uint64 failed"))
	}
	return binary.LittleEndian.Uint64(b), nil
}

// share is rank r's part of a total split across ranks, and its first
// element; the first total%size ranks take one element more.
func share(total int64, rank, size int) (count, first int64) {
	base, extra := total/int64(size), total%int64(size)
	r := int64(rank)
	count = base
	if r < extra {
		count++
	}
	return count, r*base + min(r, extra)
}

// configure makes the plan the same on every rank and this rank's own:
// its share of --total, the seed and file names of rank 0, and one
// syncing rank per node.
func (c *cluster) configure(cfg *iobench.Config, total, sharedFile bool) (*iobench.Shared, string, error) {
	var first int64
	if total {
		cfg.Count, first = share(cfg.Count, c.rank, c.size)
	} else {
		first = cfg.Count * int64(c.rank)
	}
	cfg.Ranks = c.size
	if !c.nodeLeader() {
		cfg.Sync = iobench.SyncNone
	}
	seed, err := c.bcastUint64(cfg.Seed)
	if err != nil {
		return nil, "", err
	}
	cfg.Seed = seed
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		return nil, "", err
	}
	shared, err := c.w.Bcast([]byte(prefix))
	if err != nil {
		return nil, "", err
	}
	if !sharedFile {
		return nil, prefix, nil
	}
	return &iobench.Shared{Name: string(shared) + "-shared.dat", Offset: first * cfg.ElemSize(), Creator: c.rank == 0}, prefix, nil
}

// samePlan checks that this rank runs the plan rank 0 runs: a rank whose
// file system chose another profile would otherwise call the collectives
// a different number of times and hang the job.
func (c *cluster) samePlan(cfg iobench.Config) error {
	mine := fmt.Sprintf("sizes %v, repeat %d, auto %v, order %s, mode %s, warmup %v, fsync %v, type %s, convert %s, stride %d",
		cfg.Sizes, cfg.Repeat, cfg.Auto, cfg.Order, cfg.Mode, cfg.Warmup, cfg.Fsync, cfg.Type, cfg.Convert, cfg.Stride)
	first, err := c.w.Bcast([]byte(mine))
	if err != nil {
		return err
	}
	if string(first) != mine {
		return fmt.Errorf("--profile: this rank's plan (%s) differs from rank 0's (%s), as its file system chose another profile; give --profile and the sizes explicitly", mine, first)
	}
	return nil
}

// Decide makes rank 0's choice every rank's: rank 0 decides on the
// samples of all ranks, aggregated as the report aggregates them, and
// broadcasts the answer. All ranks must call it.
func (c *cluster) Decide(samples []iobench.Sample, decide func([]iobench.Sample) []int64) ([]int64, error) {
	agg, _, err := c.gather(&iobench.Result{Samples: samples})
	var answer []byte
	if err == nil && c.rank == 0 {
		answer, err = json.Marshal(decide(agg.Samples))
	}
	if err = c.Agree(err); err != nil {
		return nil, err
	}
	all, err := c.w.Bcast(answer)
	if err != nil {
		return nil, err
	}
	var sizes []int64
	if err := json.Unmarshal(all, &sizes); err != nil {
		return nil, fmt.Errorf("mpi: the next round from rank 0: %w", err)
	}
	return sizes, nil
}

// rankResult is what each rank sends rank 0 after a sweep.
type rankResult struct {
	Samples   []iobench.Sample   `json:"samples"`
	LeftFiles []iobench.LeftFile `json:"left_files,omitempty"`
	Verified  *iobench.Verified  `json:"verified,omitempty"`
}

// Broadcast sends rank 0's b to every rank (the shared file's identity).
func (c *cluster) Broadcast(b []byte) ([]byte, error) { return c.w.Bcast(b) }

// gather brings every rank's samples to rank 0 and aggregates them there;
// other ranks get nil. All ranks must call it, also after a failure.
func (c *cluster) gather(res *iobench.Result) (*iobench.Result, *report.MPI, error) {
	data, err := json.Marshal(rankResult{Samples: res.Samples, LeftFiles: res.LeftFiles, Verified: res.Verified})
	if err != nil {
		return nil, nil, err
	}
	parts, err := c.w.Gather(data)
	if err != nil || c.rank != 0 {
		return nil, nil, err
	}
	perRank := make([][]iobench.Sample, len(parts))
	var left []iobench.LeftFile
	var verified *iobench.Verified
	for i, p := range parts {
		var rr rankResult
		if err := json.Unmarshal(p, &rr); err != nil {
			return nil, nil, fmt.Errorf("samples from rank %d: %w", i, err)
		}
		perRank[i] = rr.Samples
		left = append(left, rr.LeftFiles...)
		verified = addVerified(verified, rr.Verified)
	}
	agg, spread := iobench.Aggregate(perRank)
	out := *res
	out.Samples, out.LeftFiles, out.Verified = agg, left, verified
	out.ConvertMiBPerSec = res.ConvertMiBPerSec
	return &out, &report.MPI{Ranks: c.size, Nodes: len(c.nodes()), Hosts: c.nodes(), PerRank: rankRuns(spread)}, nil
}

// addVerified sums what the ranks' --verify checked.
func addVerified(sum, v *iobench.Verified) *iobench.Verified {
	if v == nil {
		return sum
	}
	if sum == nil {
		sum = &iobench.Verified{}
	}
	sum.Files, sum.Elements, sum.Bytes = sum.Files+v.Files, sum.Elements+v.Elements, sum.Bytes+v.Bytes
	return sum
}

func rankRuns(spread []iobench.RankSpread) []report.RankRun {
	out := make([]report.RankRun, len(spread))
	for i, s := range spread {
		out[i] = report.RankRun{Mode: string(s.Mode), WriteSize: s.WriteSize, Round: s.Round,
			MinMiBPerSec: s.MinMiBPerSec, MedianMiBPerSec: s.MedianMiBPerSec, MaxMiBPerSec: s.MaxMiBPerSec, SlowestRank: s.SlowestRank}
	}
	return out
}
