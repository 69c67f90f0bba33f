package iobench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/iobench/iobench/knee"
)

// BenchmarkCallOverhead compares one timed 1 KiB-write run through the
// engine with a bare loop of the same raw writes from the same buffer, in
// one process, on IOBENCH_BENCH_DIR (default /dev/shm). Both report the
// run's own MiB/s; the engine's setup and warm-up are outside the timer.
// latency=on is the same with Config.Latency (BenchmarkLatencyOverhead
// pairs the two in each iteration).
func BenchmarkCallOverhead(b *testing.B) {
	for _, lat := range []bool{false, true} {
		name := map[bool]string{false: "latency=off", true: "latency=on"}[lat]
		b.Run(name, func(b *testing.B) { callOverhead(b, lat) })
	}
}

func benchConfig() (Config, string) {
	dir := os.Getenv("IOBENCH_BENCH_DIR")
	if dir == "" {
		dir = "/dev/shm"
	}
	c := DefaultConfig()
	c.Dir, c.Count, c.Sizes, c.Sync, c.Warmup = dir, 8<<20, []int64{1024}, SyncNone, true
	return c, dir
}

func callOverhead(b *testing.B, latency bool) {
	c, dir := benchConfig()
	c.Latency = latency
	for i := 0; i < b.N; i++ {
		engine := engineRun(b, c, dir)
		bare := bareLoop(b, dir, c)
		b.ReportMetric(engine, "engine-MiB/s")
		b.ReportMetric(bare, "bare-MiB/s")
		b.ReportMetric(engine/bare, "ratio")
	}
}

// BenchmarkLatencyOverhead is what --latency costs at 1 KiB writes: each
// iteration runs the engine with latency off, sampled (--latency) and on
// every call (--latency-all), in rotating order, so drift and other load
// hit all alike; it reports the mean rates and the median of the
// iterations' ratios to off.
func BenchmarkLatencyOverhead(b *testing.B) {
	c, dir := benchConfig()
	modes := []struct {
		name    string
		on, all bool
	}{{"off", false, false}, {"on", true, false}, {"all", true, true}}
	sum := make([]float64, len(modes))
	ratios := make([][]float64, len(modes))
	for i := 0; i < b.N; i++ {
		rate := make([]float64, len(modes))
		for k := range modes {
			m := (i + k) % len(modes)
			c.Latency, c.LatencyAll = modes[m].on, modes[m].all
			rate[m] = engineRun(b, c, dir)
		}
		for m := range modes {
			sum[m] += rate[m]
			ratios[m] = append(ratios[m], rate[m]/rate[0])
		}
	}
	for m, mode := range modes {
		b.ReportMetric(sum[m]/float64(b.N), mode.name+"-MiB/s")
		if m > 0 {
			b.ReportMetric(knee.Median(ratios[m]), "median-"+mode.name+"/off")
		}
	}
}

// engineRun is one sweep of c; its one run's MiB/s.
func engineRun(b *testing.B, c Config, dir string) float64 {
	r := &Runner{Config: c, FS: OSFS{Dir: dir, RawSyscalls: true}}
	res, err := r.Run(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return res.Samples[0].MiBPerSec()
}

func bareLoop(b *testing.B, dir string, c Config) float64 {
	src, err := newSource(c, func() bool { return false }, func(int64) {})
	if err != nil {
		b.Fatal(err)
	}
	defer src.free()
	path := filepath.Join(dir, fmt.Sprintf(".iobench-bare-%d.dat", os.Getpid()))
	var rate float64
	for pass := 0; pass < 2; pass++ { // the first pass is the warm-up
		start := time.Now()
		f, _, err := OSFS{Dir: dir, RawSyscalls: true}.Create(filepath.Base(path), false)
		if err != nil {
			b.Fatal(err)
		}
		for off := 0; off < len(src.data); off += 1024 {
			if _, err := f.Write(src.data[off : off+1024]); err != nil {
				b.Fatal(err)
			}
		}
		f.Close()
		rate = float64(len(src.data)) / time.Since(start).Seconds() / MiB
		os.Remove(path)
	}
	return rate
}

// BenchmarkLatencyRecorder is the CPU cost --latency adds per call, free
// of a file system's noise: the recorder's bookkeeping for calls of 1 µs
// (about a 1 KiB write to tmpfs), with the clock cost of the machine it runs on
// (clock=real; clock=real,all times every call, as --latency-all) and
// with the clock never read (clock=never: what every call pays, timed or
// not). ns/op is per call.
func BenchmarkLatencyRecorder(b *testing.B) {
	for _, tc := range []struct {
		name  string
		clock int64
		all   bool
	}{{"clock=never", 1 << 40, false}, {"clock=real", clockCost(), false}, {"clock=real,all", clockCost(), true}} {
		b.Run(tc.name, func(b *testing.B) {
			l := newLatencyRecorder(tc.clock, 1, tc.all)
			for range b.N {
				if l.due() {
					l.start()
					l.t0 -= 1000
					l.stop()
				}
			}
			b.ReportMetric(float64(l.hist.Timed)/float64(l.hist.Calls), "timed/call")
			b.ReportMetric(float64(tc.clock), "clock-ns")
		})
	}
}
