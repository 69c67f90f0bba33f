package iobench

import (
	"math"
	"time"

	"github.com/iobench/iobench/record"
)

// latencyRecorder times a random sample of one run's calls, or every
// call (all). The engine asks due() before each call; a due call is
// timed with start() and stop(), and end() closes the run.
type latencyRecorder struct {
	hist    record.LatencyHist
	base    time.Time
	clock   int64  // ns the two clock reads of a timed call cost
	all     bool   // time every call
	left    int64  // untimed calls before the next timed one
	gap     int64  // mean calls between timed ones
	avg     int64  // running mean of the timed calls, ns
	rng     uint64 // xorshift state
	last    int64  // now() when the last timed call returned
	untimed int64  // calls since then
	t0      int64  // now() when the current timed call began
}

// newLatencyRecorder starts a run's recorder; clock is the measured cost
// of the two clock reads (clockCost), seed varies the sample between
// runs; all times every call.
func newLatencyRecorder(clock int64, seed uint64, all bool) *latencyRecorder {
	return &latencyRecorder{base: time.Now(), clock: clock, all: all, gap: 1, rng: seed | 1, hist: record.LatencyHist{Clock: clock}}
}

// reset starts another run with the same recorder.
func (l *latencyRecorder) reset(seed uint64) {
	*l = latencyRecorder{base: time.Now(), clock: l.clock, all: l.all, gap: 1, rng: seed | 1}
	l.hist.Clock = l.clock
}

// start begins a timed call. Its clock read also ends the stretch of
// untimed calls since the last timed one, which bounds each of them.
func (l *latencyRecorder) start() {
	l.t0 = l.now()
	l.closeStretch(l.t0)
}

// stop ends the timed call start began.
func (l *latencyRecorder) stop() {
	t1 := l.now()
	l.record(t1 - l.t0)
	l.last, l.untimed = t1, 0
}

// end closes the run's last stretch of untimed calls; the engine calls it
// right after the run's last call, before the flush.
func (l *latencyRecorder) end() { l.closeStretch(l.now()) }

func (l *latencyRecorder) closeStretch(now int64) {
	if l.untimed > 0 {
		l.hist.Bound = max(l.hist.Bound, now-l.last)
		l.untimed = 0
	}
}

// now is the monotonic time since the recorder started: one clock read
// (time.Since reads only the monotonic clock).
func (l *latencyRecorder) now() int64 { return int64(time.Since(l.base)) }

// due counts a call and reports whether to time it.
func (l *latencyRecorder) due() bool {
	l.hist.Calls++
	if l.left > 0 {
		l.left--
		l.untimed++
		return false
	}
	return true
}

// record adds a timed call of ns nanoseconds and draws the next gap: a
// uniform draw in [0, 2*gap-2], mean gap-1, where gap keeps the clock's
// share of the run near LatencyOverhead.
func (l *latencyRecorder) record(ns int64) {
	l.hist.Add(ns)
	if l.all {
		return // no gap to draw
	}
	if l.hist.Timed == 1 {
		l.avg = max(ns, 1)
	}
	l.avg = max(l.avg+(ns-l.avg)/8, 1)
	l.gap = min(max(1, int64(float64(l.clock)/(LatencyOverhead*float64(l.avg)))), maxLatencyGap)
	l.rng ^= l.rng << 13
	l.rng ^= l.rng >> 7
	l.rng ^= l.rng << 17
	l.left = int64(l.rng % uint64(2*l.gap-1))
}

// maxLatencyGap bounds the sampling gap, so even the shortest runs time
// enough calls for a p99.
const maxLatencyGap = 256

// clockCost measures what timing one call costs: two clock reads, the
// least of a few tries, so a preemption does not inflate it.
func clockCost() int64 {
	const n = 500
	base := time.Now()
	best := int64(math.MaxInt64)
	for range 5 {
		start := time.Since(base)
		var last time.Duration
		for range n {
			last = time.Since(base)
		}
		best = min(best, int64(last-start)*2/n)
	}
	return max(best, 1)
}
