package iobench

import (
	"testing"
	"time"
)

// stallFile is a File whose write number stall (from 1) takes pause; the
// others return at once. It notes whether lat timed the stalled call.
type stallFile struct {
	calls, stall int
	pause        time.Duration
	lat          *latencyRecorder
	stallTimed   bool
}

func (f *stallFile) Write(p []byte) (int, error) {
	if f.calls++; f.calls == f.stall {
		f.stallTimed = f.lat.untimed == 0 // a call left out of the sample counts as untimed
		time.Sleep(f.pause)
	}
	return len(p), nil
}
func (f *stallFile) Read(p []byte) (int, error) { return f.Write(p) }
func (f *stallFile) Fsync() error               { return nil }
func (f *stallFile) Close() error               { return nil }

// stalledRun makes calls writes through a recorder whose clock is so
// dear that it times few of them, with one write pausing; its histogram,
// and whether the sample timed the stalled call.
func stalledRun(t *testing.T, calls, stall int, all bool) (*Latency, bool) {
	t.Helper()
	const pause = 20 * time.Millisecond
	l := newLatencyRecorder(1<<30, 1, all)
	f := &stallFile{stall: stall, pause: pause, lat: l}
	var s Sample
	for range calls {
		if err := writeTimed(f, make([]byte, 8), &s, l); err != nil {
			t.Fatal(err)
		}
	}
	l.end()
	h := l.hist.Latency()
	if h.Calls != int64(calls) || h.MaxBoundNs < int64(pause) || h.MaxBoundNs < h.MaxNs {
		t.Errorf("%d calls, write %d paused %v: calls %d, max %d ns, bound %d ns; want the bound to cover the pause",
			calls, stall, pause, h.Calls, h.MaxNs, h.MaxBoundNs)
	}
	return h, f.stallTimed
}

func TestLatencyBoundCoversAStallTheSampleMissed(t *testing.T) {
	for _, stall := range []int{100, 1000} { // inside the run, and the run's last call
		h, timed := stalledRun(t, 1000, stall, false)
		if h.Timed >= h.Calls/10 || timed {
			t.Errorf("stall at call %d: timed %d of %d, the stall among them: %v; the sample should have missed the stall (the test checks the bound)",
				stall, h.Timed, h.Calls, timed)
		}
	}
}

func TestLatencyAllTimesEveryCall(t *testing.T) {
	h, timed := stalledRun(t, 300, 150, true)
	if !timed || h.Timed != h.Calls || h.MaxNs < int64(20*time.Millisecond) || h.MaxBoundNs != h.MaxNs {
		t.Errorf("every call: timed %d of %d, max %d ns, bound %d ns; want all timed, the stall the max and the bound", h.Timed, h.Calls, h.MaxNs, h.MaxBoundNs)
	}
}

func TestMergedBoundIsUnknownWithAnOldSampledRun(t *testing.T) {
	sampled := &Latency{Calls: 100, Timed: 10, MaxNs: 50, MaxBoundNs: 900, Buckets: [][2]int64{{40, 10}}}
	old := &Latency{Calls: 100, Timed: 10, MaxNs: 70, Buckets: [][2]int64{{40, 10}}}
	oldFull := &Latency{Calls: 10, Timed: 10, MaxNs: 2000, Buckets: [][2]int64{{40, 10}}}
	for _, tc := range []struct {
		in   []*Latency
		want int64
	}{{[]*Latency{sampled}, 900}, {[]*Latency{sampled, oldFull}, 2000}, {[]*Latency{sampled, old}, 0}} {
		if got := MergeLatency(tc.in...).MaxBoundNs; got != tc.want {
			t.Errorf("merged bound of %d runs = %d ns, want %d", len(tc.in), got, tc.want)
		}
	}
}

func TestLatencyAllNeedsLatency(t *testing.T) {
	c := DefaultConfig()
	c.LatencyAll = true
	err := newWriter(c, newMemFS(), nil, "").setupIO()
	if ce, ok := err.(*ConfigError); !ok || ce.Field != SetLatencyAll {
		t.Errorf("LatencyAll without Latency: %v, want a ConfigError naming LatencyAll", err)
	}
}
