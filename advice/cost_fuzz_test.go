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
