package progress

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/record"
)

var csi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// The bar redraws in place on its own line and never moves the cursor up
// or erases below it, so a line another writer puts on stderr while the
// bar is up (the signal handler's) stays on the screen; a drawing that
// moves up over its last frame erased it (docs/architecture.md,
// "Progress drawing: why hand-written").
func TestBarErasesOnlyItsOwnLine(t *testing.T) {
	var out bytes.Buffer
	clock := t0
	o := barDrawn(&out, func() time.Time { return clock })
	const foreign = "iobench: interrupt: stopping; waiting for a write(2)\n"
	out.WriteString(foreign)
	clock = at(1)
	o.Finished("write 4 KiB run line")
	o.tick()
	o.Stop()
	for _, seq := range csi.FindAllString(out.String(), -1) {
		if seq != "\x1b[K" {
			t.Errorf("the bar wrote %q, want only \\x1b[K (erase to the line's end):\n%q", seq, out.String())
		}
	}
	if !strings.Contains(out.String(), foreign) || !strings.Contains(out.String(), "] ") {
		t.Errorf("no bar drawn, or the foreign line is gone:\n%q", out.String())
	}
}

// TestInterjectClearsTheBar: a signal's message starts on a line of its
// own, where the bar was, and the bar comes back below it; after the last
// one (the process exits) no bar is drawn again.
func TestInterjectClearsTheBar(t *testing.T) {
	var out bytes.Buffer
	o := barDrawn(&out, func() time.Time { return t0 })
	const msg = "iobench: interrupt: stopping\n"
	o.Interject(&out, msg, false)
	if s := out.String(); !strings.Contains(s, "\r\x1b[K"+msg) || !strings.Contains(s[strings.Index(s, msg):], "] ") {
		t.Errorf("the message is not on a line of its own with the bar below it:\n%q", s)
	}
	out.Reset()
	o.Interject(&out, "iobench: second signal\n", true)
	o.tick()
	if s := out.String(); s != "\r\x1b[Kiobench: second signal\n" {
		t.Errorf("after the last message: %q, want the bar cleared and no bar again", s)
	}
}

// barDrawn is a display in bar mode on an 80-column terminal, its first
// run started and its bar drawn once.
func barDrawn(out *bytes.Buffer, now func() time.Time) *Live {
	cfg := record.Config{Settings: record.Settings{Repeat: 1, Count: 1, Sizes: []int64{1}}, ElementSize: 4, TotalBytes: 4, KneeFraction: 0.95}
	o := &Live{w: out, mode: Bar, runner: idle{}, cfg: cfg, now: now,
		cols: func() int { return 80 }, fc: newForecast(cfg, record.DefaultBudgetRounds), done: make(chan struct{})}
	o.Planned(1, []string{"a", "b"})
	o.Started("write 4 KiB")
	o.tick()
	return o
}
