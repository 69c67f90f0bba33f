package runtimes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

// Observer hears about a plan as it runs, from the goroutine that called
// Measure. total is the steps planned so far: all of a fixed plan; for an
// adaptive one the rounds announced, and up to iobench.MinAutoRounds
// rounds of every case.
type Observer interface {
	WarmupStarted(c libcheck.Case)
	// RoundPlanned announces a round's steps before the first of them;
	// adaptive rounds are planned each after the one before.
	RoundPlanned(round int, steps []libcheck.Step)
	StepStarted(s libcheck.Step, total int)
	StepFinished(s libcheck.Sample, total int)
}

// Measure runs the plan's steps with w, one writer process at a time,
// each on a new data file that Run removes on every path, round by round
// (adaptive rounds for p.Auto). It stops at the first error or when ctx
// is cancelled, and then returns the samples so far with Incomplete set.
// obs may be nil.
func (w *Writer) Measure(ctx context.Context, p libcheck.Plan, obs Observer) (*libcheck.Result, error) {
	res := &libcheck.Result{}
	if err := p.Validate(); err != nil {
		return res, err
	}
	fs := iobench.OSFS{Dir: p.Dir}
	sched := p.Schedule(w.rt, time.Now())
	steps := sched.First()
	if p.Warmup {
		if obs != nil {
			obs.WarmupStarted(steps[0].Case)
		}
		if err := w.warmup(ctx, p, steps[0].Case, fs); err != nil {
			res.Incomplete = true
			return res, interrupted(ctx, err)
		}
		res.WarmupRan = true
	}
	defer func() { res.Adaptive = sched.Adaptive() }()
	for round := 1; len(steps) > 0; round++ {
		if obs != nil {
			obs.RoundPlanned(round, steps)
		}
		total := sched.Total(len(res.Samples))
		for _, s := range steps {
			if err := w.step(ctx, p, s, fs, obs, total, res); err != nil {
				res.Incomplete = true
				return res, interrupted(ctx, err)
			}
		}
		steps = sched.Next(res.Samples, time.Now())
	}
	return res, nil
}

// interrupted is err, or for a cancelled ctx iobench.ErrInterrupted with
// the cause, as the write(2) sweep reports it.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	var left *iobench.LeftFilesError
	if errors.As(err, &left) {
		return fmt.Errorf("%w: %w; %w", iobench.ErrInterrupted, context.Cause(ctx), left)
	}
	return fmt.Errorf("%w: %w", iobench.ErrInterrupted, context.Cause(ctx))
}

// warmup is one untimed run of c, seq 0.
func (w *Writer) warmup(ctx context.Context, p libcheck.Plan, c libcheck.Case, fs iobench.FS) error {
	if err := flush(ctx, fs, p.Sync); err != nil {
		return err
	}
	_, err := w.Run(ctx, p.JobFor(c, 0, w.rt))
	return err
}

func (w *Writer) step(ctx context.Context, p libcheck.Plan, s libcheck.Step, fs iobench.FS, obs Observer, total int, res *libcheck.Result) error {
	if err := flush(ctx, fs, p.Sync); err != nil {
		return err
	}
	if obs != nil {
		obs.StepStarted(s, total)
	}
	m, err := w.Run(ctx, p.JobFor(s.Case, s.Seq, w.rt))
	if err != nil {
		return err
	}
	sm := libcheck.Sample{Step: s, Nanos: m.Nanos, Bytes: m.Bytes, WriteCalls: m.WriteCalls, WrittenBytes: m.WrittenBytes, RuntimeConvert: m.RuntimeConvert,
		OverheadCalls: m.OverheadCalls, PackNanos: m.PackNanos, SlowestNanos: m.SlowestNanos, RankCalls: m.RankCalls}
	res.Samples = append(res.Samples, sm)
	if obs != nil {
		obs.StepFinished(sm, total)
	}
	return nil
}

// flush syncs the file system before a run, outside the timing, as the
// write(2) sweep does; a cancelled ctx stops before it.
func flush(ctx context.Context, fs iobench.FS, mode iobench.SyncMode) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if mode == "" || mode == iobench.SyncNone {
		return nil
	}
	return fs.Sync(mode)
}
