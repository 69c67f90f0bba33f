package iobench

import (
	"slices"
	"sync"
)

// jobBarrier is the barrier the jobs of one sweep meet at.
type jobBarrier struct {
	n       int
	mu      sync.Mutex
	cond    *sync.Cond
	gen     int // exchanges completed
	arrived int
	// what the members bring to the exchange under way
	errs    []error
	samples [][]Sample
	decide  func([]Sample) []int64
	bytes   []byte
	// what the last exchange gave
	err    error
	sizes  []int64
	out    []byte
	failed error // the first failure agreed
}

func newJobBarrier(n int) *jobBarrier {
	g := &jobBarrier{n: n, errs: make([]error, n), samples: make([][]Sample, n)}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// exchange is one barrier: each member puts its part, the last to arrive
// runs done on them all, and each then gets the outcome; all three under
// the group's lock.
func (g *jobBarrier) exchange(put, done, get func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	put()
	if g.arrived++; g.arrived == g.n {
		done()
		g.arrived = 0
		g.gen++
		g.cond.Broadcast()
	} else {
		for gen := g.gen; gen == g.gen; {
			g.cond.Wait()
		}
	}
	get()
}

// failure is the first error the jobs agreed on, nil if none failed.
func (g *jobBarrier) failure() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.failed
}

// jobMember is one job's Coordinator: an Agree, Decider and Broadcaster.
type jobMember struct {
	g *jobBarrier
	k int
}

var (
	_ Coordinator = jobMember{}
	_ Decider     = jobMember{}
	_ Broadcaster = jobMember{}
)

// Agree is a barrier that returns a *JobsError on every job if any failed.
func (m jobMember) Agree(err error) error {
	g := m.g
	var out error
	g.exchange(func() { g.errs[m.k] = err }, func() {
		var fs []JobFailure
		for k, e := range g.errs {
			if e != nil {
				fs = append(fs, JobFailure{Job: k, Err: e})
			}
			g.errs[k] = nil
		}
		g.err = nil
		if len(fs) > 0 {
			g.err = &JobsError{Jobs: g.n, Failures: fs}
			if g.failed == nil {
				g.failed = g.err
			}
		}
	}, func() { out = g.err })
	return out
}

// Decide calls job 0's decide once, on the jobs' samples aggregated, and
// gives its answer to every job.
func (m jobMember) Decide(samples []Sample, decide func([]Sample) []int64) ([]int64, error) {
	g := m.g
	var out []int64
	g.exchange(func() {
		g.samples[m.k] = samples
		if m.k == 0 {
			g.decide = decide
		}
	}, func() {
		agg, _ := Aggregate(g.samples)
		g.sizes = g.decide(agg)
		clear(g.samples)
	}, func() { out = slices.Clone(g.sizes) })
	return out, nil
}

// Broadcast gives job 0's bytes (the shared file's identity) to every job.
func (m jobMember) Broadcast(b []byte) ([]byte, error) {
	g := m.g
	var out []byte
	g.exchange(func() {
		if m.k == 0 {
			g.bytes = slices.Clone(b)
		}
	}, func() { g.out, g.bytes = g.bytes, nil }, func() { out = slices.Clone(g.out) })
	return out, nil
}
