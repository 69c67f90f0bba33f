package verdict

import (
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
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

// curveRuns are four runs of each size: far below at 4 and 8 KiB, a knee
// near 32 KiB that the runs leave open, the plateau from 128 KiB.
func curveRuns() []knee.Runs {
	return []knee.Runs{
		{Size: 4 << 10, MiBPerSec: []float64{400, 410, 405, 395}},
		{Size: 8 << 10, MiBPerSec: []float64{600, 610, 590, 605}},
		{Size: 16 << 10, MiBPerSec: []float64{850, 900, 880, 870}},
		{Size: 32 << 10, MiBPerSec: []float64{930, 990, 900, 1010}},
		{Size: 64 << 10, MiBPerSec: []float64{940, 1010, 950, 1000}},
		{Size: 128 << 10, MiBPerSec: []float64{1000, 1003, 998, 1001}},
		{Size: 1 << 20, MiBPerSec: []float64{1000, 1002, 999, 1001}},
		{Size: 16 << 20, MiBPerSec: []float64{1002, 999, 1000, 1004}},
	}
}

// writesOf is the writes verdict of runs with knee k, as sweepVerdict
// makes it.
func writesOf(runs []knee.Runs, k knee.Estimate) WritesVerdict {
	w := WritesVerdict{WriteSize: k.WriteSize, Established: k.Established, PlateauMiBPerSec: k.PlateauMiBPerSec}
	w.SafeSize, w.SafeShare, w.SafeShareLow = safeSize(runs, k)
	w.Recommended, w.RecommendedFrom = recommended(w)
	return w
}

// A knee that is not established gives way to the measured safe size:
// a default below it is set to it, with its share; one at or above it is
// kept, established with it. An established knee is still what they aim
// at.
func TestDefaultsFollowTheSafeSize(t *testing.T) {
	runs := curveRuns()
	k := knee.EstimateKnee(runs, knee.DefaultFraction)
	k.Established = false // the case under test, whatever these runs show
	w := writesOf(runs, k)
	if w.RecommendedFrom != FromSafe || w.Recommended != w.SafeSize || w.SafeSize <= k.WriteSize {
		t.Fatalf("knee %d not established, safe size %d: recommended %d from %q; want the safe size, above the knee",
			k.WriteSize, w.SafeSize, w.Recommended, w.RecommendedFrom)
	}
	stdio := judgeDefault(DefaultVerdict{Runtime: "stdio", Default: 4 << 10}, runs, k, w)
	if stdio.Basis != BasisGain || stdio.Set != w.SafeSize || stdio.BufferShare != w.SafeShare || !stdio.Established {
		t.Errorf("4 KiB default: %+v; want set to the %d safe size, with its share", stdio, w.SafeSize)
	}
	unf := judgeDefault(DefaultVerdict{Runtime: "libgfortran", Case: "unformatted", Default: 128 << 10}, runs, k, w)
	if unf.Basis != BasisAboveSafe || !unf.Established || unf.Set != 0 {
		t.Errorf("128 KiB default: %+v; want kept, at or above the safe size, established", unf)
	}
	k.Established = true
	w = writesOf(runs, k)
	if got := judgeDefault(DefaultVerdict{Runtime: "stdio", Default: 4 << 10}, runs, k, w); w.RecommendedFrom != FromKnee || got.Set != k.WriteSize {
		t.Errorf("established knee %d: recommended from %q, stdio set to %d; want the knee", k.WriteSize, w.RecommendedFrom, got.Set)
	}
}

// The defaults are enough when nothing can be told apart: a flat curve
// within its noise; not when a default is measurably slower, nor with one
// round, whose noise is unknown.
func TestNothingApart(t *testing.T) {
	flat := []knee.Runs{}
	for i, s := range []int64{4 << 10, 8 << 10, 64 << 10, 128 << 10, 1 << 20, 16 << 20} {
		d := float64(i%3) * 5
		flat = append(flat, knee.Runs{Size: s, MiBPerSec: []float64{990 + d, 1010 - d, 1000, 995 + d}})
	}
	judged := func(runs []knee.Runs) (knee.Estimate, []DefaultVerdict) {
		k := knee.EstimateKnee(runs, knee.DefaultFraction)
		w := writesOf(runs, k)
		var ds []DefaultVerdict
		for _, d := range []int64{4 << 10, 8 << 10, 128 << 10} {
			ds = append(ds, judgeDefault(DefaultVerdict{Default: d}, runs, k, w))
		}
		return k, ds
	}
	if k, ds := judged(flat); !nothingApart(flat, k, ds) {
		t.Errorf("a flat curve (knee %+v): the defaults are not called enough", k)
	}
	slow := append([]knee.Runs{}, flat...)
	slow[0] = knee.Runs{Size: 4 << 10, MiBPerSec: []float64{400, 410, 405, 395}}
	if k, ds := judged(slow); nothingApart(slow, k, ds) {
		t.Errorf("4 KiB at 40%% of the plateau: the defaults are called enough")
	}
	var one []knee.Runs
	for _, r := range flat {
		one = append(one, knee.Runs{Size: r.Size, MiBPerSec: r.MiBPerSec[:1]})
	}
	if k, ds := judged(one); nothingApart(one, k, ds) {
		t.Errorf("one round: the defaults are called enough without the noise measured")
	}
}

// The verdict's knee is the knee, also when the recommendation is the
// measured safe size standing in for it.
func TestVerdictKneeIsTheKnee(t *testing.T) {
	safe := &advice.Recommendation{BufferSize: 64 << 10, Basis: advice.BasisSafe, KneeWriteSize: 32 << 10}
	if got := kneeSize(safe); got != 32<<10 {
		t.Errorf("knee of a safe-size recommendation: %d, want 32 KiB", got)
	}
	if got := kneeSize(&advice.Recommendation{BufferSize: 128 << 10, Basis: advice.BasisKnee}); got != 128<<10 {
		t.Errorf("knee of a knee recommendation: %d, want 128 KiB", got)
	}
}

// A safe-size recommendation has its how-to-apply block, set at the
// safe size: a run once printed none.
func TestHowToApplyTheSafeSize(t *testing.T) {
	rec := &advice.Recommendation{BufferSize: 64 << 10, Basis: advice.BasisSafe, KneeWriteSize: 32 << 10}
	v := Verdict{Writes: &WritesVerdict{WriteSize: 32 << 10, Recommended: 64 << 10, RecommendedFrom: FromSafe}}
	k := knee.Estimate{Result: knee.Result{Found: true, WriteSize: 32 << 10}}
	as := howToApply(rec, v, k, record.Config{Settings: record.Settings{Mode: "write"}}, fsinfo.Info{Type: "ext4", BlockSize: 4096, IOBlockSize: 4096}, nil)
	found := false
	for _, a := range as {
		found = found || a.Runtime == advice.RuntimeStdio && strings.Contains(a.Value, "65536")
	}
	if !found {
		t.Errorf("how to apply %+v: want the stdio row at the 64 KiB safe size", as)
	}
}
