package report

import (
	"testing"

	"github.com/iobench/iobench/knee"
)

// The safe choice is the smallest size shown not worse than the plateau,
// measured, not the top of the knee's interval; fewer runs never make a
// smaller size look safe.
func TestSafeSizeIsMeasured(t *testing.T) {
	runs := []knee.Runs{
		{Size: 4 << 10, MiBPerSec: []float64{400, 410, 405, 395}},
		{Size: 64 << 10, MiBPerSec: []float64{990, 1000, 1005, 995}},
		{Size: 1 << 20, MiBPerSec: []float64{1000, 1003, 998, 1001}},
		{Size: 16 << 20, MiBPerSec: []float64{1002, 999, 1000, 1004}},
	}
	k := knee.EstimateKnee(runs, knee.DefaultFraction)
	size, share, low := safeSize(runs, k)
	if size != 64<<10 || share < 0.95 || low < knee.DefaultFraction || low > share {
		t.Errorf("safeSize = %d (%.3f, low %.3f), want 64 KiB at >= 95%% of the plateau", size, share, low)
	}
	few := []knee.Runs{runs[0], {Size: 64 << 10, MiBPerSec: []float64{1000, 990}}, runs[2], runs[3]}
	if size, _, _ := safeSize(few, knee.EstimateKnee(few, knee.DefaultFraction)); size == 64<<10 {
		t.Errorf("two runs of 64 KiB made it the safe choice")
	}
	slow := []knee.Runs{runs[0], {Size: 64 << 10, MiBPerSec: []float64{700, 1000, 800, 950}}, runs[2], runs[3]}
	if size, _, _ := safeSize(slow, knee.EstimateKnee(slow, knee.DefaultFraction)); size == 64<<10 {
		t.Errorf("a 64 KiB whose runs reach down to 70%% of the plateau was called safe")
	}
}
