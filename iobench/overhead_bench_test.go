package iobench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCallOverhead compares one timed 1 KiB-write run through the
// engine with a bare loop of the same raw writes from the same buffer, in
// one process, on IOBENCH_BENCH_DIR (default /dev/shm). Both report the
// run's own MiB/s; the engine's setup and warm-up are outside the timer.
func BenchmarkCallOverhead(b *testing.B) {
	dir := os.Getenv("IOBENCH_BENCH_DIR")
	if dir == "" {
		dir = "/dev/shm"
	}
	c := DefaultConfig()
	c.Dir, c.Count, c.Sizes, c.Sync, c.Warmup = dir, 8<<20, []int64{1024}, SyncNone, true
	for i := 0; i < b.N; i++ {
		r := &Runner{Config: c, FS: OSFS{Dir: dir, RawSyscalls: true}}
		res, err := r.Run(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		engine := res.Samples[0].MiBPerSec()
		bare := bareLoop(b, dir, c)
		b.ReportMetric(engine, "engine-MiB/s")
		b.ReportMetric(bare, "bare-MiB/s")
		b.ReportMetric(engine/bare, "ratio")
	}
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
