package iobench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Jobs: with Config.Jobs above 1, Run runs that many writers in this
// process, each a Runner of its own in a goroutine with its own data
// files (or its own segment of Runner.Shared), lined up before and after
// every run by an in-process Coordinator as MPI ranks are by the cluster:
// one job syncs, all start together, a failure on one stops all at the
// same step. The result aggregates the jobs run by run (Aggregate): all
// bytes over the span from the earliest start to the latest end.

// JobsResult is how the writers of a sweep with several jobs did.
type JobsResult struct {
	Jobs       int  `json:"jobs"`
	SharedFile bool `json:"shared_file"` // one file, a segment per job
	// PerJob is each run's spread across the jobs (SlowestRank is a job).
	PerJob []RankSpread `json:"per_job"`
}

// JobFailure is one job's error.
type JobFailure struct {
	Job int
	Err error
}

// JobsError is the failure of one or more jobs, which stopped them all.
type JobsError struct {
	Jobs     int
	Failures []JobFailure // in job order
}

// Error names the jobs that failed, those with the same error together:
// "job 1 of 4: ..." or "jobs 0-3 of 4: ...".
func (e *JobsError) Error() string {
	var msgs []string
	byMsg := map[string][]int{}
	for _, f := range e.Failures {
		m := f.Err.Error()
		if byMsg[m] == nil {
			msgs = append(msgs, m)
		}
		byMsg[m] = append(byMsg[m], f.Job)
	}
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = fmt.Sprintf("%s of %d: %s", jobsWord(byMsg[m]), e.Jobs, m)
	}
	return strings.Join(parts, "; ")
}

// Unwrap is every job's error, so errors.Is and As see each.
func (e *JobsError) Unwrap() []error {
	out := make([]error, len(e.Failures))
	for i, f := range e.Failures {
		out[i] = f.Err
	}
	return out
}

// jobsWord is "job 2", "jobs 0-3" or "jobs 0, 2".
func jobsWord(jobs []int) string {
	if len(jobs) == 1 {
		return fmt.Sprintf("job %d", jobs[0])
	}
	if jobs[len(jobs)-1]-jobs[0] == len(jobs)-1 {
		return fmt.Sprintf("jobs %d-%d", jobs[0], jobs[len(jobs)-1])
	}
	s := make([]string, len(jobs))
	for i, j := range jobs {
		s[i] = fmt.Sprint(j)
	}
	return "jobs " + strings.Join(s, ", ")
}

// jobGroup is the barrier the jobs of one sweep meet at.
type jobGroup struct {
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

func newJobGroup(n int) *jobGroup {
	g := &jobGroup{n: n, errs: make([]error, n), samples: make([][]Sample, n)}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// exchange is one barrier: each member puts its part, the last to arrive
// runs done on them all, and each then gets the outcome; all three under
// the group's lock.
func (g *jobGroup) exchange(put, done, get func()) {
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
func (g *jobGroup) failure() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.failed
}

// jobMember is one job's Coordinator: an Agree, Decider and Broadcaster.
type jobMember struct {
	g *jobGroup
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

// runJobs runs Config.Jobs writers and aggregates them. Job 0 runs in
// the calling goroutine and tells the Observer about its own runs; it
// alone syncs before each run and creates the shared file.
func (r *Runner) runJobs(ctx context.Context) (*Result, error) {
	res := &Result{Variants: r.Config.VariantNames(), Incomplete: true}
	if err := r.Config.Validate(); err != nil {
		return res, err
	}
	prefix := r.Prefix
	if prefix == "" {
		var err error
		if prefix, err = UniquePrefix(); err != nil {
			return res, err
		}
	}
	n := r.Config.Jobs
	g := newJobGroup(n)
	jobs := make([]*Runner, n)
	for k := range jobs {
		cfg := r.Config
		cfg.Jobs, cfg.Writer = 1, k
		if k > 0 {
			cfg.Sync = SyncNone // one flush serves every job
		}
		j := &Runner{Config: cfg, FS: r.FS, Coord: jobMember{g: g, k: k}, Prefix: fmt.Sprintf("%s-j%d", prefix, k)}
		if r.Shared != nil {
			j.Shared = &Shared{Name: r.Shared.Name, Offset: int64(k) * cfg.TotalBytes(), Creator: k == 0}
		}
		if k == 0 {
			j.Observer = r.Observer
		}
		jobs[k] = j
	}
	r.mu.Lock()
	closed := r.closed
	if !closed {
		r.jobs = jobs
	}
	r.mu.Unlock()
	if closed { // RemoveFiles or Abandon ran first: start nothing
		return res, ErrInterrupted
	}
	results, errs := make([]*Result, n), make([]error, n)
	var wg sync.WaitGroup
	for k := 1; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[k], errs[k] = jobs[k].Run(ctx)
		}()
	}
	results[0], errs[0] = jobs[0].Run(ctx)
	wg.Wait()
	return r.joinJobs(ctx, g, results, errs)
}

// joinJobs aggregates the jobs' results into one, with one error: the
// failure the jobs agreed on, or an interrupt, and the files left.
func (r *Runner) joinJobs(ctx context.Context, g *jobGroup, results []*Result, errs []error) (*Result, error) {
	first := results[0]
	res := &Result{Variants: first.Variants, WarmupRan: first.WarmupRan, Adaptive: first.Adaptive,
		ConvertMiBPerSec: first.ConvertMiBPerSec, VariantConvertMiBPerSec: first.VariantConvertMiBPerSec}
	perJob := make([][]Sample, len(results))
	for k, jr := range results {
		perJob[k] = jr.Samples
		res.Incomplete = res.Incomplete || jr.Incomplete
		res.LeftFiles = append(res.LeftFiles, jr.LeftFiles...)
		if v := jr.Verified; v != nil {
			if res.Verified == nil {
				res.Verified = &Verified{}
			}
			res.Verified.Files += v.Files
			res.Verified.Elements += v.Elements
			res.Verified.Bytes += v.Bytes
		}
	}
	var spread []RankSpread
	res.Samples, spread = Aggregate(perJob)
	res.Jobs = &JobsResult{Jobs: len(results), SharedFile: r.Shared != nil, PerJob: spread}
	err := g.failure()
	if err == nil { // a failure outside the barriers (none is expected)
		for _, e := range errs {
			var lf *LeftFilesError
			if e != nil && !errors.As(e, &lf) {
				err = e
				break
			}
		}
	}
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
	if len(res.LeftFiles) > 0 {
		err = errors.Join(err, &LeftFilesError{Files: res.LeftFiles})
	}
	return res, err
}

// closeJobs stops a runner from starting jobs and returns those it has.
func (r *Runner) closeJobs() []*Runner {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return r.jobs
}

// jobList is the jobs of a runner with several, nil otherwise.
func (r *Runner) jobList() []*Runner {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.jobs
}

// busiest is the phase a signal handler waits for: the first job's that
// is in a call, else job 0's.
func busiest(jobs []*Runner) Phase {
	for _, j := range jobs {
		if p := j.Phase(); p != PhaseIdle && p != PhaseCollect {
			return p
		}
	}
	return jobs[0].Phase()
}

// abandonJobs is Abandon on every job at once.
func abandonJobs(jobs []*Runner, wait time.Duration) []string {
	var mu sync.Mutex
	var out []string
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			left := j.Abandon(wait)
			mu.Lock()
			out = append(out, left...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(out)
	return slices.Compact(out)
}
