package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
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

// listedFailures is how many distinct failures an error's text lists:
// on thousands of ranks the rest are counted, so the line stays a line.
const listedFailures = 8

// Error lists each failure once; ranks that failed with the same message
// share one entry ("ranks 1-3 (a, b)").
func (e *RankError) Error() string {
	groups := groupFailures(e.Failures)
	shown := groups[:min(len(groups), listedFailures)]
	msgs := make([]string, len(shown))
	for i, g := range shown {
		msgs[i] = g.String()
	}
	if rest := len(groups) - len(shown); rest > 0 {
		n := 0
		for _, g := range groups[len(shown):] {
			n += len(g.ranks)
		}
		msgs = append(msgs, fmt.Sprintf("and %d more rank(s) failed with %d other message(s)", n, rest))
	}
	return strings.Join(msgs, "; ")
}

// failureGroup is the ranks that failed with one message.
type failureGroup struct {
	ranks   []int
	hosts   []string // distinct, in rank order
	message string
}

// groupFailures groups failures by message, in the order of each
// message's first rank.
func groupFailures(fs []Failure) []failureGroup {
	var out []failureGroup
	index := map[string]int{}
	for _, f := range fs {
		i, ok := index[f.Message]
		if !ok {
			i = len(out)
			index[f.Message] = i
			out = append(out, failureGroup{message: f.Message})
		}
		g := &out[i]
		g.ranks = append(g.ranks, f.Rank)
		if !slices.Contains(g.hosts, f.Host) {
			g.hosts = append(g.hosts, f.Host)
		}
	}
	return out
}

// listedHosts is how many host names a group names before counting.
const listedHosts = 3

func (g failureGroup) String() string {
	if len(g.ranks) == 1 {
		return Failure{Rank: g.ranks[0], Host: g.hosts[0], Message: g.message}.String()
	}
	hosts := strings.Join(g.hosts[:min(len(g.hosts), listedHosts)], ", ")
	if more := len(g.hosts) - listedHosts; more > 0 {
		hosts += fmt.Sprintf(" and %d more hosts", more)
	}
	return fmt.Sprintf("ranks %s (%s): %s", rankRanges(g.ranks), hosts, g.message)
}

// listedRuns is how many runs of ranks a group writes before counting.
const listedRuns = 6

// rankRanges writes ascending ranks with runs collapsed, "0-3, 7, 9-10",
// the runs past listedRuns counted: "..., 50 and 404 more".
func rankRanges(ranks []int) string {
	var parts []string
	i := 0
	for ; i < len(ranks) && len(parts) < listedRuns; i++ {
		j := i
		for j+1 < len(ranks) && ranks[j+1] == ranks[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ranks[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ranks[i], ranks[j]))
		}
		i = j
	}
	s := strings.Join(parts, ", ")
	if rest := len(ranks) - i; rest > 0 {
		s += fmt.Sprintf(" and %d more", rest)
	}
	return s
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
