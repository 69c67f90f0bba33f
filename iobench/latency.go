package iobench

import (
	"math"
	"math/bits"
	"time"
)

// Latency is the distribution of one run's per-call times (write(2) or
// read(2)), as a log-linear histogram: exact below 32 ns, then 32 buckets
// per power of two, so a bucket is at most 1/32 (3%) of its value wide
// and quantiles are within 1.6% of the truth whatever the range. Only the
// buckets that counted anything are kept.
//
// Not every call is timed: reading the clock twice costs a tenth of a
// 1 KiB write to tmpfs on some virtual machines. A random sample of
// calls is timed instead, as many as keep the clock's cost near
// LatencyOverhead of the run; every call is timed once calls are long.
// The sample is random, not every n-th call, so a pattern with a period
// (each 4th 1 KiB write starts a page) cannot fall on or between samples.
// The clock reads of the timed calls also time each stretch of untimed
// calls between them, so MaxBoundNs bounds the slowest call of all at no
// extra cost: a stall the sample missed still shows there.
type Latency struct {
	Calls      int64      `json:"calls"`        // calls made
	Timed      int64      `json:"timed_calls"`  // calls timed: the histogram's count
	MaxNs      int64      `json:"max_ns"`       // slowest timed call
	MaxBoundNs int64      `json:"max_bound_ns"` // no call took longer: MaxNs, or the longest untimed stretch
	ClockNs    int64      `json:"clock_ns"`     // what timing a call costs (two clock reads), measured before the runs
	Buckets    [][2]int64 `json:"buckets"`      // [lower bound ns, count], ascending
}

// LatencyOverhead is the share of a run's time the clock may take.
const LatencyOverhead = 0.002

const (
	latSubBits = 5
	latSub     = 1 << latSubBits
	latBuckets = (64 - latSubBits + 1) << latSubBits
)

// latIndex is the bucket of a time of ns nanoseconds.
func latIndex(ns uint64) int {
	if ns < latSub {
		return int(ns)
	}
	e := bits.Len64(ns) - 1
	return (e-latSubBits+1)<<latSubBits | int(ns>>(e-latSubBits))&(latSub-1)
}

// latLow and latWidth bound bucket i: [latLow(i), latLow(i)+latWidth(i)).
func latLow(i int) uint64 {
	if i < latSub {
		return uint64(i)
	}
	e := i>>latSubBits + latSubBits - 1
	return uint64(latSub|i&(latSub-1)) << (e - latSubBits)
}

func latWidth(i int) uint64 {
	if i < latSub {
		return 1
	}
	return 1 << (i>>latSubBits - 1)
}

// Quantile is the time in nanoseconds below which a share q of the timed
// calls fell: the middle of the bucket holding it, never above MaxNs.
func (l *Latency) Quantile(q float64) float64 {
	if l == nil || l.Timed == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(l.Timed)))
	rank = max(rank, 1)
	var seen int64
	for _, b := range l.Buckets {
		if seen += b[1]; seen >= rank {
			i := latIndex(uint64(b[0]))
			mid := float64(latLow(i)) + float64(latWidth(i)-1)/2
			return math.Min(mid, float64(l.MaxNs))
		}
	}
	return float64(l.MaxNs)
}

// MergeLatency adds the histograms of several runs (nil ones skipped);
// nil if there are none. The bound is unknown (0) if one sampled run
// lacks it (results of an older version).
func MergeLatency(ls ...*Latency) *Latency {
	var h latencyHist
	found, unbounded := false, false
	for _, l := range ls {
		if l == nil {
			continue
		}
		found = true
		h.calls += l.Calls
		h.max = max(h.max, l.MaxNs)
		h.clock = max(h.clock, l.ClockNs)
		bound := l.MaxBoundNs
		if bound == 0 && l.Timed == l.Calls {
			bound = l.MaxNs
		}
		unbounded = unbounded || bound == 0 && l.Calls > 0
		h.bound = max(h.bound, bound)
		for _, b := range l.Buckets {
			i := latIndex(uint64(b[0]))
			h.counts[i] += uint64(b[1])
			h.timed += b[1]
		}
	}
	if !found {
		return nil
	}
	l := h.latency()
	if unbounded {
		l.MaxBoundNs = 0
	}
	return l
}

// latencyHist is the dense histogram a run fills.
type latencyHist struct {
	counts [latBuckets]uint64
	calls  int64
	timed  int64
	max    int64
	bound  int64 // longest stretch of untimed calls, ns
	clock  int64 // ns two clock reads cost
}

func (h *latencyHist) add(ns int64) {
	ns = max(ns, 0)
	h.counts[latIndex(uint64(ns))]++
	h.timed++
	h.max = max(h.max, ns)
}

// latency is the histogram's sparse form.
func (h *latencyHist) latency() *Latency {
	l := &Latency{Calls: h.calls, Timed: h.timed, MaxNs: h.max, MaxBoundNs: max(h.max, h.bound), ClockNs: h.clock, Buckets: [][2]int64{}}
	for i, n := range h.counts {
		if n > 0 {
			l.Buckets = append(l.Buckets, [2]int64{int64(latLow(i)), int64(n)})
		}
	}
	return l
}

// latencyRecorder times a random sample of one run's calls, or every
// call (all). The engine asks due() before each call; a due call is
// timed with start() and stop(), and end() closes the run.
type latencyRecorder struct {
	hist    latencyHist
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
	return &latencyRecorder{base: time.Now(), clock: clock, all: all, gap: 1, rng: seed | 1, hist: latencyHist{clock: clock}}
}

// reset starts another run with the same recorder.
func (l *latencyRecorder) reset(seed uint64) {
	*l = latencyRecorder{base: time.Now(), clock: l.clock, all: l.all, gap: 1, rng: seed | 1}
	l.hist.clock = l.clock
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
		l.hist.bound = max(l.hist.bound, now-l.last)
		l.untimed = 0
	}
}

// now is the monotonic time since the recorder started: one clock read
// (time.Since reads only the monotonic clock).
func (l *latencyRecorder) now() int64 { return int64(time.Since(l.base)) }

// due counts a call and reports whether to time it.
func (l *latencyRecorder) due() bool {
	l.hist.calls++
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
	l.hist.add(ns)
	if l.all {
		return // no gap to draw
	}
	if l.hist.timed == 1 {
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

// LatencySummary is the per-call times of every run of one size: µs.
type LatencySummary struct {
	Calls      int64   `json:"calls"`       // calls made
	TimedCalls int64   `json:"timed_calls"` // calls timed (a random sample of them)
	P50        float64 `json:"p50_us"`
	P90        float64 `json:"p90_us"`
	P99        float64 `json:"p99_us"`
	Max        float64 `json:"max_us"`       // the slowest timed call
	MaxBound   float64 `json:"max_bound_us"` // no call took longer (Max when every call was timed); 0: unknown
	Clock      float64 `json:"clock_us"`     // what timing a call costs, inside each timed figure; 0: unknown
}

// Summary is the histogram's quantiles in µs.
func (l *Latency) Summary() *LatencySummary {
	if l == nil {
		return nil
	}
	return &LatencySummary{Calls: l.Calls, TimedCalls: l.Timed,
		P50: l.Quantile(0.50) / 1e3, P90: l.Quantile(0.90) / 1e3, P99: l.Quantile(0.99) / 1e3, Max: float64(l.MaxNs) / 1e3,
		MaxBound: float64(l.MaxBoundNs) / 1e3, Clock: float64(l.ClockNs) / 1e3}
}

// summarizeIO is what a size's runs say beyond throughput: how many the
// time limit cut, and their per-call times merged.
func summarizeIO(ss []Sample) (limited int, lat *LatencySummary) {
	ls := make([]*Latency, 0, len(ss))
	for _, s := range ss {
		if s.TimeLimited {
			limited++
		}
		ls = append(ls, s.Latency)
	}
	return limited, MergeLatency(ls...).Summary()
}
