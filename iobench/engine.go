package iobench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Observer hears about a sweep as it runs. Calls come from the goroutine
// that called Run; keep them cheap, they sit between runs.
type Observer interface {
	WarmupStarted()
	// RoundPlanned announces a round's runs before the first of them; an
	// adaptive sweep plans each round after the one before.
	RoundPlanned(round int, runs []Run)
	RunStarted(r Run)
	RunFinished(s Sample)
}

// Coordinator lines processes (MPI ranks) up. The engine calls Agree at
// every step that can fail, before and after each timed run, with this
// process's error; Agree is a barrier that returns the error of any rank,
// so that every rank stops at the same step instead of hanging.
type Coordinator interface {
	Agree(err error) error
}

// Decider is a Coordinator that makes one choice for all processes:
// Decide calls decide once, on one process, with every process's samples
// aggregated, and returns its answer on every process. Adaptive sweeps
// choose their next round with it, so every rank runs the same plan.
type Decider interface {
	Decide(samples []Sample, decide func([]Sample) []int64) ([]int64, error)
}

// LeftFilesError fails a sweep that measured everything but could not
// remove some of its data files.
type LeftFilesError struct{ Files []LeftFile }

func (e *LeftFilesError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d data file(s) could not be removed; remove them by hand:", len(e.Files))
	for _, f := range e.Files {
		fmt.Fprintf(&b, "\n  %s: %s", f.Path, f.Err)
	}
	return b.String()
}

// Runner runs one sweep. Set the fields, then call Run once; with
// Config.Jobs above 1 it runs that many writers in this process. The
// other methods are safe to call from any goroutine, before, during and
// after Run.
type Runner struct {
	Config   Config
	FS       FS
	Observer Observer    // may be nil
	Coord    Coordinator // may be nil
	Shared   *Shared     // nil: a file per process
	Prefix   string      // data file name prefix; default: unique per process

	// Run starts one writer, or a jobGroup's writers; the other methods
	// reach them through writers.
	mu      sync.Mutex
	closed  bool      // RemoveFiles or Abandon ran
	writers []*writer // what Run runs, once it started
}

// Run executes the plan. On failure or cancellation it returns the samples
// measured so far with Incomplete set, and has removed its data files.
// The plan is validated once, here; a job's writers run parts of it.
func (r *Runner) Run(ctx context.Context) (*Result, error) {
	planErr := r.Config.Validate()
	if r.Config.Jobs > 1 {
		if planErr != nil {
			return &Result{Variants: r.Config.VariantNames(), Incomplete: true}, planErr
		}
		return r.runJobs(ctx)
	}
	w := newWriter(r.Config, r.FS, r.Shared, r.Prefix)
	w.observer, w.coord, w.planErr = r.Observer, r.Coord, planErr
	r.mu.Lock()
	if r.closed { // RemoveFiles ran first: the writer creates no file
		w.files.close()
	}
	r.writers = []*writer{w}
	r.mu.Unlock()
	return w.run(ctx)
}

// runJobs runs Config.Jobs writers as one group and aggregates them.
func (r *Runner) runJobs(ctx context.Context) (*Result, error) {
	res := &Result{Variants: r.Config.VariantNames(), Incomplete: true}
	prefix := r.Prefix
	if prefix == "" {
		var err error
		if prefix, err = UniquePrefix(); err != nil {
			return res, err
		}
	}
	g := newJobGroup(r.Config, r.FS, r.Shared, prefix)
	g.writers[0].observer = r.Observer
	r.mu.Lock()
	closed := r.closed
	if !closed {
		r.writers = g.writers
	}
	r.mu.Unlock()
	if closed { // RemoveFiles or Abandon ran first: start nothing
		return res, ErrInterrupted
	}
	return g.run(ctx)
}

// started is the writers Run started, none before it.
func (r *Runner) started() []*writer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writers
}

// close stops Run from starting writers and returns those it started.
func (r *Runner) close() []*writer {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return r.writers
}

// Progress is the number of bytes the current run has moved so far; safe
// to call from another goroutine.
// With several jobs it is job 0's.
func (r *Runner) Progress() int64 {
	if ws := r.started(); len(ws) > 0 {
		return ws[0].moved.Load()
	}
	return 0
}

// Phase is what the sweep is doing now; safe from any goroutine. With
// several jobs it is the phase of the first job in a system call.
func (r *Runner) Phase() Phase {
	if ws := r.started(); len(ws) > 0 {
		return busiest(ws)
	}
	return PhaseIdle
}

// LeftFiles are the data files that could not be removed, with the cause.
func (r *Runner) LeftFiles() []LeftFile {
	var out []LeftFile
	for _, w := range r.started() {
		out = append(out, w.files.leftFiles()...)
	}
	return out
}

// RemoveFiles deletes every data file the sweep created and still holds,
// and those killed peers left. It is safe to call from a signal
// handler's goroutine. After it, the sweep creates no more files.
func (r *Runner) RemoveFiles() {
	ws := r.close()
	for _, w := range ws {
		w.removeFiles()
	}
	if len(ws) == 0 || r.Config.Jobs > 1 {
		// No writer holds Coord and Shared to remove what killed peers
		// left: none started yet, or each job has the group's barrier.
		removeOrphans(r.FS, r.Shared, r.Coord, r.FS.Remove)
	}
}

// Abandon is for a second Ctrl-C: it starts removing the data files in a
// goroutine, waits at most wait for it, and returns the paths it could not
// confirm removed (still being created, removal hung in the kernel or
// failed), so the caller can name them and exit at once.
func (r *Runner) Abandon(wait time.Duration) []string {
	var mu sync.Mutex
	var out []string
	var wg sync.WaitGroup
	for _, w := range r.close() {
		wg.Go(func() {
			left := w.files.abandon(wait)
			mu.Lock()
			out = append(out, left...)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(out)
	return slices.Compact(out)
}
