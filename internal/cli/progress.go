package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/units"
)

// liveObserver prints one line per finished run on stderr and, on a
// terminal, keeps a progress bar below them. The bar polls the runner's
// byte counter, so the timed loop only stores one integer per write. It
// follows the plan as the engine announces it: an adaptive sweep's bar
// grows by each round it adds, and its time left is bounded by the budget.
type liveObserver struct {
	w      io.Writer
	runner progressSource
	cfg    iobench.Config
	runs   int // runs of a fixed plan
	// budgetRounds sets an adaptive plan's default budget: this many
	// times the first round.
	budgetRounds int
	mu           sync.Mutex
	bar          *progressbar.ProgressBar
	planned      int   // runs announced so far
	round        int   // the round running
	roundN       int   // runs in the round running
	base         int64 // bytes of the runs already finished
	inRun        bool  // a timed run is moving bytes: count the runner's progress
	current      string
	start        time.Time
	round2       time.Time // when round 2 was planned: round 1's end
	shown        int64     // bar position, in barSteps: never moves back
	done         chan struct{}
	stopped      sync.Once
}

// barSteps is the bar's resolution. The bar shows the share done of the
// plan as known now; an adaptive plan grows, so the share can shrink, and
// the bar then waits until it catches up rather than going back.
const barSteps = 10000

// lineWidth is what every live line fits in, bar included.
const lineWidth = 80

// progressSource is what the bar polls: the bytes the run in progress has
// moved, and what it is doing. *iobench.Runner is one.
type progressSource interface {
	Progress() int64
	Phase() iobench.Phase
}

func newLiveObserver(w io.Writer, r progressSource, cfg iobench.Config, wantBar bool) *liveObserver {
	o := &liveObserver{w: w, runner: r, cfg: cfg, runs: cfg.Runs(), budgetRounds: iobench.DefaultBudgetRounds, done: make(chan struct{})}
	if wantBar && isTerminal(w) {
		// The bar draws; the description carries exact units (MiB) and an
		// estimate over the whole sweep, not the library's per-second rate.
		o.bar = progressbar.NewOptions64(barSteps,
			progressbar.OptionSetWriter(w), progressbar.OptionSetPredictTime(false),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(barWidth))
		go o.poll()
	}
	return o
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// sameTerminal: a and b are one terminal, as when neither is redirected.
func sameTerminal(a, b io.Writer) bool {
	fa, okA := a.(*os.File)
	fb, okB := b.(*os.File)
	if !okA || !okB || !isTerminal(a) || !isTerminal(b) {
		return false
	}
	sa, errA := fa.Stat()
	sb, errB := fb.Stat()
	return errA == nil && errB == nil && os.SameFile(sa, sb)
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
		humanize.IBytes(uint64(o.cfg.TotalBytes())), units.FormatSize(o.cfg.MaxSize())))
}

func (o *liveObserver) RoundPlanned(round int, runs []iobench.Run) { o.roundPlanned(round, len(runs)) }

// roundPlanned counts a round of n runs into the plan.
func (o *liveObserver) roundPlanned(round, n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.round, o.roundN = round, n
	o.planned += n
	if round == 2 {
		o.round2 = time.Now()
	}
}

// expectedBytes is the sweep's size as planned so far: all of a fixed
// plan; for an adaptive one the rounds announced, and up to MinAutoRounds
// rounds like the current one, but never less than the plan's first
// MinAutoRounds rounds, which are known before any round is announced.
func (o *liveObserver) expectedBytes() int64 {
	runs := o.runs
	if o.cfg.Auto && o.round > 0 {
		runs = max(runs, o.planned+max(0, iobench.MinAutoRounds-o.round)*o.roundN)
	}
	return int64(runs) * o.cfg.TotalBytes()
}

func (o *liveObserver) RunStarted(r iobench.Run) {
	o.runStarted(fmt.Sprintf("%s %s %s%s", r.Mode, units.FormatSize(r.WriteSize), o.roundWord(r.Round), variantTag(o.cfg, r.Variant)))
}

// runStarted starts counting a timed run, described by current.
func (o *liveObserver) runStarted(current string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.start.IsZero() {
		o.start = time.Now() // after the warm-up, which the bar does not count
	}
	o.inRun = true
	o.current = current
}

// roundWord is "r3/10", or "r3 auto" in an adaptive sweep.
func (o *liveObserver) roundWord(round int) string {
	if o.cfg.Auto {
		return fmt.Sprintf("r%d auto", round)
	}
	return fmt.Sprintf("r%d/%d", round, o.cfg.Repeat)
}

// barWidth leaves the description lineWidth less the bar, its frame and
// the percentage.
const (
	barWidth  = 20
	descWidth = lineWidth - barWidth - 10
)

// update redraws the bar. Filling the array and the warm-up come first on
// it (untimed, but time the user waits), then the sweep's runs.
func (o *liveObserver) update() {
	fill, warm := o.cfg.SourceBytes(), int64(0)
	if o.cfg.Warmup {
		warm = o.cfg.TotalBytes()
	}
	var desc string
	var done int64
	switch {
	case o.start.IsZero() && o.runner.Phase() == iobench.PhaseFill:
		done = min(o.runner.Progress(), fill)
		desc = fmt.Sprintf("filling the array %s of %s", humanize.IBytes(uint64(done)), humanize.IBytes(uint64(fill)))
	case o.start.IsZero():
		moved := min(o.runner.Progress(), warm)
		done = fill + moved
		desc = fmt.Sprintf("warm-up (untimed) %s of %s", humanize.IBytes(uint64(moved)), humanize.IBytes(uint64(warm)))
	default:
		run := o.base
		if o.inRun {
			run += min(o.runner.Progress(), o.cfg.TotalBytes())
		}
		done = fill + warm + run
		desc = o.describe(run)
	}
	o.bar.Describe(fit(desc))
	o.advance(done, fill+warm+o.expectedBytes())
}

// advance moves the bar to done of total, never back: an adaptive plan
// grows, and the bar then waits until the sweep catches up. It stops one
// step short of the end until stop: a bar at its end is finished and
// never drawn again, and an adaptive sweep may add a round.
func (o *liveObserver) advance(done, total int64) {
	if total > 0 {
		o.shown = max(o.shown, min(barSteps-1, done*barSteps/total))
	}
	_ = o.bar.Set64(o.shown)
}

// fit pads or cuts a description to descWidth, so the line never wraps
// (a wrapped line is not cleared and looks like the bar jumping).
func fit(s string) string {
	r := []rune(s)
	if len(r) > descWidth {
		return string(r[:descWidth-1]) + "…"
	}
	return s + strings.Repeat(" ", descWidth-len(r))
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
	return fmt.Sprintf("%s %s/%s %s left", o.current, humanize.IBytes(uint64(done)), humanize.IBytes(uint64(total)), left)
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
		return time.Duration(o.budgetRounds) * o.round2.Sub(o.start)
	}
	return 0
}

func (o *liveObserver) RunFinished(s iobench.Sample) {
	o.runFinished(runLine(s, o.roundWord(s.Round)+variantTag(o.cfg, s.Variant)))
}

// runFinished counts a timed run as done and prints its line, and after
// the first the estimate.
func (o *liveObserver) runFinished(line string) {
	o.mu.Lock()
	first := o.base == 0
	o.base += o.cfg.TotalBytes()
	o.inRun = false
	o.mu.Unlock()
	o.printLine(line)
	if first {
		o.printLine("iobench: " + o.estimate(time.Since(o.start)))
	}
}

// estimate is the one line, after the first run, on how long the sweep
// will take: the first run's pace over the plan (sizes differ in speed,
// so it is rough), or for an adaptive sweep its budget.
func (o *liveObserver) estimate(first time.Duration) string {
	round := time.Duration(o.roundN) * first
	switch {
	case o.cfg.Auto && o.cfg.TimeBudget > 0:
		return fmt.Sprintf("first run took %s; round 1 should take about %s, all rounds at most --time-budget %s",
			first.Round(time.Millisecond), round.Round(time.Second), o.cfg.TimeBudget)
	case o.cfg.Auto:
		return fmt.Sprintf("first run took %s; round 1 should take about %s, all rounds at most %dx that (about %s)",
			first.Round(time.Millisecond), round.Round(time.Second), o.budgetRounds, (time.Duration(o.budgetRounds) * round).Round(time.Second))
	}
	all := time.Duration(o.runs) * first
	return fmt.Sprintf("first run took %s; the %d runs should take about %s (ending about %s)",
		first.Round(time.Millisecond), o.runs, all.Round(time.Second), time.Now().Add(all-first).Format("15:04"))
}

// runLine is one finished run in at most lineWidth columns.
func runLine(s iobench.Sample, round string) string {
	return fmt.Sprintf("%-5s %7s %9d B %-9s %9.1f MiB/s %8.3f s %8d calls",
		s.Mode, units.FormatSize(s.WriteSize), s.WriteSize, round, s.MiBPerSec(), s.Seconds, s.Calls)
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
