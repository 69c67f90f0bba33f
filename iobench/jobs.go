package iobench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Jobs: with Config.Jobs above 1, Run runs that many writers in this
// process (a jobGroup), each in a goroutine with its own data files (or
// its own segment of Runner.Shared), lined up before and after every run
// by an in-process barrier (jobBarrier) as MPI ranks are by the cluster:
// one job syncs, all start together, a failure on one stops all at the
// same step. The result aggregates the jobs run by run (Aggregate): all
// bytes over the span from the earliest start to the latest end.

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

// jobGroup is the writers of a sweep with several jobs and the barrier
// they meet at. Writer 0 runs in the calling goroutine and tells the
// Observer about its own runs; it alone syncs before each run and
// creates the shared file.
type jobGroup struct {
	writers []*writer
	barrier *jobBarrier
}

// newJobGroup makes the Config.Jobs writers of cfg, each with its
// share of the work and files named prefix-j<job>.
func newJobGroup(cfg Config, fs FS, shared *Shared, prefix string) *jobGroup {
	n := cfg.Jobs
	g := &jobGroup{writers: make([]*writer, n), barrier: newJobBarrier(n)}
	for k := range g.writers {
		c := cfg
		c.Jobs, c.Writer = 1, k
		if k > 0 {
			c.Sync = SyncNone // one flush serves every job
		}
		var s *Shared
		if shared != nil {
			s = &Shared{Name: shared.Name, Offset: int64(k) * c.TotalBytes(), Creator: k == 0}
		}
		w := newWriter(c, fs, s, fmt.Sprintf("%s-j%d", prefix, k))
		w.coord = jobMember{barrier: g.barrier, k: k}
		g.writers[k] = w
	}
	return g
}

// run runs every writer and aggregates their results.
func (g *jobGroup) run(ctx context.Context) (*Result, error) {
	n := len(g.writers)
	results, errs := make([]*Result, n), make([]error, n)
	var wg sync.WaitGroup
	for k := 1; k < n; k++ {
		wg.Go(func() { results[k], errs[k] = g.writers[k].run(ctx) })
	}
	results[0], errs[0] = g.writers[0].run(ctx)
	wg.Wait()
	return g.join(ctx, results, errs)
}

// join aggregates the jobs' results into one, with one error: the
// failure the jobs agreed on, or an interrupt, and the files left.
func (g *jobGroup) join(ctx context.Context, results []*Result, errs []error) (*Result, error) {
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
	res.Jobs = &JobsResult{Jobs: len(results), SharedFile: g.writers[0].shared != nil, PerJob: spread}
	err := g.barrier.failure()
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
