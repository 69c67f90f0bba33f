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
	jb := &jobBarrier{n: n, errs: make([]error, n), samples: make([][]Sample, n)}
	jb.cond = sync.NewCond(&jb.mu)
	return jb
}

// exchange is one barrier: each member puts its part, the last to arrive
// runs done on them all, and each then gets the outcome; all three under
// the barrier's lock.
func (jb *jobBarrier) exchange(put, done, get func()) {
	jb.mu.Lock()
	defer jb.mu.Unlock()
	put()
	if jb.arrived++; jb.arrived == jb.n {
		done()
		jb.arrived = 0
		jb.gen++
		jb.cond.Broadcast()
	} else {
		for gen := jb.gen; gen == jb.gen; {
			jb.cond.Wait()
		}
	}
	get()
}

// failure is the first error the jobs agreed on, nil if none failed.
func (jb *jobBarrier) failure() error {
	jb.mu.Lock()
	defer jb.mu.Unlock()
	return jb.failed
}

// jobMember is one job's Coordinator: an Agree, Decider and Broadcaster.
type jobMember struct {
	barrier *jobBarrier
	k       int
}

var (
	_ Coordinator = jobMember{}
	_ Decider     = jobMember{}
	_ Broadcaster = jobMember{}
)

// Agree is a barrier that returns a *JobsError on every job if any failed.
func (m jobMember) Agree(err error) error {
	jb := m.barrier
	var out error
	jb.exchange(func() { jb.errs[m.k] = err }, func() {
		var fs []JobFailure
		for k, e := range jb.errs {
			if e != nil {
				fs = append(fs, JobFailure{Job: k, Err: e})
			}
			jb.errs[k] = nil
		}
		jb.err = nil
		if len(fs) > 0 {
			jb.err = &JobsError{Jobs: jb.n, Failures: fs}
			if jb.failed == nil {
				jb.failed = jb.err
			}
		}
	}, func() { out = jb.err })
	return out
}

// Decide calls job 0's decide once, on the jobs' samples aggregated, and
// gives its answer to every job.
func (m jobMember) Decide(samples []Sample, decide func([]Sample) []int64) ([]int64, error) {
	jb := m.barrier
	var out []int64
	jb.exchange(func() {
		jb.samples[m.k] = samples
		if m.k == 0 {
			jb.decide = decide
		}
	}, func() {
		agg, _ := Aggregate(jb.samples)
		jb.sizes = jb.decide(agg)
		clear(jb.samples)
	}, func() { out = slices.Clone(jb.sizes) })
	return out, nil
}

// Broadcast gives job 0's bytes (the shared file's identity) to every job.
func (m jobMember) Broadcast(b []byte) ([]byte, error) {
	jb := m.barrier
	var out []byte
	jb.exchange(func() {
		if m.k == 0 {
			jb.bytes = slices.Clone(b)
		}
	}, func() { jb.out, jb.bytes = jb.bytes, nil }, func() { out = slices.Clone(jb.out) })
	return out, nil
}
