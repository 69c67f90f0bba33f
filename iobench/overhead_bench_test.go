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
// iteration runs the engine with latency off and on, in alternating
// order, so drift and other load hit both alike; it reports the mean
// rates and the median of the iterations' on/off ratios.
func BenchmarkLatencyOverhead(b *testing.B) {
	c, dir := benchConfig()
	var off, on float64
	var ratios []float64
	for i := 0; i < b.N; i++ {
		var rate [2]float64
		for _, lat := range []bool{i%2 == 0, i%2 != 0} {
			c.Latency = lat
			rate[map[bool]int{false: 0, true: 1}[lat]] = engineRun(b, c, dir)
		}
		off, on = off+rate[0], on+rate[1]
		ratios = append(ratios, rate[1]/rate[0])
	}
	b.ReportMetric(off/float64(b.N), "off-MiB/s")
	b.ReportMetric(on/float64(b.N), "on-MiB/s")
	b.ReportMetric(knee.Median(ratios), "median-on/off")
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
// (a 1 KiB write to tmpfs here), with this machine's clock cost
// (clock=real) and with the clock never read (clock=never: what every
// call pays, timed or not). ns/op is per call.
func BenchmarkLatencyRecorder(b *testing.B) {
	for _, tc := range []struct {
		name  string
		clock int64
	}{{"clock=never", 1 << 40}, {"clock=real", clockCost()}} {
		b.Run(tc.name, func(b *testing.B) {
			l := newLatencyRecorder(tc.clock, 1)
			for range b.N {
				if l.due() {
					t0 := l.now()
					l.record(l.now() - t0 + 1000)
				}
			}
			b.ReportMetric(float64(l.hist.timed)/float64(l.hist.calls), "timed/call")
			b.ReportMetric(float64(tc.clock), "clock-ns")
		})
	}
}
