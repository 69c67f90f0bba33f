package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"golang.org/x/term"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/units"
)

// Mode is how a command shows its progress on stderr.
type Mode string

const (
	Auto   Mode = "auto"   // bar on a terminal, else lines
	Bar    Mode = "bar"    // run lines with a bar below them
	Lines  Mode = "lines"  // a line per run and per round
	Rounds Mode = "rounds" // a line per round, for logs
	None   Mode = "none"
)

// ParseMode reads --progress; --no-progress keeps the lines but
// never draws a bar.
func ParseMode(s string, noBar bool) (Mode, error) {
	m := Mode(s)
	switch m {
	case "":
		m = Auto
	case Auto, Bar, Lines, Rounds, None:
	default:
		return "", fmt.Errorf("--progress: %q is not auto, bar, lines, rounds or none", s)
	}
	if noBar && (m == Auto || m == Bar) {
		m = Lines
	}
	return m, nil
}

// resolve is the mode on w: auto draws a bar only on a terminal.
func (m Mode) resolve(w io.Writer) Mode {
	if m == Auto || m == "" {
		if isTerminal(w) {
			return Bar
		}
		return Lines
	}
	return m
}

// Live shows a run's progress on stderr: a line per finished run,
// a line per round with the time left, and on a terminal a bar below them
// over the time the planned work should take, the estimate from the
// runs' measured times (forecast). The bar never moves back: a round the
// estimate did not foresee makes it wait. The timed loop stores only one
// integer per write, which the bar polls.
type Live struct {
	w            io.Writer
	mode         Mode // resolved: bar, lines, rounds or none
	runner       Source
	cfg          record.Config
	foreseeSizes Foreseer
	now          func() time.Time
	cols         func() int // the terminal's width

	mu        sync.Mutex
	fc        forecast
	samples   []record.Sample // an adaptive sweep's, to foresee its rounds
	eta       etaLog
	warmStart time.Time
	current   string // what the run in progress measures
	inRun     bool
	shown     float64
	drawn     bool
	ended     bool // stop was called: no bar any more
	first     bool // the first run finished
	done      chan struct{}
	stopped   sync.Once
}

// Source is what the bar polls: the bytes the run in progress has
// moved, and what it is doing. *iobench.Runner is one.
type Source interface {
	Progress() int64
	Phase() record.Phase
}

// Foreseer is the engine's rule for the write sizes of the round an
// adaptive sweep runs after round look, from its samples so far
// (iobench.Config.Foreseer).
type Foreseer func(samples []record.Sample, look int) []int64

// NewLive draws the runs of the plan cfg as r moves them; foresee, for an
// adaptive plan, is how its rounds are foreseen (nil: they are not).
func NewLive(w io.Writer, r Source, cfg record.Config, foresee Foreseer, mode Mode) *Live {
	o := &Live{w: w, mode: mode.resolve(w), runner: r, cfg: cfg, foreseeSizes: foresee, now: time.Now, cols: terminalWidth(w),
		fc: newForecast(cfg, record.DefaultBudgetRounds), done: make(chan struct{})}
	if cfg.Auto && foresee != nil {
		o.fc.foresee = o.foreseeSweep
	}
	go o.poll()
	return o
}

// foreseeSweep is the runs of the round an adaptive sweep would run after
// round look, by the engine's rules, from the runs so far.
func (o *Live) foreseeSweep(look int) []string {
	sizes := o.foreseeSizes(o.samples, look)
	variants := o.cfg.VariantNames()
	if len(variants) == 0 {
		variants = []string{""}
	}
	var keys []string
	for _, size := range sizes {
		for _, mode := range record.Mode(o.cfg.Mode).Directions() {
			for _, v := range variants {
				keys = append(keys, runKey(record.Run{Mode: mode, WriteSize: size, Variant: v}))
			}
		}
	}
	return keys
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth reads w's width at each call, so a resized window is
// followed; 80 when w is no terminal.
func terminalWidth(w io.Writer) func() int {
	return func() int {
		if f, ok := w.(*os.File); ok {
			if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
				return cols
			}
		}
		return 80
	}
}

// SameTerminal: a and b are one terminal, as when neither is redirected.
func SameTerminal(a, b io.Writer) bool {
	fa, okA := a.(*os.File)
	fb, okB := b.(*os.File)
	if !okA || !okB || !isTerminal(a) || !isTerminal(b) {
		return false
	}
	sa, errA := fa.Stat()
	sb, errB := fb.Stat()
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// pollEvery is how often the bar is redrawn: often enough to show a
// filling of the array that takes a fraction of a second.
const pollEvery = 100 * time.Millisecond

func (o *Live) poll() {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-o.done:
			return
		case <-t.C:
			o.mu.Lock()
			o.tick()
			o.mu.Unlock()
		}
	}
}

// tick notes the estimate and redraws the bar.
func (o *Live) tick() {
	now := o.now()
	if o.warmStart.IsZero() && len(o.fc.all) == 0 && o.inRun {
		o.fc.prior = o.priorFromRun(now) // no warm-up to go by
	}
	if n := len(o.eta.points); n == 0 || now.Sub(o.eta.points[n-1].at) >= time.Second {
		o.noteETA(now)
	}
	if o.mode == Bar && !o.ended {
		o.draw(now)
	}
}

// noteETA keeps the estimate of now for the report's eta_error.
func (o *Live) noteETA(now time.Time) {
	if end, _, ok := o.fc.end(now); ok {
		o.eta.note(now, end)
	}
}

// priorFromRun is a run's time from the first run's pace so far, for a
// sweep without a warm-up; 0 until it has moved bytes.
func (o *Live) priorFromRun(now time.Time) time.Duration {
	moved := o.runner.Progress()
	if moved <= 0 || o.fc.start.IsZero() {
		return 0
	}
	return time.Duration(float64(now.Sub(o.fc.start)) * float64(o.cfg.TotalBytes) / float64(moved))
}

func (o *Live) WarmupStarted() {
	o.Warmup(fmt.Sprintf("warm-up: one untimed pass of %s at %s per call",
		humanize.IBytes(uint64(o.cfg.TotalBytes)), units.FormatSize(o.cfg.MaxSize())))
}

// warmupStarted notes when the warm-up began, whose time is the first
// estimate of a run's, and prints line.
func (o *Live) Warmup(line string) {
	o.mu.Lock()
	o.warmStart = o.now()
	o.mu.Unlock()
	o.Print(line, Lines)
}

func (o *Live) RoundPlanned(round int, runs []record.Run) {
	keys := make([]string, len(runs))
	for i, r := range runs {
		keys[i] = runKey(r)
	}
	o.Planned(round, keys)
}

// roundPlanned starts a round of the runs keys, after a line on the round
// before.
func (o *Live) Planned(round int, keys []string) {
	o.mu.Lock()
	now := o.now()
	if round == 1 && !o.warmStart.IsZero() {
		o.fc.prior = now.Sub(o.warmStart)
	}
	ended := o.roundLine(now, false)
	o.fc.roundPlanned(now, round, keys)
	o.noteETA(now)
	o.mu.Unlock()
	if round > 1 {
		o.Print(ended, Rounds)
	}
}

func (o *Live) RunStarted(r record.Run) {
	o.Started(fmt.Sprintf("%s %s%s", r.Mode, units.FormatSize(r.WriteSize), VariantTag(o.cfg, r.Variant)))
}

// runStarted starts a timed run, described by current.
func (o *Live) Started(current string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.inRun, o.current = true, current
}

// roundWord is "r3/10", or "r3 auto" in an adaptive sweep.
func (o *Live) RoundWord(round int) string {
	if o.cfg.Auto {
		return fmt.Sprintf("r%d auto", round)
	}
	return fmt.Sprintf("r%d/%d", round, o.cfg.Repeat)
}

func (o *Live) RunFinished(s record.Sample) {
	if o.cfg.Auto {
		o.mu.Lock()
		o.samples = append(o.samples, s)
		o.mu.Unlock()
	}
	o.Finished(runLine(s, o.RoundWord(s.Round)+VariantTag(o.cfg, s.Variant)))
}

// runFinished counts a timed run as done and prints its line, and after
// the first the estimate.
func (o *Live) Finished(line string) {
	o.mu.Lock()
	now := o.now()
	o.fc.runFinished(now)
	o.noteETA(now)
	o.inRun = false
	first := !o.first
	o.first = true
	estimate := o.firstEstimate(now)
	o.mu.Unlock()
	o.Print(line, Lines)
	if first && estimate != "" {
		o.Print("iobench: "+estimate, Lines)
	}
}

// firstEstimate is the line after the first run on how long all will
// take, from that run alone: rough, and the round lines and the bar
// correct it as runs finish.
func (o *Live) firstEstimate(now time.Time) string {
	end, rounds, ok := o.fc.end(now)
	if !ok {
		return ""
	}
	first := o.fc.all[0]
	all := end.Sub(o.fc.start).Round(time.Second)
	if o.cfg.Auto {
		return fmt.Sprintf("first run took %s; round 1 should take about %s, all %d rounds about %s (%s), ending about %s",
			first.Round(time.Millisecond), (time.Duration(len(o.fc.keys)) * first).Round(time.Second), rounds, all, o.budgetWords(), end.Format("15:04:05"))
	}
	return fmt.Sprintf("first run took %s; the %d runs should take about %s (ending about %s)",
		first.Round(time.Millisecond), o.fc.rounds*len(o.fc.keys), all, end.Format("15:04"))
}

// budgetWords says what bounds the adaptive rounds.
func (o *Live) budgetWords() string {
	if o.fc.budget > 0 {
		return "at most --time-budget " + o.fc.budget.String()
	}
	return fmt.Sprintf("within %dx round 1", o.fc.budgetRounds)
}

// roundLine says how the round that just ended went and, unless it was
// the last, what is left; "" before round 1.
func (o *Live) roundLine(now time.Time, last bool) string {
	if o.fc.round == 0 {
		return ""
	}
	of := o.ofRounds(o.fc.round)
	if last {
		of = ""
	}
	s := fmt.Sprintf("iobench: round %d%s done: %d runs; %s elapsed", o.fc.round, of, o.fc.done, roundSecs(now.Sub(o.fc.start)))
	if end, _, ok := o.fc.end(now); ok && !last && end.After(now) {
		s += fmt.Sprintf(", about %s left (ending about %s)", roundSecs(end.Sub(now)), end.Format("15:04:05"))
	}
	return s
}

// ofRounds is " of 3" for a fixed plan, " of ~6" for adaptive rounds as
// now foreseen.
func (o *Live) ofRounds(round int) string {
	if !o.cfg.Auto {
		return fmt.Sprintf(" of %d", o.fc.rounds)
	}
	_, rounds, ok := o.fc.end(o.now())
	if !ok {
		return ""
	}
	return fmt.Sprintf(" of ~%d", max(rounds, round))
}

// roundSecs is a duration for the live lines: tenths below 10 s.
func roundSecs(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// runLine is one finished run in at most 80 columns.
func runLine(s record.Sample, round string) string {
	return fmt.Sprintf("%-5s %7s %9d B %-9s %9.1f MiB/s %8.3f s %8d calls",
		s.Mode, units.FormatSize(s.WriteSize), s.WriteSize, round, s.MiBPerSec(), s.Seconds, s.Calls)
}

// printLine prints line in the modes that show lines of its kind: run
// and warm-up lines (Lines) with a bar too, round lines
// (Rounds) in every mode but none. A drawn bar is cleared first
// and drawn again below the line.
func (o *Live) Print(line string, kind Mode) {
	if line == "" || o.mode == None || kind == Lines && o.mode == Rounds {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.drawn {
		fmt.Fprint(o.w, "\r\x1b[K")
	}
	fmt.Fprintln(o.w, line)
	o.drawn = false
	if o.mode == Bar && !o.ended {
		o.draw(o.now())
	}
}

// Interject writes text from outside the display (a signal's message)
// on lines of its own: a drawn bar is cleared first, not glued to, and
// drawn again after unless last (the process exits next).
func (o *Live) Interject(w io.Writer, text string, last bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.drawn {
		fmt.Fprint(o.w, "\r\x1b[K")
		o.drawn = false
	}
	o.ended = o.ended || last
	fmt.Fprint(w, text)
	if o.mode == Bar && !o.ended {
		o.draw(o.now())
	}
}

// Stop ends the display: the last round's line, how far off the estimate
// was, and no bar left behind.
func (o *Live) Stop() {
	o.stopped.Do(func() {
		close(o.done)
		o.mu.Lock()
		o.ended = true
		last, check := o.roundLine(o.fc.lastEnd, true), o.etaCheck()
		if o.drawn {
			fmt.Fprint(o.w, "\r\x1b[K")
			o.drawn = false
		}
		o.mu.Unlock()
		if o.fc.done > 0 {
			o.Print(last, Rounds)
		}
		o.Print(check, Rounds)
	})
}

// etaErrors is how far the time left shown was off, for the report.
func (o *Live) ETAErrors() *record.ETAError {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.eta.errors(o.fc.start, o.fc.lastEnd)
}

// etaCheck is the line on how far the time left was off at half time.
func (o *Live) etaCheck() string {
	e := o.eta.errors(o.fc.start, o.fc.lastEnd)
	if e == nil {
		return ""
	}
	return fmt.Sprintf("iobench: the timed runs took %s; at half time the estimate of the time left was off by %+.0f%%",
		roundSecs(time.Duration(e.TimedSeconds*float64(time.Second))), 100*e.AtHalf)
}

// VariantTag is a run's variant as its live line shows it: " v2"; "" in
// a sweep of one.
func VariantTag(cfg record.Config, variant string) string {
	if variant == "" {
		return ""
	}
	return fmt.Sprintf(" v%d", record.VariantRank(cfg.VariantNames(), variant)+1)
}

// Foresee sets how the estimate sees adaptive rounds coming: budgetRounds
// times round 1 at most, and foresee for the runs of the round after
// round look (nil: a fixed plan). foresee is called with the display's
// lock held.
func (o *Live) Foresee(budgetRounds int, foresee func(look int) []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.fc.budgetRounds = budgetRounds
	if foresee != nil {
		o.fc.foresee = foresee
	}
}

// Mode is the display's mode, resolved: bar, lines, rounds or none.
func (o *Live) Mode() Mode { return o.mode }
