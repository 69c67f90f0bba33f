package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
)

// Failure is one rank's failure as every rank learns it.
type Failure struct {
	Rank    int    `json:"rank"`
	Host    string `json:"host"`
	Message string `json:"message"`
	// Interrupted: the rank stopped on a signal, so every rank exits as
	// interrupted, not failed.
	Interrupted bool `json:"interrupted"`
}

func (f Failure) String() string { return fmt.Sprintf("rank %d (%s): %s", f.Rank, f.Host, f.Message) }

// RankError is a failure on one or more ranks, the same on every rank.
type RankError struct {
	Failures []Failure // in rank order
	local    error     // this rank's own error, if it failed
}

func (e *RankError) Error() string {
	msgs := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		msgs[i] = f.String()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap is this rank's own error, nil if another rank failed.
func (e *RankError) Unwrap() error { return e.local }

// Is makes every rank's error an iobench.ErrInterrupted when any rank was
// interrupted, so all of them exit as interrupted.
func (e *RankError) Is(target error) bool {
	if target != iobench.ErrInterrupted {
		return false
	}
	for _, f := range e.Failures {
		if f.Interrupted {
			return true
		}
	}
	return false
}

// Agree is a barrier that also agrees on failure: if any rank failed,
// every rank returns a *RankError naming each failed rank, its host and
// its error. All ranks must call it, failed or not.
func (cl *Cluster) Agree(err error) error {
	var flag int64
	if err != nil {
		flag = 1
	}
	failed, merr := cl.c.AllreduceInt64(flag, mpi.Max)
	if merr != nil {
		return errors.Join(err, merr)
	}
	if failed == 0 {
		return nil
	}
	return cl.shareFailure(err)
}

// shareFailure gathers the failures at rank 0, which sends the list to
// every rank.
func (cl *Cluster) shareFailure(err error) error {
	var mine []byte
	if err != nil {
		mine, _ = json.Marshal(Failure{Rank: cl.Rank(), Host: cl.Host(cl.Rank()), Message: err.Error(),
			Interrupted: errors.Is(err, iobench.ErrInterrupted)}) // plain fields always encode
	}
	parts, gerr := cl.c.Gather(mine)
	if gerr != nil {
		return errors.Join(err, gerr)
	}
	var list []byte
	if cl.Rank() == 0 {
		list, _ = json.Marshal(failures(parts))
	}
	all, berr := cl.c.Bcast(list)
	if berr != nil {
		return errors.Join(err, berr)
	}
	rerr := &RankError{local: err}
	if jerr := json.Unmarshal(all, &rerr.Failures); jerr != nil {
		return errors.Join(err, fmt.Errorf("cluster: the failures from rank 0: %w", jerr))
	}
	return rerr
}

// failures decodes the gathered parts; an empty part is a rank that did
// not fail. A part that does not decode still counts as its rank's
// failure, so no failure is lost.
func failures(parts [][]byte) []Failure {
	var out []Failure
	for i, p := range parts {
		if len(p) == 0 {
			continue
		}
		var f Failure
		if err := json.Unmarshal(p, &f); err != nil {
			f = Failure{Rank: i, Message: fmt.Sprintf("undecodable failure report %q: %v", p, err)}
		}
		out = append(out, f)
	}
	return out
}
