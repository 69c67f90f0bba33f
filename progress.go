package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
)

// liveObserver prints one line per finished run on stderr and, on a
// terminal, keeps a progress bar below them. The bar polls the runner's
// byte counter, so the timed loop only stores one integer per write. It
// follows the plan as the engine announces it: an adaptive sweep's bar
// grows by each round it adds, and its time left is bounded by the budget.
type liveObserver struct {
	w       io.Writer
	runner  *iobench.Runner
	cfg     iobench.Config
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
	planned int   // runs announced so far
	round   int   // the round running
	roundN  int   // runs in the round running
	base    int64 // bytes of the runs already finished
	inRun   bool  // a timed run is moving bytes: count the runner's progress
	current string
	start   time.Time
	round2  time.Time // when round 2 was planned: round 1's end
	done    chan struct{}
	stopped sync.Once
}

func newLiveObserver(w io.Writer, r *iobench.Runner, cfg iobench.Config, wantBar bool) *liveObserver {
	o := &liveObserver{w: w, runner: r, cfg: cfg, done: make(chan struct{})}
	if wantBar && isTerminal(w) {
		// The bar draws; the description carries exact units (MiB) and an
		// estimate over the whole sweep, not the library's per-second rate.
		o.bar = progressbar.NewOptions64(int64(cfg.Runs())*cfg.TotalBytes(),
			progressbar.OptionSetWriter(w), progressbar.OptionSetPredictTime(false),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(30))
		go o.poll()
	}
	return o
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (o *liveObserver) poll() {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-o.done:
			return
		case <-t.C:
			o.mu.Lock()
			o.update()
			o.mu.Unlock()
		}
	}
}

func (o *liveObserver) WarmupStarted() {
	o.printLine(fmt.Sprintf("warm-up: one untimed pass of %s at %s per call",
		humanize.IBytes(uint64(o.cfg.TotalBytes())), knee.FormatSize(o.cfg.MaxSize())))
}

func (o *liveObserver) RoundPlanned(round int, runs []iobench.Run) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.round, o.roundN = round, len(runs)
	o.planned += len(runs)
	if round == 2 {
		o.round2 = time.Now()
	}
	if o.bar != nil {
		o.bar.ChangeMax64(o.expectedBytes())
	}
}

// expectedBytes is the sweep's size as planned so far: all of a fixed
// plan; for an adaptive one the rounds announced, and up to MinAutoRounds
// rounds like the current one.
func (o *liveObserver) expectedBytes() int64 {
	runs := o.cfg.Runs()
	if o.cfg.Auto {
		runs = o.planned + max(0, iobench.MinAutoRounds-o.round)*o.roundN
	}
	return int64(runs) * o.cfg.TotalBytes()
}

func (o *liveObserver) RunStarted(r iobench.Run) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.start.IsZero() {
		o.start = time.Now() // after the warm-up, which the bar does not count
	}
	o.inRun = true
	o.current = fmt.Sprintf("%s %s (run %d of %s, %s)", r.Mode, knee.FormatSize(r.WriteSize), r.Seq, o.runsWord(), o.roundWord(r.Round))
}

func (o *liveObserver) runsWord() string {
	if o.cfg.Auto {
		return fmt.Sprintf("%d so far", o.planned)
	}
	return fmt.Sprint(o.cfg.Runs())
}

func (o *liveObserver) roundWord(round int) string {
	if o.cfg.Auto {
		return fmt.Sprintf("round %d, auto", round)
	}
	return fmt.Sprintf("round %d/%d", round, o.cfg.Repeat)
}

// update redraws the bar; the warm-up is shown but not counted.
func (o *liveObserver) update() {
	if o.start.IsZero() {
		o.bar.Describe(fmt.Sprintf("warm-up (untimed) %s of %s", humanize.IBytes(uint64(o.runner.Progress())), humanize.IBytes(uint64(o.cfg.TotalBytes()))))
		return
	}
	done := o.base
	if o.inRun {
		done += min(o.runner.Progress(), o.cfg.TotalBytes())
	}
	_ = o.bar.Set64(done)
	o.bar.Describe(o.describe(done))
}

// describe says where the sweep is: current size, bytes written of all
// planned, and the time left at the average rate so far; an adaptive
// sweep's time left is at most what its budget leaves.
func (o *liveObserver) describe(done int64) string {
	total := o.expectedBytes()
	left := "?"
	if done > 0 {
		el := time.Since(o.start)
		d := time.Duration(float64(el) * float64(total-done) / float64(done))
		if budget := o.budget(); budget > 0 {
			d = max(0, min(d, budget-el))
		}
		left = d.Round(time.Second).String()
	}
	return fmt.Sprintf("%s %s of %s, %s left", o.current, humanize.IBytes(uint64(done)), humanize.IBytes(uint64(total)), left)
}

// budget is the adaptive sweep's time budget as the engine computes it,
// once known: --time-budget, or DefaultBudgetRounds x the first round.
func (o *liveObserver) budget() time.Duration {
	switch {
	case !o.cfg.Auto:
		return 0
	case o.cfg.TimeBudget > 0:
		return o.cfg.TimeBudget
	case !o.round2.IsZero():
		return iobench.DefaultBudgetRounds * o.round2.Sub(o.start)
	}
	return 0
}

func (o *liveObserver) RunFinished(s iobench.Sample) {
	o.mu.Lock()
	o.base += o.cfg.TotalBytes()
	o.inRun = false
	o.mu.Unlock()
	o.printLine(fmt.Sprintf("%-5s %9s %10d B  %s  %10.1f MiB/s  %8.3f s  %d calls",
		s.Mode, knee.FormatSize(s.WriteSize), s.WriteSize, o.roundWord(s.Round), s.MiBPerSec(), s.Seconds, s.Calls))
}

func (o *liveObserver) printLine(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.bar != nil {
		_ = o.bar.Clear()
	}
	fmt.Fprintln(o.w, line)
}

func (o *liveObserver) stop() {
	o.stopped.Do(func() {
		close(o.done)
		if o.bar != nil {
			_ = o.bar.Finish()
		}
	})
}
