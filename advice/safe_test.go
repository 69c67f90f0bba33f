package advice

import (
	"strings"
	"testing"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/units"
)

// A knee that is not established is not the advice when a size is
// measured not worse than the plateau: that size is, with its share.
func TestRecommendTheSafeSizeOfAnOpenKnee(t *testing.T) {
	runs := []knee.Runs{
		{Size: 4 << 10, MiBPerSec: []float64{400, 410, 405, 395}},
		{Size: 8 << 10, MiBPerSec: []float64{600, 610, 590, 605}},
		{Size: 16 << 10, MiBPerSec: []float64{850, 900, 880, 870}},
		{Size: 32 << 10, MiBPerSec: []float64{930, 990, 900, 1010}},
		{Size: 64 << 10, MiBPerSec: []float64{940, 1010, 950, 1000}},
		{Size: 128 << 10, MiBPerSec: []float64{1000, 1002, 998, 1001}},
		{Size: 1 << 20, MiBPerSec: []float64{1001, 999, 1000, 1003}},
		{Size: 16 << 20, MiBPerSec: []float64{999, 1000, 1002, 1001}},
	}
	k := knee.EstimateKnee(runs, knee.DefaultFraction)
	k.Established = false
	safe := knee.SafeSize(runs, k.Result)
	r := Recommend(k, runs, fsinfo.Info{})
	if safe.Size <= k.WriteSize || r.Basis != BasisSafe || r.BufferSize != safe.Size || r.Safe == nil || r.Safe.Share != safe.Share {
		t.Fatalf("knee %d open, safe %d: recommended %d (%s, %+v); want the safe size", k.WriteSize, safe.Size, r.BufferSize, r.Basis, r.Safe)
	}
	if r.KneeWriteSize != k.WriteSize {
		t.Errorf("knee_write_size %d, want the knee %d beside the safe size", r.KneeWriteSize, k.WriteSize)
	}
	if r.BlockSizes.Note != "" && !strings.Contains(r.BlockSizes.Note, units.FormatSize(k.WriteSize)) {
		t.Errorf("block sizes %q: want the knee's %s held against them, not the safe size", r.BlockSizes.Note, units.FormatSize(k.WriteSize))
	}
	if !strings.Contains(r.Summary, "the smallest size measured not worse than") || !strings.Contains(r.Summary, "is not established") {
		t.Errorf("summary %q: want the safe size said as such, and the knee as open", r.Summary)
	}
	k.Established = true
	if r := Recommend(k, runs, fsinfo.Info{}); r.Basis != BasisKnee || r.BufferSize != k.WriteSize {
		t.Errorf("established knee %d: recommended %d (%s), want the knee", k.WriteSize, r.BufferSize, r.Basis)
	}
}
