package progress

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/record"
)

// Bar widths: the bar takes what the line leaves, within these.
const (
	minBarWidth = 10
	maxBarWidth = 40
)

// draw redraws the bar in place, one column short of the terminal's
// width: a line that fills the last column wraps on some terminals, and a
// wrapped bar is not cleared.
func (o *Live) draw(now time.Time) {
	line := o.barLine(now, o.cols()-1)
	if line == "" {
		return
	}
	fmt.Fprint(o.w, "\r"+line+"\x1b[K")
	o.drawn = true
}

// barLine is the line below the run lines: before the timed runs what
// the setup is doing, then the round, the run in progress, the bar over
// the time all planned rounds should take, and the time left.
func (o *Live) barLine(now time.Time, width int) string {
	if o.fc.start.IsZero() {
		return cut(o.setupWords(), width)
	}
	end, rounds, ok := o.fc.end(now)
	left := "? left"
	if ok {
		if total := end.Sub(o.fc.start); total > 0 {
			o.shown = max(o.shown, min(0.999, float64(now.Sub(o.fc.start))/float64(total)))
		}
		left = max(0, end.Sub(now)).Round(time.Second).String() + " left"
	}
	return barText(o.roundTag(rounds)+": "+o.current, o.shown, left, width)
}

// setupWords says what comes before the timed runs: filling the source
// array, the warm-up; no bar, whose share would start again at the runs.
func (o *Live) setupWords() string {
	moved := o.runner.Progress()
	switch {
	case o.runner.Phase() == record.PhaseFill:
		fill := o.cfg.SourceBytes
		return fmt.Sprintf("filling the array: %s of %s", humanize.IBytes(uint64(min(moved, fill))), humanize.IBytes(uint64(fill)))
	case !o.warmStart.IsZero():
		all := o.cfg.TotalBytes
		return fmt.Sprintf("warm-up (untimed): %s of %s, %s", humanize.IBytes(uint64(min(moved, all))), humanize.IBytes(uint64(all)),
			o.now().Sub(o.warmStart).Round(time.Second))
	}
	return ""
}

// roundTag is "round 2 of 3", or for adaptive rounds "round 2 of ~6" as
// now foreseen, and "(added)" for a round beyond the first
// MinAutoRounds, which the engine adds only while the knee is not
// established.
func (o *Live) roundTag(rounds int) string {
	r := o.fc.round
	if !o.cfg.Auto {
		return fmt.Sprintf("round %d of %d", r, o.fc.rounds)
	}
	s := fmt.Sprintf("round %d of ~%d", r, max(r, rounds))
	if r > record.MinAutoRounds {
		s += " (added)"
	}
	return s
}

// barText fits desc, a bar filled to frac, its percentage and left into
// width columns: the bar shrinks to minBarWidth, then desc is cut.
func barText(desc string, frac float64, left string, width int) string {
	right := fmt.Sprintf("] %3d%%  %s", int(100*frac), left)
	room := width - utf8.RuneCountInString(desc) - 2 - utf8.RuneCountInString(right)
	n := min(max(room, minBarWidth), maxBarWidth)
	desc = cut(desc, width-2-n-utf8.RuneCountInString(right))
	filled := min(n, int(frac*float64(n)))
	return desc + " [" + strings.Repeat("#", filled) + strings.Repeat(".", n-filled) + right
}

// cut shortens s to at most width columns, marking the cut.
func cut(s string, width int) string {
	r := []rune(s)
	switch {
	case len(r) <= width:
		return s
	case width <= 0:
		return ""
	}
	return string(r[:width-1]) + "…"
}
