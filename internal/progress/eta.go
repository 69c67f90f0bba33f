package progress

import (
	"strconv"
	"time"

	"github.com/iobench/iobench/record"
)

// forecast predicts when the timed runs end from how long the runs took:
// every run still planned at its own kind's measured wall time (flush
// and removal included), and for adaptive rounds those that the rounds'
// own rules choose (foresee) and the time budget leaves room for, by the
// engine's rule: the first MinAutoRounds always run, a later one only if
// its cost, at each run's longest time padded by budgetMargin, fits in
// what is left. Where the budget stops the rounds, the last one ends
// anywhere within one round's cost of it, as the runs fall; the estimate
// takes the middle. Times are passed in, so tests need no clock.
type forecast struct {
	auto         bool
	rounds       int           // a fixed plan's rounds
	budget       time.Duration // --time-budget; 0: budgetRounds x round 1
	budgetRounds int
	// foresee gives the runs of the round after round look from the runs
	// so far, the budget aside; nil when the rounds would stop there. Nil
	// for a fixed plan, whose rounds repeat the one running.
	foresee func(look int) []string

	start       time.Time     // round 1 was planned: the engine's clock starts
	prior       time.Duration // a run's time before any has finished
	round       int
	keys        []string  // the runs of the round running, in order
	done        int       // of keys, finished
	lastEnd     time.Time // the last run's end, or round 1's start
	firstRound  time.Duration
	took        map[string][]time.Duration
	all         []time.Duration
	early, late []string // foreseen rounds before and from MinAutoRounds
}

// budgetMargin pads each run's longest time when a round's cost is held
// against the budget, as the engine pads its prediction.
const budgetMargin = 1.1

// runKey names what a run measures, so that runs of one kind share their
// times: direction, variant and write size.
func runKey(r record.Run) string {
	return string(r.Mode) + "/" + r.Variant + "/" + strconv.FormatInt(r.WriteSize, 10)
}

func newForecast(cfg record.Config, budgetRounds int) forecast {
	return forecast{auto: cfg.Auto, rounds: cfg.Repeat, budget: cfg.Budget(), budgetRounds: budgetRounds,
		took: map[string][]time.Duration{}}
}

// roundPlanned starts a round of the runs keys.
func (f *forecast) roundPlanned(now time.Time, round int, keys []string) {
	if f.start.IsZero() {
		f.start, f.lastEnd = now, now
	}
	if round == 2 {
		f.firstRound = now.Sub(f.start)
	}
	f.round, f.keys, f.done = round, keys, 0
	f.refresh()
}

// runFinished counts the round's next run as done at now.
func (f *forecast) runFinished(now time.Time) {
	if f.done >= len(f.keys) {
		return
	}
	d := now.Sub(f.lastEnd)
	f.took[f.keys[f.done]] = append(f.took[f.keys[f.done]], d)
	f.all = append(f.all, d)
	f.done++
	f.lastEnd = now
	f.refresh()
}

// refresh foresees the rounds again from the runs so far. Before the
// first MinAutoRounds have run, a knee not found yet stops nothing: the
// later rounds are then taken to be like the early ones.
func (f *forecast) refresh() {
	if f.foresee == nil {
		return
	}
	f.early, f.late = f.foresee(1), f.foresee(record.MinAutoRounds)
	if f.late == nil && f.round < record.MinAutoRounds {
		f.late = f.early
	}
}

// after is the runs of the round after round look.
func (f *forecast) after(look int) []string {
	switch {
	case f.foresee == nil:
		return f.keys
	case look < record.MinAutoRounds:
		return f.early
	}
	return f.late
}

// expected is a run's time: the mean of its kind's, else the mean of all
// runs so far (rounds are shuffled, so that is a fair draw), else prior.
func (f *forecast) expected(key string) time.Duration {
	if ts := f.took[key]; len(ts) > 0 {
		return mean(ts)
	}
	if len(f.all) > 0 {
		return mean(f.all)
	}
	return f.prior
}

// longest is the longest time of a run's kind, as the engine's budget
// check reads it.
func (f *forecast) longest(key string) time.Duration {
	if ts := f.took[key]; len(ts) > 0 {
		return maxOf(ts)
	}
	return f.expected(key)
}

// end is when the timed runs should end, and after how many rounds;
// ok is false while nothing measured says how long a run takes.
func (f *forecast) end(now time.Time) (at time.Time, rounds int, ok bool) {
	if f.start.IsZero() || f.expected("") <= 0 {
		return time.Time{}, 0, false
	}
	t := now.Add(f.roundLeft(now))
	at, rounds = f.roundsAfter(t, f.budgetFor(t))
	return at, rounds, true
}

// roundsAfter is when the rounds after the one running, which ends at t,
// end, and how many rounds there are in all.
func (f *forecast) roundsAfter(t time.Time, budget time.Duration) (time.Time, int) {
	rounds, must := f.round, t // must: the end of the rounds that run whatever they cost
	for r := f.round + 1; ; r++ {
		keys := f.after(r - 1)
		if len(keys) == 0 {
			return t, rounds
		}
		cost, check := f.roundCost(keys)
		if !f.runs(r, t.Sub(f.start)+check, budget) {
			if f.auto && r > record.MinAutoRounds && r <= record.MaxAutoRounds { // the budget stopped them
				t = later(must, f.start.Add(budget-check+cost/2))
			}
			return t, rounds
		}
		t, rounds = t.Add(cost), r
		if !f.auto || r <= record.MinAutoRounds {
			must = t
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// roundLeft is the time the round running still needs: the run in
// progress (at least nothing, when it overruns) and those after it.
func (f *forecast) roundLeft(now time.Time) time.Duration {
	var left time.Duration
	for i := f.done; i < len(f.keys); i++ {
		left += f.expected(f.keys[i])
	}
	if f.done < len(f.keys) {
		left -= min(now.Sub(f.lastEnd), f.expected(f.keys[f.done]))
	}
	return left
}

// roundCost is what a round of the runs keys takes, and what the budget
// check holds it to.
func (f *forecast) roundCost(keys []string) (cost, check time.Duration) {
	for _, k := range keys {
		cost += f.expected(k)
		check += time.Duration(budgetMargin * float64(f.longest(k)))
	}
	return cost, check
}

// budgetFor is the adaptive budget; before round 1 ended, from round 1
// ending at roundEnd.
func (f *forecast) budgetFor(roundEnd time.Time) time.Duration {
	switch {
	case f.budget > 0:
		return f.budget
	case f.firstRound > 0:
		return time.Duration(f.budgetRounds) * f.firstRound
	}
	return time.Duration(f.budgetRounds) * roundEnd.Sub(f.start)
}

// runs is whether round r runs, when it would end its time after the
// start at spent, against budget.
func (f *forecast) runs(r int, spent, budget time.Duration) bool {
	switch {
	case !f.auto:
		return r <= f.rounds
	case r > record.MaxAutoRounds:
		return false
	case r <= record.MinAutoRounds:
		return true
	}
	return spent <= budget
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}

func maxOf(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds[1:] {
		m = max(m, d)
	}
	return m
}

// etaLog keeps the end each estimate foresaw, so that at the end the
// report can say how far off the time left was.
type etaLog struct{ points []etaPoint }

type etaPoint struct{ at, end time.Time }

// note records that at at the estimate was end.
func (l *etaLog) note(at, end time.Time) { l.points = append(l.points, etaPoint{at, end}) }

// errors are how far the time left shown was from the truth, at a
// quarter, half and three quarters of the timed runs from start to
// finish; nil without estimates from before each of those times.
func (l *etaLog) errors(start, finish time.Time) *record.ETAError {
	total := finish.Sub(start)
	if len(l.points) == 0 || total <= 0 {
		return nil
	}
	at := func(q float64) (float64, bool) {
		t := start.Add(time.Duration(q * float64(total)))
		var last *etaPoint
		for i := range l.points {
			if !l.points[i].at.After(t) {
				last = &l.points[i]
			}
		}
		if last == nil {
			return 0, false
		}
		return last.end.Sub(t).Seconds()/finish.Sub(t).Seconds() - 1, true
	}
	e := &record.ETAError{TimedSeconds: total.Seconds()}
	var ok [3]bool
	e.AtQuarter, ok[0] = at(0.25)
	e.AtHalf, ok[1] = at(0.5)
	e.AtThreeQuarters, ok[2] = at(0.75)
	if !ok[0] || !ok[1] || !ok[2] {
		return nil
	}
	return e
}
