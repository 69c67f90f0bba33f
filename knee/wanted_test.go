package knee_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/iobench/iobench/knee"
)

// noisyRuns are n runs of each size 1 KiB..64 MiB of a curve that levels
// off at 64 KiB, with log-normal noise.
func noisyRuns(rng *rand.Rand, n int, noise float64) []knee.Runs {
	var out []knee.Runs
	for s := int64(1 << 10); s <= 64<<20; s *= 2 {
		r := knee.Runs{Size: s}
		for range n {
			y := 750 * float64(s) / (float64(s) + 2200)
			r.MiBPerSec = append(r.MiBPerSec, y*math.Exp(noise*rng.NormFloat64()))
		}
		out = append(out, r)
	}
	return out
}

// RunsWanted asks only for sizes the establishment test turns on: the
// deciding ones and the plateau, never sizes far below the knee; nothing
// with one round or once the knee is established.
func TestRunsWantedOnlyWhereItDecides(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	if w := knee.RunsWanted(noisyRuns(rng, 1, 0.05), knee.DefaultFraction); w != nil {
		t.Errorf("one round: wants %v, want nothing (no noise measured)", w)
	}
	asked := 0
	for range 50 {
		runs := noisyRuns(rng, 3, 0.06)
		est := knee.EstimateKnee(runs, knee.DefaultFraction)
		w := knee.RunsWanted(runs, knee.DefaultFraction)
		if est.Established && w != nil {
			t.Errorf("established at %d, yet wants %v", est.WriteSize, w)
		}
		if !est.Established && est.Found && len(w) == 0 {
			t.Errorf("not established (%s), yet wants nothing", est.Status)
		}
		for _, s := range w {
			if s < slices.Min(est.Deciding) {
				t.Errorf("wants %d, below the deciding sizes %v", s, est.Deciding)
			}
		}
		asked += len(w)
	}
	if asked >= 50*17/2 {
		t.Errorf("wants %d size-runs in 50 looks, half the sizes or more each time", asked)
	}
}
