package iobench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/knee"
)

// legacyNext is the planner before issue 38, kept to measure the new one
// against: rounds up to MinAutoRounds of the sizes near the first knee,
// then the deciding sizes and two plateau sizes, a round that does not
// fit the budget whole ending the sweep.
func legacyNext(a *autoRounds, samples []Sample, round int, sizes []int64, now time.Time) []int64 {
	runs, est, elapsed, stopped := a.settle(samples, round, sizes, now)
	if stopped {
		return nil
	}
	var want []int64
	switch {
	case round < MinAutoRounds:
		want = a.withReferences(nearKnee(runs, est, a.cfg.Sizes, 3))
	case est.Found:
		want = append(slices.Clone(est.Deciding), legacyPlateauSizes(runs, est)...)
	}
	switch {
	case round < MinAutoRounds:
		return want
	case a.endsWith(want, round):
		return nil
	}
	if cost := a.predict(samples, want); elapsed.Seconds()+cost > a.log.BudgetSeconds {
		a.log.NextRoundSeconds = cost
		return a.stop(StopBudget)
	}
	return want
}

// legacyPlateauSizes are the two sizes above the deciding ones, within the
// band, with the fewest runs.
func legacyPlateauSizes(runs []knee.Runs, est knee.Estimate) []int64 {
	if len(est.Deciding) == 0 {
		return nil
	}
	top := slices.Max(est.Deciding)
	var cand []knee.Runs
	for _, r := range knee.GroupRuns(runs) {
		if r.Size > top && (est.DeclinesAbove == 0 || r.Size <= est.DeclinesAbove) {
			cand = append(cand, r)
		}
	}
	slices.SortStableFunc(cand, func(a, b knee.Runs) int { return len(a.MiBPerSec) - len(b.MiBPerSec) })
	var out []int64
	for _, r := range cand[:min(2, len(cand))] {
		out = append(out, r.Size)
	}
	return out
}

// planner is a next function: the new one or legacyNext.
type planner func(a *autoRounds, samples []Sample, round int, sizes []int64, now time.Time) []int64

func newNext(a *autoRounds, samples []Sample, round int, sizes []int64, now time.Time) []int64 {
	return a.next(samples, round, sizes, now)
}

// ext4Curve is the shape of a default sweep of the development VM's ext4
// (page-cache writes, 2 GB per run): 35% of the plateau at 1 KiB, 92% at
// 32 KiB, the plateau from 128 KiB.
func ext4Curve(s int64) float64 {
	const s0 = 2.2 * 1024 // per-call cost, as a size: y = s/(s+s0)
	return 750 * float64(s) / (float64(s) + s0)
}

// sweepSim is one simulated default adaptive sweep: 2 GB runs that take
// a second of sync and removal plus the data at the curve's rate, with
// log-normal noise and 3% slow runs at 60% speed.
type sweepSim struct {
	curve func(int64) float64
	noise float64
	cfg   Config
	clean bool // no slow runs
}

func (sim sweepSim) run(next planner, rng *rand.Rand) (knee.Estimate, Adaptive) {
	cfg := sim.cfg
	now := time.Unix(0, 0)
	a := newAutoRounds(cfg, now)
	var samples []Sample
	sizes := cfg.Sizes
	const mib = 1907.0 // 2e9 bytes
	for round := 1; len(sizes) > 0; round++ {
		for _, s := range sizes {
			v := sim.curve(s) * math.Exp(sim.noise*rng.NormFloat64())
			if rng.Float64() < 0.03 && !sim.clean {
				v *= 0.6
			}
			secs := mib / v
			samples = append(samples, Sample{Run: Run{Mode: ModeWrite, WriteSize: s, Round: round}, Bytes: 2e9, Seconds: secs})
			now = now.Add(time.Duration(float64(time.Second) * (1 + secs)))
		}
		sizes = next(a, samples, round, sizes, now)
	}
	return knee.EstimateKnee(a.runs(samples), knee.DefaultFraction), a.log
}

func defaultAutoConfig() Config {
	cfg := DefaultConfig()
	cfg.Auto = true
	cfg.ReferenceSizes = []int64{8 << 10, 128 << 10}
	return cfg
}

// tally runs n sweeps with each planner from the same seeds and counts
// the established ones and their rounds.
func tally(sim sweepSim, next planner, n int) (established int, rounds []int, spent []float64) {
	for i := range n {
		rng := rand.New(rand.NewPCG(uint64(i), 99))
		est, log := sim.run(next, rng)
		if est.Established && log.Stop == StopEstablished {
			established++
			rounds = append(rounds, log.Rounds)
		}
		spent = append(spent, log.SpentSeconds/log.FirstRoundSeconds)
	}
	return established, rounds, spent
}

// The planner spends its rounds where the verdict is decided: on a noisy
// ext4-like curve (5% noise, 3% slow runs) and the default budget it
// establishes the knee in far more sweeps than the legacy planner, at no
// more cost, and with no budget it gets there with less time spent.
func TestPlannerEstablishesSoonerThanLegacy(t *testing.T) {
	testenv.Simulation(t)
	sim := sweepSim{curve: ext4Curve, noise: 0.05, cfg: defaultAutoConfig()}
	legacy, _, _ := tally(sim, legacyNext, 100)
	got, _, spent := tally(sim, newNext, 100)
	t.Logf("default budget: %d of 100 established (legacy %d); at most %.2fx the first round", got, legacy, slices.Max(spent))
	if got < 50 || float64(got) < 1.5*float64(legacy) {
		t.Errorf("%d of 100 sweeps established, legacy %d; want at least 50 and 1.5x", got, legacy)
	}
	if m := slices.Max(spent); m > 1.05*DefaultBudgetRounds {
		t.Errorf("a sweep spent %.2fx the first round, over the %dx budget", m, DefaultBudgetRounds)
	}
	sim.cfg.TimeBudget = time.Hour
	costOf := func(next planner) float64 {
		var cost []float64
		for i := range 100 {
			est, log := sim.run(next, rand.New(rand.NewPCG(uint64(i), 5)))
			if est.Established {
				cost = append(cost, log.SpentSeconds/log.FirstRoundSeconds)
			}
		}
		return mean(cost)
	}
	if n, l := costOf(newNext), costOf(legacyNext); n >= l {
		t.Errorf("with no budget, established after %.2fx the first round; legacy %.2fx", n, l)
	} else {
		t.Logf("with no budget, established after %.2fx the first round on average; legacy %.2fx", n, l)
	}
}

// On a flat curve the planner never establishes a knee: at most the
// smallest size, or the middle of the three smallest (knee's rule for a
// three-size interval), one step above it; never a decline.
func TestPlannerFlatCurveHasNoKnee(t *testing.T) {
	testenv.Simulation(t)
	for _, noise := range []float64{0.03, 0.07, 0.12} {
		sim := sweepSim{curve: func(int64) float64 { return 750 }, noise: noise, cfg: defaultAutoConfig(), clean: true}
		for i := range 100 {
			est, log := sim.run(newNext, rand.New(rand.NewPCG(uint64(i), 7)))
			if est.Established && (est.WriteSize > 2<<10 || est.Shape == knee.ShapeDeclines) {
				t.Errorf("noise %.2f, seed %d: a flat curve established a knee at %d (%s) after %d rounds", noise, i, est.WriteSize, est.Shape, log.Rounds)
			}
		}
	}
}

func mean[T int | float64](xs []T) float64 {
	var s float64
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(max(len(xs), 1))
}
