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
	done    chan struct{}
	stopped sync.Once
}

func newLiveObserver(w io.Writer, r *iobench.Runner, cfg iobench.Config, wantBar bool) *liveObserver {
	o := &liveObserver{w: w, runner: r, cfg: cfg, runs: len(iobench.Plan(cfg)), done: make(chan struct{})}
	if wantBar && isTerminal(w) {
		o.bar = progressbar.NewOptions64(int64(o.runs)*cfg.TotalBytes(),
			progressbar.OptionSetWriter(w), progressbar.OptionShowBytes(true),
			progressbar.OptionSetPredictTime(true), progressbar.OptionFullWidth(),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
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
			_ = o.bar.Set64(o.base + o.runner.Progress())
			o.mu.Unlock()
		}
	}
}

func (o *liveObserver) WarmupStarted() {
	o.printLine(fmt.Sprintf("warm-up: one untimed pass of %s at %s per call",
		humanize.IBytes(uint64(o.cfg.TotalBytes())), humanize.IBytes(uint64(o.cfg.MaxSize()))))
}

func (o *liveObserver) RunStarted(r iobench.Run) {
	if o.bar == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.bar.Describe(fmt.Sprintf("%s %s (%d/%d)", r.Mode, humanize.IBytes(uint64(r.WriteSize)), r.Seq, o.runs))
}

func (o *liveObserver) RunFinished(s iobench.Sample) {
	o.mu.Lock()
	o.base += o.cfg.TotalBytes()
	o.mu.Unlock()
	o.printLine(fmt.Sprintf("%-5s %9s %10d B  round %d/%d  %10.1f MiB/s  %8.3f s  %d calls",
		s.Mode, humanize.IBytes(uint64(s.WriteSize)), s.WriteSize, s.Round, o.cfg.Repeat, s.MiBPerSec(), s.Seconds, s.Calls))
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
