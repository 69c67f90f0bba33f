package record

import (
	"math"
	"testing"
	"time"
)

func TestLatencyBuckets(t *testing.T) {
	for _, ns := range []uint64{0, 1, 31, 32, 33, 63, 64, 65, 1000, 1 << 20, 123456789, 1 << 62, math.MaxInt64} {
		i := latIndex(ns)
		if lo, w := latLow(i), latWidth(i); ns < lo || ns-lo >= w {
			t.Errorf("%d ns: bucket %d is [%d, %d+%d)", ns, i, lo, lo, w)
		}
		if i >= latBuckets {
			t.Errorf("%d ns: bucket %d past the last (%d)", ns, i, latBuckets)
		}
		if i > 0 && latLow(i-1)+latWidth(i-1) != latLow(i) {
			t.Errorf("bucket %d does not start where %d ends", i, i-1)
		}
	}
	var h LatencyHist
	for v := int64(1); v <= 100000; v++ {
		h.Add(v * 10) // 10 ns .. 1 ms, uniform
		h.Calls++
	}
	l := h.Latency()
	for _, q := range []float64{0.5, 0.9, 0.99} {
		want := q * 1e6
		if got := l.Quantile(q); math.Abs(got-want)/want > 0.02 {
			t.Errorf("p%.0f = %.0f ns, want %.0f within 2%%", 100*q, got, want)
		}
	}
	if m := MergeLatency(l, nil, l); m.Timed != 2*l.Timed || m.Quantile(0.5) != l.Quantile(0.5) || m.MaxNs != l.MaxNs {
		t.Errorf("merging a histogram with itself: %d timed, p50 %v; want %d, %v", m.Timed, m.Quantile(0.5), 2*l.Timed, l.Quantile(0.5))
	}
	if MergeLatency(nil) != nil {
		t.Error("merging nothing gave a histogram")
	}
}

// TestBudgetRoundTrips: a budget recorded as float seconds comes back as
// the duration it was, which truncation loses for some (2.823333052s).
func TestBudgetRoundTrips(t *testing.T) {
	for _, d := range []time.Duration{2823333052 * time.Nanosecond, 90 * time.Second, 1100 * time.Millisecond} {
		if got := (Config{TimeBudget: d.Seconds()}).Budget(); got != d {
			t.Errorf("%v recorded as %v s comes back as %v", d, d.Seconds(), got)
		}
	}
}
