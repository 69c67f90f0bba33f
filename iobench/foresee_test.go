package iobench

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Foresee names the sizes the sweep then runs, whenever the sweep goes on.
func TestForeseeIsWhatTheSweepRuns(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Auto, cfg.TimeBudget = true, time.Hour
	cfg.ReferenceSizes = []int64{8 << 10, 128 << 10}
	for _, noise := range []float64{0.01, 0.1, 0.2} {
		rng := rand.New(rand.NewPCG(5, 6))
		a := newAutoRounds(cfg, time.Unix(0, 0))
		var samples []Sample
		sizes := cfg.Sizes
		for round := 1; len(sizes) > 0 && round <= MaxAutoRounds; round++ {
			samples = append(samples, roundSamples(round, sizes, kneeCurve(256<<10), noise, rng)...)
			foreseen := Foresee(cfg, samples, round)
			if sizes = a.next(samples, round, sizes, time.Unix(int64(round), 0)); sizes != nil && !slices.Equal(sizes, foreseen) {
				t.Errorf("noise %v, after round %d: foreseen %v, run %v", noise, round, foreseen, sizes)
			}
		}
	}
}
