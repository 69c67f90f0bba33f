package iobench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// Result is what a sweep measured, kept even when it fails part way.
type Result struct {
	Samples          []Sample          `json:"samples"`
	WarmupRan        bool              `json:"warmup_ran"`
	KeptFile         string            `json:"kept_file,omitempty"`
	ConvertMiBPerSec map[int64]float64 `json:"convert_mib_per_s,omitempty"` // in-memory pack speed per write size
	Adaptive         *Adaptive         `json:"adaptive,omitempty"`          // what --repeat auto did
	Incomplete       bool              `json:"incomplete"`
	LeftFiles        []LeftFile        `json:"left_files,omitempty"` // data files that could not be removed
	Verified         *Verified         `json:"verified,omitempty"`   // what --verify read back and checked
	// Variants names the variants of an interleaved sweep in plan order,
	// the reference first; nil for a sweep of one.
	Variants []string `json:"variants,omitempty"`
	// VariantConvertMiBPerSec is each named variant's in-memory pack
	// speed per write size (ConvertMiBPerSec is the first variant's).
	VariantConvertMiBPerSec map[string]map[int64]float64 `json:"variant_convert_mib_per_s,omitempty"`
	// Jobs is how the writers of a sweep with Config.Jobs above 1 did:
	// Samples are then their aggregates, run by run.
	Jobs *JobsResult `json:"jobs,omitempty"`
}

// Verified counts what --verify read back and found as written.
type Verified struct {
	Files    int64 `json:"files"`
	Elements int64 `json:"elements"`
	Bytes    int64 `json:"bytes"`
}

// LeftFile is a data file iobench created and could not remove.
type LeftFile struct {
	Path string `json:"path"`
	Err  string `json:"error"`
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

// Runner runs one sweep. Set the fields, then call Run once.
type Runner struct {
	Config   Config
	FS       FS
	Observer Observer    // may be nil
	Coord    Coordinator // may be nil
	Shared   *Shared     // nil: a file per process
	Prefix   string      // data file name prefix; default: unique per process

	data     variantSet // every variant's data; Config is the current one's plan
	prefix   string
	moved    atomic.Int64 // bytes of the current run, for progress bars
	verified Verified     // what --verify checked so far
	phase    livePhase
	stop     atomic.Bool
	mu       sync.Mutex
	files    map[string]FileID // data files created and not yet removed
	left     []LeftFile        // data files that could not be removed
	creating sync.WaitGroup    // creates in the kernel, for Abandon
	removing sync.WaitGroup    // removals under way, for Abandon
	closed   bool              // RemoveFiles ran: create nothing more
	kept     string
	readFile string
	readPeer *peerFile // with ReadShift: the other process's file the read runs read
	jobs     []*Runner // with Config.Jobs above 1, the writers Run runs

	overwrite string           // with Config.Overwrite: the one file every write run writes into
	lat       *latencyRecorder // with Config.Latency; reset for each run
}

// Progress is the number of bytes the current run has moved so far; safe
// to call from another goroutine.
// With several jobs it is job 0's.
func (r *Runner) Progress() int64 {
	if jobs := r.jobList(); len(jobs) > 0 {
		return jobs[0].Progress()
	}
	return r.moved.Load()
}

// Run executes the plan. On failure or cancellation it returns the samples
// measured so far with Incomplete set, and has removed its data files.
func (r *Runner) Run(ctx context.Context) (res *Result, err error) {
	if r.Config.Jobs > 1 {
		return r.runJobs(ctx)
	}
	defer holdTermSignals()()
	res = &Result{Variants: r.Config.VariantNames()}
	defer func() {
		if r.Config.Verify {
			v := r.verified
			res.Verified = &v
		}
		r.teardown(res)
		if res.LeftFiles = r.LeftFiles(); len(res.LeftFiles) > 0 {
			err = errors.Join(err, &LeftFilesError{Files: res.LeftFiles})
		}
	}()
	done := make(chan struct{})
	defer close(done)
	go r.watch(ctx, done)
	if err := r.agree(r.setup()); err != nil {
		res.Incomplete = true
		if r.stop.Load() {
			err = fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
		}
		return res, err
	}
	err = r.sweep(res)
	if err != nil {
		res.Incomplete = true
		if r.stop.Load() {
			err = fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
		}
		return res, err
	}
	r.data.measureConversions(res)
	return res, nil
}

func (r *Runner) watch(ctx context.Context, done chan struct{}) {
	select {
	case <-ctx.Done():
		r.stop.Store(true)
	case <-done:
	}
}

func (r *Runner) agree(err error) error {
	if r.Coord == nil {
		return err
	}
	return r.Coord.Agree(err)
}

func (r *Runner) setup() error {
	if err := r.Config.Validate(); err != nil {
		return err
	}
	if err := r.setupIO(); err != nil {
		return err
	}
	var err error
	if r.prefix = r.Prefix; r.prefix == "" {
		if r.prefix, err = UniquePrefix(); err != nil {
			return err
		}
	}
	r.files = map[string]FileID{}
	r.phase.set(PhaseFill)
	defer r.phase.set(PhaseIdle)
	if err := r.data.setup(r.Config, r.stop.Load, r.moved.Store); err != nil {
		return err
	}
	r.Config = r.data.use("")
	return nil
}

func (r *Runner) teardown(res *Result) {
	if len(r.data.all) == 0 {
		return
	}
	if r.Config.Keep && !res.Incomplete {
		if r.kept == "" {
			r.kept = r.overwrite
		}
		if r.kept == "" {
			r.kept = r.readFile
		}
		res.KeptFile = r.keptPath()
		r.forget(r.kept)
	}
	r.RemoveFiles()
	r.data.free()
}

func (r *Runner) keptPath() string {
	if o, ok := r.FS.(Pather); ok && r.kept != "" {
		return o.Path(r.kept)
	}
	return r.kept
}

func (r *Runner) sweep(res *Result) error {
	if r.Config.Overwrite {
		if err := r.agree(r.layOut()); err != nil {
			return err
		}
	}
	if r.Config.Warmup {
		if err := r.agree(r.warmup()); err != nil {
			return err
		}
		res.WarmupRan = true
	}
	if r.Config.Mode != ModeWrite {
		if err := r.agree(r.prepareReadFile()); err != nil {
			return err
		}
		if err := r.agree(r.shiftReadFile()); err != nil {
			return err
		}
	}
	rng := PlanRand(r.data.plan)
	var auto *autoRounds
	if r.Config.Auto {
		auto = newAutoRounds(r.data.plan, time.Now())
		defer func() { res.Adaptive = &auto.log }()
	}
	sizes := r.Config.Sizes
	for round := 1; len(sizes) > 0; round++ {
		runs := RoundRuns(r.data.plan, round, sizes, rng, len(res.Samples))
		if r.Observer != nil {
			r.Observer.RoundPlanned(round, runs)
		}
		for _, run := range runs {
			r.Config = r.data.use(run.Variant)
			s, err := r.coordinated(run)
			if err != nil {
				return err
			}
			res.Samples = append(res.Samples, s)
		}
		var err error
		if sizes, err = r.nextRound(auto, res.Samples, round, sizes); err != nil {
			return err
		}
	}
	return r.readsDone()
}

// nextRound is the sizes of the round after round: every size until Repeat
// rounds ran, or what the adaptive plan decides (on one process, for all).
func (r *Runner) nextRound(auto *autoRounds, samples []Sample, round int, sizes []int64) ([]int64, error) {
	if auto == nil {
		if round < r.Config.Repeat {
			return r.Config.Sizes, nil
		}
		return nil, nil
	}
	decide := func(all []Sample) []int64 { return auto.next(all, round, sizes, time.Now()) }
	if d, ok := r.Coord.(Decider); ok {
		return d.Decide(samples, decide)
	}
	return decide(samples), nil
}

// coordinated runs one timed pass between the coordinator's barriers:
// flush (untimed), line up, run, agree on failure, then remove the file,
// so no rank deletes a shared file another is still writing.
func (r *Runner) coordinated(run Run) (Sample, error) {
	if err := r.agree(r.prepare(run)); err != nil {
		return Sample{}, err
	}
	if r.Shared != nil && run.Mode == ModeWrite {
		if err := r.agree(r.shareID()); err != nil {
			return Sample{}, err
		}
	}
	if r.Observer != nil {
		r.Observer.RunStarted(run)
	}
	s, name, err := r.runOnce(run)
	err = r.agree(err)
	switch {
	case name == "":
	case err != nil: // every rank is stopping: no more collectives
		err = errors.Join(err, r.release(name, true))
	default:
		err = r.agree(r.release(name, false))
	}
	if err == nil && r.Observer != nil {
		r.Observer.RunFinished(s)
	}
	return s, err
}

// prepare does a run's untimed work: flush, and create a shared file.
func (r *Runner) prepare(run Run) error {
	if r.stop.Load() {
		return ErrInterrupted
	}
	r.phase.set(PhaseSync)
	defer r.phase.set(PhaseIdle)
	if err := r.FS.Sync(r.Config.Sync); err != nil {
		return fmt.Errorf("sync before the %d-byte run: %w", run.WriteSize, describedError{err})
	}
	if p, ok := r.FS.(RunPreparer); ok {
		p.PrepareRun(run)
	}
	if run.Mode == ModeWrite {
		return r.PrepareShared()
	}
	return nil
}

func (r *Runner) runOnce(run Run) (Sample, string, error) {
	if run.Mode == ModeRead {
		s, err := r.readRun(run)
		return s, "", err
	}
	if r.Shared != nil {
		s, err := r.sharedWriteRun(run)
		return s, r.Shared.Name, err
	}
	if r.overwrite != "" { // kept until the end: no name to release
		s, err := r.overwriteRun(run)
		return s, "", err
	}
	name, s, err := r.writeFile(run, fmt.Sprint(run.Seq), r.Config.TimeLimit)
	return s, name, err
}

// release removes a written file once every rank is done with it, or keeps
// it for --keep (removing the one kept before).
func (r *Runner) release(name string, failed bool) error {
	if r.Shared != nil && !r.Shared.Creator {
		return r.releaseShared(name, failed)
	}
	if !r.Config.Keep {
		return r.remove(name)
	}
	var err error
	if r.kept != "" && r.kept != name {
		err = r.remove(r.kept)
	}
	r.kept = name
	return err
}

// warmup writes the data once, untimed, so the first timed run does not pay
// for first-touch page faults and cold caches. With reads it reads once too.
func (r *Runner) warmup() error {
	if r.Observer != nil {
		r.Observer.WarmupStarted()
	}
	run := Run{Mode: ModeWrite, WriteSize: r.Config.MaxSize()}
	if r.overwrite != "" {
		if _, err := r.overwriteRun(run); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
		return nil
	}
	name, _, err := r.writeFile(run, "warmup", r.Config.TimeLimit)
	if err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return r.remove(name)
}

func (r *Runner) prepareReadFile() error {
	run := Run{Mode: ModeWrite, WriteSize: r.Config.MaxSize()}
	name, _, err := r.writeFile(run, "read", noTimeLimit)
	if err != nil {
		return fmt.Errorf("writing the file for read runs: %w", err)
	}
	r.readFile = name
	if r.Config.Warmup {
		_, err = r.readPass(Run{Mode: ModeRead, WriteSize: r.Config.MaxSize()})
	}
	return err
}

func (r *Runner) readRun(run Run) (Sample, error) {
	name, id := r.readTarget()
	if err := r.FS.DropCache(name, id, r.Config.Drop); err != nil {
		return Sample{}, fmt.Errorf("dropping cached pages before the %d-byte read run: %w", run.WriteSize, err)
	}
	return r.readPass(run)
}

// writeFile creates a data file and writes the data to it in calls of
// run.WriteSize bytes, timed from open to close (with Preallocate, the
// file is created and allocated before the clock starts). The file is
// left in place. The pass stops at limit.
func (r *Runner) writeFile(run Run, tag string, limit time.Duration) (string, Sample, error) {
	var name string
	s := Sample{Run: run}
	open, err := r.newFile(tag, &name)
	if err == nil {
		s, err = r.timed(run, limit, open, (*pass).write)
	}
	if err == nil && r.Config.Verify {
		err = r.verifyRun(name, s)
	}
	if err != nil {
		_ = r.remove(name)
		return "", s, r.runError(run, name, s.Bytes, err)
	}
	return name, s, nil
}

// verifyRun reads back what the run s wrote and counts it as checked.
func (r *Runner) verifyRun(name string, s Sample) error {
	elems := s.Bytes / r.Config.ElemSize()
	f, err := r.FS.Open(name, r.id(name), false)
	if err != nil {
		return wrapOp("open for verify", err)
	}
	defer f.Close()
	if err := r.data.cur.verify(f, r.displayPath(name), elems); err != nil {
		return err
	}
	r.verified.Files++
	r.verified.Elements += elems
	r.verified.Bytes += elems * r.Config.ElemSize()
	return nil
}

// timed is one timed pass (pass.time) with the current variant's data.
func (r *Runner) timed(run Run, limit time.Duration, open func() (File, error), move func(*pass, File, *Sample) error) (Sample, error) {
	p := &pass{cfg: r.Config, data: r.data.cur, scratch: r.data.readScratch, limit: limit, stop: &r.stop, moved: &r.moved, phase: &r.phase}
	if r.lat != nil {
		r.lat.reset(uint64(run.Seq)*randomGamma + uint64(run.WriteSize))
		p.lat = r.lat
	}
	return p.time(run, open, move)
}

func (r *Runner) runError(run Run, name string, bytes int64, err error) error {
	if errors.Is(err, ErrInterrupted) {
		return err
	}
	var verr *VerifyError
	if errors.As(err, &verr) {
		return err
	}
	op := "write"
	if run.Mode == ModeRead {
		op = "read"
	}
	var oe *opError
	if errors.As(err, &oe) {
		op, err = oe.op, oe.err
	}
	return &RunError{Op: op, Run: run, Bytes: bytes, Path: r.displayPath(name), Err: err}
}

func (r *Runner) displayPath(name string) string {
	if o, ok := r.FS.(Pather); ok {
		return o.Path(name)
	}
	return name
}

func (r *Runner) readPass(run Run) (Sample, error) {
	name, id := r.readTarget()
	s, err := r.timed(run, r.Config.TimeLimit, func() (File, error) { return r.FS.Open(name, id, r.Config.Direct) }, (*pass).read)
	if err != nil {
		return s, r.runError(run, name, s.Bytes, err)
	}
	return s, nil
}

func (r *Runner) create(tag string) (string, File, error) {
	var lastErr error
	for attempt := 0; attempt < 10; attempt++ {
		name := fmt.Sprintf("%s-%s-%d.dat", r.prefix, tag, attempt)
		f, err := r.createTracked(name, r.Config.Direct)
		if err == nil {
			return name, f, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return name, nil, err
		}
		lastErr = err
	}
	return "", nil, lastErr
}

// createTracked creates a file and records it, so RemoveFiles never
// misses a file and no file is made after it ran. Only tracked files are
// ever removed. The lock is never held across a system call: a call hung
// in the kernel must not keep a second Ctrl-C from listing the files.
func (r *Runner) createTracked(name string, direct bool) (File, error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, ErrInterrupted
	}
	r.files[name] = inFlight
	r.creating.Add(1)
	defer r.creating.Done()
	r.mu.Unlock()
	f, id, err := r.FS.Create(name, direct)
	r.mu.Lock()
	closed := r.closed
	switch {
	case err != nil:
		delete(r.files, name)
	case closed: // RemoveFiles ran while the create was in the kernel
		delete(r.files, name)
	default:
		r.files[name] = id
	}
	r.mu.Unlock()
	if err == nil && closed {
		f.Close()
		r.removeUntracked(name, id)
		return nil, ErrInterrupted
	}
	return f, err
}

// inFlight marks a file whose create has not returned yet.
var inFlight = FileID{}

// id is the identity Create gave a data file this runner holds.
func (r *Runner) id(name string) FileID {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.files[name]
}

func (r *Runner) forget(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.files, name)
}

// remove deletes a data file, but only one this runner created and holds.
func (r *Runner) remove(name string) error {
	r.mu.Lock()
	id, held := r.files[name]
	if !held || id == inFlight {
		r.mu.Unlock()
		return nil
	}
	delete(r.files, name)
	r.removing.Add(1)
	defer r.removing.Done()
	r.mu.Unlock()
	if err := r.removeUntracked(name, id); err != nil {
		return fmt.Errorf("removing data file: %w", describedError{err})
	}
	return nil
}

// removeUntracked removes one file no longer in the table and records it
// as left behind when that fails; a file already gone is not a leftover.
func (r *Runner) removeUntracked(name string, id FileID) error {
	r.phase.set(PhaseRemove)
	defer r.phase.set(PhaseIdle)
	err := r.FS.Remove(name, id)
	if err == nil || errors.Is(err, os.ErrNotExist) {
		return nil
	}
	r.mu.Lock()
	r.left = append(r.left, LeftFile{Path: r.displayPath(name), Err: DescribePath(err)})
	r.mu.Unlock()
	return err
}

// LeftFiles are the data files that could not be removed, with the cause.
func (r *Runner) LeftFiles() []LeftFile {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.left)
}

// RemoveFiles deletes every data file this runner created and still holds.
// It is safe to call from a signal handler's goroutine.
// After it, the runner creates no more files.
func (r *Runner) RemoveFiles() {
	for _, j := range r.closeJobs() {
		j.RemoveFiles()
	}
	r.removeAll(nil)
	r.removeOrphans()
}

// removeAll removes the held files, calling done with each one's name
// once its removal returned.
func (r *Runner) removeAll(done func(name string)) {
	defer holdTermSignals()()
	r.mu.Lock()
	r.closed = true
	held := map[string]FileID{}
	for n, id := range r.files {
		if id != inFlight { // its creator removes it when Create returns
			held[n] = id
			delete(r.files, n)
		}
	}
	if len(held) > 0 { // after Abandon took every file, none: no Add races its Wait
		r.removing.Add(1)
		defer r.removing.Done()
	}
	r.mu.Unlock()
	for n, id := range held {
		_ = r.removeUntracked(n, id)
		if done != nil {
			done(n)
		}
	}
}

// Abandon is for a second Ctrl-C: it starts removing the data files in a
// goroutine, waits at most wait for it, and returns the paths it could not
// confirm removed (still being created, removal hung in the kernel or
// failed), so the caller can name them and exit at once.
func (r *Runner) Abandon(wait time.Duration) []string {
	if jobs := r.closeJobs(); len(jobs) > 0 {
		return abandonJobs(jobs, wait)
	}
	r.mu.Lock()
	pending := map[string]bool{}
	for n := range r.files {
		pending[n] = true
	}
	r.mu.Unlock()
	var mu sync.Mutex
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		r.removeAll(func(n string) {
			mu.Lock()
			delete(pending, n)
			mu.Unlock()
		})
		// A create in flight removes its own file once it returns (or
		// records it as left), and the sweep's own teardown may be
		// removing some: wait for those too.
		r.creating.Wait()
		r.removing.Wait()
		mu.Lock()
		clear(pending)
		mu.Unlock()
	}()
	select {
	case <-finished:
	case <-time.After(wait):
	}
	mu.Lock()
	defer mu.Unlock()
	var out []string
	for n := range pending {
		out = append(out, r.displayPath(n))
	}
	r.mu.Lock()
	for _, l := range r.left {
		out = append(out, l.Path)
	}
	r.mu.Unlock()
	slices.Sort(out)
	return slices.Compact(out)
}
