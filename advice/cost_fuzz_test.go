package advice

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/iobench/iobench/workload"
	"github.com/iobench/iobench/workload/darshan"
)

// FuzzCostOfLogs runs every log the fuzzer makes through the whole
// estimate: the reader, the workload model and the cost on a curve. It
// must not panic, and what it finds must add up: no negative calls, and
// no NaN or negative seconds. Its seeds are the shared logs
// ($IOBENCH_SHARED, or the shared folder beside the repository).
func FuzzCostOfLogs(f *testing.F) {
	shared := filepath.Join("..", "..", "shared")
	if s := os.Getenv("IOBENCH_SHARED"); s != "" {
		shared = s
	}
	logs, _ := filepath.Glob(filepath.Join(shared, "darshan", "logs", "*", "*.darshan"))
	for _, p := range logs {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	lim := darshan.Limits{MaxDecompressed: 64 << 20, MaxRecords: 1 << 16}
	curve := quarterCurve()
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := darshan.Parse(bytes.NewReader(data), int64(len(data)), lim)
		if err != nil {
			return
		}
		in := workload.FromDarshan("fuzz", l)
		c := EstimateCost([]workload.Input{in}, curve)
		for _, fc := range append(c.Files, c.Total) {
			for _, s := range []float64{fc.Now.Est, fc.Now.Low, fc.Now.High, fc.AtRecommended.Est} {
				if math.IsNaN(s) || s < 0 {
					t.Fatalf("%s: seconds %v", fc.Path, s)
				}
			}
			if fc.EstimatedCalls < 0 || fc.OutsideCalls < 0 {
				t.Fatalf("%s: %d calls estimated, %d outside", fc.Path, fc.EstimatedCalls, fc.OutsideCalls)
			}
		}
		RuntimesOf([]workload.Input{in}, ProgramFacts{})
	})
}

// FuzzCostOfSizes holds one file of any sizes against the curve: an exact
// size and one of Darshan's bins, with any calls and byte total a log may
// claim. Every estimate, and the gain, must lie inside its interval, and
// the saving cannot exceed the time now.
func FuzzCostOfSizes(f *testing.F) {
	f.Add(int64(128<<10), int64(2048), 4, int64(100), int64(256<<20))
	f.Add(int64(8), int64(1<<20), 0, int64(0), int64(8<<20))
	f.Add(int64(1<<20), int64(10), 4, int64(5), int64(1<<40))
	f.Add(int64(0), int64(0), 9, int64(1), int64(math.MaxInt64))
	curve := quarterCurve()
	f.Fuzz(func(t *testing.T, size, calls int64, bin int, binCalls, bytes int64) {
		if size < 0 || calls < 0 || binCalls < 0 || bytes < 0 || bin < 0 || bin >= len(workload.BinNames) {
			return
		}
		low, high := binEnds(bin)
		file := workload.File{Path: "/x/fuzz", Module: workload.ModulePOSIX, Writes: calls + binCalls, Bytes: bytes, Histogram: true,
			Sizes: []workload.SizeClass{{Low: size, High: size, Calls: calls}, {Low: low, High: high, Calls: binCalls, Bin: workload.BinNames[bin]}}}
		c := EstimateCost([]workload.Input{{Files: []workload.File{file}}}, curve)
		for _, cc := range c.Files[0].Classes {
			for _, s := range []Seconds{cc.Now, cc.AtRecommended} {
				if math.IsNaN(s.Est) || s.Low < 0 || s.Est < s.Low*(1-1e-9) || s.Est > s.High*(1+1e-9) {
					t.Fatalf("class %+v: seconds %+v not inside their interval", cc.SizeClass, s)
				}
			}
			if cc.Bytes < 0 {
				t.Fatalf("class %+v: %d bytes", cc.SizeClass, cc.Bytes)
			}
		}
		if s := c.Total.Saving(); s.Est < -1e-9 || s.Est > c.Total.Now.Est*(1+1e-9) {
			t.Fatalf("saving %v of %v now", s.Est, c.Total.Now.Est)
		}
		if g, lo, hi := c.Total.Gain(); g > 0 && (lo > g*(1+1e-9) || hi < g*(1-1e-9)) {
			t.Fatalf("gain %v outside its interval %v-%v", g, lo, hi)
		}
	})
}

// binEnds are the sizes Darshan's bin i holds.
func binEnds(i int) (low, high int64) {
	highs := []int64{100, 1 << 10, 10 << 10, 100 << 10, 1 << 20, 4 << 20, 10 << 20, 100 << 20, 1 << 30, math.MaxInt64}
	if i > 0 {
		low = highs[i-1] + 1
	}
	return low, highs[i]
}
