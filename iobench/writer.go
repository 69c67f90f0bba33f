package iobench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// writer runs one writer's sweep: this process's, or one job's of
// several (jobGroup). Its fields are the plan, what it runs on, its data
// and the files it holds; the rest of a run is the pass's.
type writer struct {
	cfg      Config      // the current variant's plan
	fs       FS          // with Config.OpenSync, opening files for it
	observer Observer    // may be nil
	coord    Coordinator // may be nil
	shared   *Shared     // nil: a file of its own
	prefix   string      // of its data file names; setup makes one if ""

	data     variantSet   // every variant's data
	moved    atomic.Int64 // bytes of the current run, for progress bars
	verified Verified     // what --verify checked so far
	phase    livePhase
	stop     atomic.Bool
	files    *fileTable // the data files it holds
	read     readFile   // what read runs read

	overwrite string           // with Config.Overwrite: the one file every write run writes into
	lat       *latencyRecorder // with Config.Latency; reset for each run
	timer     startTimer       // arms each pass's time limit
	// planErr is Config.Validate's answer, which the Runner asks once per
	// Run; setup agrees on it with the other ranks before any I/O.
	planErr error
}

// newWriter is a writer of the plan cfg on fs; shared is nil for a file
// of its own, prefix "" for a unique one.
func newWriter(cfg Config, fs FS, shared *Shared, prefix string) *writer {
	w := &writer{cfg: cfg, fs: openSyncFS(cfg.OpenSync, fs), shared: shared, prefix: prefix, timer: clockTimer}
	w.files = newFileTable(w.fs, &w.phase)
	return w
}

// run executes the plan. On failure or cancellation it returns the samples
// measured so far with Incomplete set, and has removed its data files.
func (w *writer) run(ctx context.Context) (res *Result, err error) {
	defer holdTermSignals()()
	res = &Result{Variants: w.cfg.VariantNames()}
	defer func() {
		if w.cfg.Verify {
			v := w.verified
			res.Verified = &v
		}
		w.teardown(res)
		if res.LeftFiles = w.files.leftFiles(); len(res.LeftFiles) > 0 {
			err = errors.Join(err, &LeftFilesError{Files: res.LeftFiles})
		}
	}()
	stopWatching := context.AfterFunc(ctx, func() { w.stop.Store(true) })
	defer stopWatching()
	if err = w.agree(w.setup()); err == nil {
		err = w.sweep(res)
	}
	if err != nil {
		res.Incomplete = true
		if w.stop.Load() {
			err = fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
		}
		return res, err
	}
	w.data.measureConversions(res)
	return res, nil
}

func (w *writer) agree(err error) error {
	if w.coord == nil {
		return err
	}
	return w.coord.Agree(err)
}

func (w *writer) setup() error {
	if w.planErr != nil {
		return w.planErr
	}
	if err := w.setupIO(); err != nil {
		return err
	}
	if err := w.files.pinDir(); err != nil {
		return err
	}
	if w.prefix == "" {
		var err error
		if w.prefix, err = UniquePrefix(); err != nil {
			return err
		}
	}
	w.phase.set(PhaseFill)
	defer w.phase.set(PhaseIdle)
	if err := w.data.setup(w.cfg, w.stop.Load, w.moved.Store); err != nil {
		return err
	}
	w.cfg = w.data.use("")
	return nil
}

func (w *writer) teardown(res *Result) {
	if len(w.data.all) == 0 { // setup stopped before it made any
		return
	}
	if w.cfg.Keep && !res.Incomplete {
		res.KeptFile = w.files.keepLast(w.overwrite, w.read.own)
	}
	w.removeFiles()
	w.data.free()
}

func (w *writer) sweep(res *Result) error {
	if w.cfg.Overwrite {
		if err := w.agree(w.layOut()); err != nil {
			return err
		}
	}
	if w.cfg.Warmup {
		if err := w.agree(w.warmup()); err != nil {
			return err
		}
		res.WarmupRan = true
	}
	if w.cfg.Mode != ModeWrite {
		if err := w.agree(w.prepareReadFile()); err != nil {
			return err
		}
		if err := w.agree(w.shiftReadFile()); err != nil {
			return err
		}
	}
	rng := PlanRand(w.data.plan)
	var auto *autoRounds
	if w.cfg.Auto {
		auto = newAutoRounds(w.data.plan, time.Now())
		defer func() { res.Adaptive = &auto.log }()
	}
	sizes := w.cfg.Sizes
	for round := 1; len(sizes) > 0; round++ {
		runs := RoundRuns(w.data.plan, round, sizes, rng, len(res.Samples))
		if w.observer != nil {
			w.observer.RoundPlanned(round, runs)
		}
		for _, run := range runs {
			w.cfg = w.data.use(run.Variant)
			s, err := w.coordinated(run)
			if err != nil {
				return err
			}
			res.Samples = append(res.Samples, s)
		}
		var err error
		if sizes, err = w.nextRound(auto, res.Samples, round, sizes); err != nil {
			return err
		}
	}
	return w.readsDone()
}

// nextRound is the sizes of the round after round: every size until Repeat
// rounds ran, or what the adaptive plan decides (on one process, for all).
func (w *writer) nextRound(auto *autoRounds, samples []Sample, round int, sizes []int64) ([]int64, error) {
	if auto == nil {
		if round < w.cfg.Repeat {
			return w.cfg.Sizes, nil
		}
		return nil, nil
	}
	decide := func(all []Sample) []int64 { return auto.next(all, round, sizes, time.Now()) }
	if d, ok := w.coord.(Decider); ok {
		return d.Decide(samples, decide)
	}
	return decide(samples), nil
}

// coordinated runs one timed pass between the coordinator's barriers:
// flush (untimed), line up, run, agree on failure, then remove the file,
// so no rank deletes a shared file another is still writing.
func (w *writer) coordinated(run Run) (Sample, error) {
	if err := w.agree(w.prepare(run)); err != nil {
		return Sample{}, err
	}
	if w.shared != nil && run.Mode == ModeWrite {
		if err := w.agree(w.shared.shareID(w.coord, w.files)); err != nil {
			return Sample{}, err
		}
	}
	if w.observer != nil {
		w.observer.RunStarted(run)
	}
	s, name, err := w.runOnce(run)
	err = w.agree(err)
	switch {
	case name == "":
	case err != nil: // every rank is stopping: no more collectives
		err = errors.Join(err, w.release(name, true))
	default:
		err = w.agree(w.release(name, false))
	}
	if err == nil && w.observer != nil {
		w.observer.RunFinished(s)
	}
	return s, err
}

// prepare does a run's untimed work: flush, and create a shared file.
func (w *writer) prepare(run Run) error {
	if w.stop.Load() {
		return ErrInterrupted
	}
	if err := w.files.dirReplaced(); err != nil {
		return err
	}
	w.phase.set(PhaseSync)
	defer w.phase.set(PhaseIdle)
	if err := w.fs.Sync(w.cfg.Sync); err != nil {
		return fmt.Errorf("sync before the %d-byte run: %w", run.WriteSize, describedError{err})
	}
	if p, ok := w.fs.(RunPreparer); ok {
		p.PrepareRun(run)
	}
	if run.Mode == ModeWrite {
		return w.shared.prepare(w.files)
	}
	return nil
}

func (w *writer) runOnce(run Run) (Sample, string, error) {
	if run.Mode == ModeRead {
		s, err := w.readRun(run)
		return s, "", err
	}
	if w.shared != nil {
		s, err := w.sharedWriteRun(run)
		return s, w.shared.Name, err
	}
	if w.overwrite != "" { // kept until the end: no name to release
		s, err := w.overwriteRun(run)
		return s, "", err
	}
	name, s, err := w.writeFile(run, fmt.Sprint(run.Seq), w.cfg.TimeLimit)
	return s, name, err
}

// release removes a written file once every rank is done with it, or keeps
// it for --keep (removing the one kept before).
func (w *writer) release(name string, failed bool) error {
	if w.shared != nil && !w.shared.Creator {
		return w.shared.release(w.files, failed && !w.cfg.Keep)
	}
	if !w.cfg.Keep {
		return w.files.remove(name)
	}
	return w.files.keep(name)
}

// warmup writes the data once, untimed, so the first timed run does not pay
// for first-touch page faults and cold caches. With reads it reads once too.
func (w *writer) warmup() error {
	if w.observer != nil {
		w.observer.WarmupStarted()
	}
	run := Run{Mode: ModeWrite, WriteSize: w.cfg.MaxSize()}
	if w.overwrite != "" {
		if _, err := w.overwriteRun(run); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
		return nil
	}
	name, _, err := w.writeFile(run, "warmup", w.cfg.TimeLimit)
	if err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return w.files.remove(name)
}

func (w *writer) prepareReadFile() error {
	run := Run{Mode: ModeWrite, WriteSize: w.cfg.MaxSize()}
	name, _, err := w.writeFile(run, "read", noTimeLimit)
	if err != nil {
		return fmt.Errorf("writing the file for read runs: %w", err)
	}
	w.read.own = name
	if w.cfg.Warmup {
		_, err = w.readPass(Run{Mode: ModeRead, WriteSize: w.cfg.MaxSize()})
	}
	return err
}

func (w *writer) readRun(run Run) (Sample, error) {
	name, id := w.read.target(w.files)
	if err := w.fs.DropCache(name, id, w.cfg.Drop); err != nil {
		return Sample{}, fmt.Errorf("dropping cached pages before the %d-byte read run: %w", run.WriteSize, err)
	}
	return w.readPass(run)
}

func (w *writer) readPass(run Run) (Sample, error) {
	name, id := w.read.target(w.files)
	s, err := w.timed(run, w.cfg.TimeLimit, func() (File, error) { return w.fs.Open(name, id, w.cfg.Direct) }, (*pass).read)
	if err != nil {
		return s, runError(run, w.files.path(name), s.Bytes, err)
	}
	return s, nil
}

// writeFile creates a data file and writes the data to it in calls of
// run.WriteSize bytes, timed from open to close (with Preallocate, the
// file is created and allocated before the clock starts). The file is
// left in place. The pass stops at limit.
func (w *writer) writeFile(run Run, tag string, limit time.Duration) (string, Sample, error) {
	var name string
	s := Sample{Run: run}
	open, err := w.newFile(tag, &name)
	if err == nil {
		s, err = w.timed(run, limit, open, (*pass).write)
	}
	if err == nil && w.cfg.Verify {
		err = w.verifyRun(name, s)
	}
	if err != nil {
		_ = w.files.remove(name)
		return "", s, runError(run, w.files.path(name), s.Bytes, err)
	}
	return name, s, nil
}

// verifyRun reads back what the run s wrote and counts it as checked.
func (w *writer) verifyRun(name string, s Sample) error {
	elems := s.Bytes / w.cfg.ElemSize()
	f, err := w.fs.Open(name, w.files.id(name), false)
	if err != nil {
		return wrapOp("open for verify", err)
	}
	defer f.Close()
	if err := w.data.cur.verify(f, w.files.path(name), elems); err != nil {
		return err
	}
	w.verified.Files++
	w.verified.Elements += elems
	w.verified.Bytes += elems * w.cfg.ElemSize()
	return nil
}

// timed is one timed pass (pass.time) with the current variant's data.
func (w *writer) timed(run Run, limit time.Duration, open func() (File, error), move func(*pass, File, *Sample) error) (Sample, error) {
	p := &pass{cfg: w.cfg, data: w.data.cur, scratch: w.data.readScratch, limit: limit, timer: w.timer, stop: &w.stop, moved: &w.moved, phase: &w.phase}
	if w.lat != nil {
		w.lat.reset(uint64(run.Seq)*randomGamma + uint64(run.WriteSize))
		p.lat = w.lat
	}
	return p.time(run, open, move)
}

// removeFiles deletes every data file this writer created and still
// holds, and those of killed peers (removeOrphans). It is safe to call
// from a signal handler's goroutine. After it, the writer creates no
// more files.
func (w *writer) removeFiles() {
	w.files.removeAll()
	removeOrphans(w.fs, w.shared, w.coord, w.files.removeAdopted)
}
