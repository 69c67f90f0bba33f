package cluster

import (
	"encoding/json"
	"fmt"

	"github.com/iobench/iobench/iobench"
)

// Decide makes rank 0's choice every rank's: rank 0 calls decide once, on
// the samples of all ranks aggregated as the report aggregates them, and
// every rank gets its answer. samples are all this rank's so far; each
// call sends only those the last did not, as every rank runs the same
// runs in step, so a round costs its own runs whatever came before. All
// ranks must call it.
func (cl *Cluster) Decide(samples []iobench.Sample, decide func([]iobench.Sample) []int64) ([]int64, error) {
	fresh := samples[min(cl.decided, len(samples)):]
	cl.decided = len(samples)
	agg, _, err := cl.Gather(&iobench.Result{Samples: fresh})
	var answer []byte
	if err == nil && cl.Rank() == 0 {
		cl.aggregated = append(cl.aggregated, agg.Samples...)
		answer, _ = json.Marshal(decide(cl.aggregated)) // an []int64 always encodes
	}
	if err = cl.Agree(err); err != nil {
		return nil, err
	}
	all, err := cl.c.Bcast(answer)
	if err != nil {
		return nil, err
	}
	var sizes []int64
	if err := json.Unmarshal(all, &sizes); err != nil {
		return nil, fmt.Errorf("cluster: the next round from rank 0: %w", err)
	}
	return sizes, nil
}

// rankResult is what each rank sends rank 0 after a sweep.
type rankResult struct {
	Samples   []iobench.Sample   `json:"samples"`
	LeftFiles []iobench.LeftFile `json:"left_files,omitempty"`
	Verified  *iobench.Verified  `json:"verified,omitempty"`
}

// Gather brings every rank's result to rank 0 and aggregates it there:
// the samples run by run (iobench.Aggregate), with how each run varied
// across ranks, the files left behind and what Verify checked. Other
// ranks get nil. All ranks must call it, also after a failure.
func (cl *Cluster) Gather(res *iobench.Result) (*iobench.Result, []iobench.RankSpread, error) {
	data, err := json.Marshal(rankResult{Samples: res.Samples, LeftFiles: res.LeftFiles, Verified: res.Verified})
	if err != nil {
		return nil, nil, err
	}
	parts, err := cl.c.Gather(data)
	if err != nil || cl.Rank() != 0 {
		return nil, nil, err
	}
	return aggregate(res, parts)
}

// aggregate is rank 0's part of Gather: every rank's part decoded and
// combined with rank 0's own result res. It keeps no rank's samples: the
// report has the aggregate and each run's spread, whatever the ranks.
func aggregate(res *iobench.Result, parts [][]byte) (*iobench.Result, []iobench.RankSpread, error) {
	perRank := make([][]iobench.Sample, len(parts))
	out := *res
	out.LeftFiles, out.Verified = nil, nil
	for i, p := range parts {
		var rr rankResult
		if err := json.Unmarshal(p, &rr); err != nil {
			return nil, nil, fmt.Errorf("cluster: the samples from rank %d: %w", i, err)
		}
		perRank[i] = rr.Samples
		out.LeftFiles = append(out.LeftFiles, rr.LeftFiles...)
		out.Verified = addVerified(out.Verified, rr.Verified)
	}
	var spread []iobench.RankSpread
	out.Samples, spread = iobench.Aggregate(perRank)
	return &out, spread, nil
}

// addVerified sums what the ranks' Verify checked.
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
