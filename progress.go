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
// byte counter, so the timed loop only stores one integer per write.
type liveObserver struct {
	w       io.Writer
	runner  *iobench.Runner
	cfg     iobench.Config
	runs    int
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
	base    int64 // bytes of the runs already finished
	current string
	start   time.Time
	done    chan struct{}
	stopped sync.Once
}

func newLiveObserver(w io.Writer, r *iobench.Runner, cfg iobench.Config, wantBar bool) *liveObserver {
	o := &liveObserver{w: w, runner: r, cfg: cfg, runs: cfg.Runs(), done: make(chan struct{})}
	if wantBar && isTerminal(w) {
		// The bar draws; the description carries exact units (MiB) and an
		// estimate over the whole sweep, not the library's per-second rate.
		o.bar = progressbar.NewOptions64(int64(o.runs)*cfg.TotalBytes(),
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

func (o *liveObserver) RunStarted(r iobench.Run) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.start.IsZero() {
		o.start = time.Now() // after the warm-up, which the bar does not count
	}
	o.current = fmt.Sprintf("%s %s (run %d/%d)", r.Mode, knee.FormatSize(r.WriteSize), r.Seq, o.runs)
}

// update redraws the bar; the warm-up is shown but not counted.
func (o *liveObserver) update() {
	if o.start.IsZero() {
		o.bar.Describe(fmt.Sprintf("warm-up (untimed) %s of %s", humanize.IBytes(uint64(o.runner.Progress())), humanize.IBytes(uint64(o.cfg.TotalBytes()))))
		return
	}
	done := o.base + o.runner.Progress()
	_ = o.bar.Set64(done)
	o.bar.Describe(o.describe(done))
}

// describe says where the sweep is: current size, bytes written of all,
// and the time left at the average rate so far.
func (o *liveObserver) describe(done int64) string {
	total := int64(o.runs) * o.cfg.TotalBytes()
	left := "?"
	if done > 0 {
		el := time.Since(o.start)
		left = (time.Duration(float64(el) * float64(total-done) / float64(done))).Round(time.Second).String()
	}
	return fmt.Sprintf("%s %s of %s, %s left", o.current, humanize.IBytes(uint64(done)), humanize.IBytes(uint64(total)), left)
}

func (o *liveObserver) RunFinished(s iobench.Sample) {
	o.mu.Lock()
	o.base += o.cfg.TotalBytes()
	o.mu.Unlock()
	o.printLine(fmt.Sprintf("%-5s %9s %10d B  round %d/%d  %10.1f MiB/s  %8.3f s  %d calls",
		s.Mode, knee.FormatSize(s.WriteSize), s.WriteSize, s.Round, o.cfg.Repeat, s.MiBPerSec(), s.Seconds, s.Calls))
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
