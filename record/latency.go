package record

import (
	"math"
	"math/bits"
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
	var h LatencyHist
	found, unbounded := false, false
	for _, l := range ls {
		if l == nil {
			continue
		}
		found = true
		h.Calls += l.Calls
		h.Max = max(h.Max, l.MaxNs)
		h.Clock = max(h.Clock, l.ClockNs)
		bound := l.MaxBoundNs
		if bound == 0 && l.Timed == l.Calls {
			bound = l.MaxNs
		}
		unbounded = unbounded || bound == 0 && l.Calls > 0
		h.Bound = max(h.Bound, bound)
		for _, b := range l.Buckets {
			i := latIndex(uint64(b[0]))
			h.Counts[i] += uint64(b[1])
			h.Timed += b[1]
		}
	}
	if !found {
		return nil
	}
	l := h.Latency()
	if unbounded {
		l.MaxBoundNs = 0
	}
	return l
}

// LatencyHist is the dense histogram a run fills.
type LatencyHist struct {
	Counts [latBuckets]uint64
	Calls  int64
	Timed  int64
	Max    int64
	Bound  int64 // longest stretch of untimed calls, ns
	Clock  int64 // ns two clock reads cost
}

func (h *LatencyHist) Add(ns int64) {
	ns = max(ns, 0)
	h.Counts[latIndex(uint64(ns))]++
	h.Timed++
	h.Max = max(h.Max, ns)
}

// Latency is the histogram's sparse form.
func (h *LatencyHist) Latency() *Latency {
	l := &Latency{Calls: h.Calls, Timed: h.Timed, MaxNs: h.Max, MaxBoundNs: max(h.Max, h.Bound), ClockNs: h.Clock, Buckets: [][2]int64{}}
	for i, n := range h.Counts {
		if n > 0 {
			l.Buckets = append(l.Buckets, [2]int64{int64(latLow(i)), int64(n)})
		}
	}
	return l
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
