package progress

import (
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/iobench/iobench/record"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// A fixed plan ends when its runs do, each at its kind's measured time,
// and a kind not run yet at the mean of those that were.
func TestForecastFixedPlan(t *testing.T) {
	f := newForecast(record.Config{Settings: record.Settings{Repeat: 2}}, record.DefaultBudgetRounds)
	f.prior = time.Second
	f.roundPlanned(at(0), 1, []string{"a", "b", "c"})
	if end, rounds, ok := f.end(at(0)); !ok || end != at(6) || rounds != 2 {
		t.Errorf("before any run: end %v, %d rounds, %v; want 6s, 2 rounds (the prior)", end.Sub(t0), rounds, ok)
	}
	f.runFinished(at(2)) // "a" took 2 s: so should the others, as far as anyone knows
	if end, _, _ := f.end(at(2)); end != at(12) {
		t.Errorf("after a 2 s run: end %v, want 12s", end.Sub(t0))
	}
	if end, _, _ := f.end(at(5)); end != at(13) {
		t.Errorf("3 s into a run expected to take 2 s: end %v, want 13s (the run overruns, the rest stays)", end.Sub(t0))
	}
}

// Adaptive rounds: the first MinAutoRounds always run; a later one only
// while its cost, padded, fits in the budget of 3 x round 1.
func TestForecastAdaptiveRoundsStopAtTheBudget(t *testing.T) {
	f := newForecast(record.Config{Settings: record.Settings{Auto: true}}, 3)
	f.foresee = func(int) []string { return []string{"b", "c"} }
	f.roundPlanned(at(0), 1, []string{"a", "b", "c", "d"})
	for i := 1; i <= 4; i++ {
		f.runFinished(at(float64(i)))
	}
	// Round 1 took 4 s: a budget of 12 s. Rounds 2 and 3 of 2 s each end
	// at 8 s; round 4 (2.2 s padded) fits, ending at 10 s; round 5 would
	// end past 12 s, so the rounds end within a round of 9.8 s, as the
	// runs fall: in the middle, 10.8 s.
	end, rounds, ok := f.end(at(4))
	if !ok || end != at(10.8) || rounds != 4 {
		t.Errorf("end %v after %d rounds, want 10.8s after 4", end.Sub(t0), rounds)
	}
	f.roundPlanned(at(4), 2, []string{"b", "c"})
	if f.firstRound != 4*time.Second {
		t.Errorf("round 1 took %v, want 4s", f.firstRound)
	}
	f.foresee = func(int) []string { return nil } // the rounds would stop: no knee
	f.refresh()
	if end, rounds, _ := f.end(at(4)); end != at(6) || rounds != 2 {
		t.Errorf("with nothing foreseen: end %v after %d rounds, want 6s after 2", end.Sub(t0), rounds)
	}
}

// The log says how far the time left was off at a quarter, half and
// three quarters of the runs.
func TestETAErrors(t *testing.T) {
	var l etaLog
	l.note(at(0), at(8))  // said 8 s; it took 10
	l.note(at(5), at(12)) // at half time: said 7 s left, 5 were
	l.note(at(7), at(10))
	e := l.errors(at(0), at(10))
	if e == nil {
		t.Fatal("no errors")
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"quarter", e.AtQuarter, 5.5/7.5 - 1}, {"half", e.AtHalf, 7.0/5 - 1}, {"three quarters", e.AtThreeQuarters, 0}} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("at %s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if (&etaLog{}).errors(at(0), at(10)) != nil {
		t.Error("errors without estimates")
	}
}

// The bar line fits the width it is given, the bar shrinking first.
func TestBarTextFits(t *testing.T) {
	for _, width := range []int{30, 60, 79, 99, 200} {
		for _, desc := range []string{"round 2 of ~5: write 64 KiB", strings.Repeat("x", 150)} {
			line := barText(desc, 0.42, "1m12s left", width)
			if n := utf8.RuneCountInString(line); n > width {
				t.Errorf("width %d: %d columns: %q", width, n, line)
			}
			if !strings.Contains(line, " 42%  1m12s left") {
				t.Errorf("width %d: no share and time left: %q", width, line)
			}
		}
	}
}

// idle is a runner between runs.
type idle struct{}

func (idle) Progress() int64     { return 0 }
func (idle) Phase() record.Phase { return record.PhaseIdle }

var barShare = regexp.MustCompile(`\] +(\d+)%`)

// As adaptive rounds are added beyond what was foreseen, the bar waits
// rather than going back, and says the round was added.
func TestBarNeverGoesBack(t *testing.T) {
	clock := t0
	cfg := record.Config{Settings: record.Settings{Auto: true, Count: 1, Sizes: []int64{1}}, ElementSize: 4, TotalBytes: 4, KneeFraction: 0.95}
	o := &Live{w: io.Discard, mode: Lines, runner: idle{}, cfg: cfg, now: func() time.Time { return clock },
		cols: func() int { return 80 }, fc: newForecast(cfg, record.DefaultBudgetRounds)}
	o.fc.foresee = func(int) []string { return []string{"a"} }
	last := -1
	step := func(s float64) {
		clock = at(s)
		m := barShare.FindStringSubmatch(o.barLine(clock, 79))
		if m == nil {
			t.Fatalf("no share at %vs", s)
		}
		p, _ := strconv.Atoi(m[1])
		if p < last {
			t.Errorf("the bar went back from %d%% to %d%% at %vs", last, p, s)
		}
		last = p
	}
	sec := 0.0
	for round := 1; round <= 9; round++ { // the foreseen rounds stop at 6: 3 more are added
		o.Planned(round, []string{"a", "b"}[:1+min(round, 2)-1])
		clock = at(sec)
		for range o.fc.keys {
			step(sec + 0.5)
			sec++
			clock = at(sec)
			o.fc.runFinished(clock)
			step(sec)
		}
	}
	if tag := o.roundTag(9); !strings.Contains(tag, "(added)") {
		t.Errorf("round 9: %q does not say it was added", tag)
	}
}
