package iobench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/units"
)

// roundSamples is one round of the sizes at rates from curve, with
// log-normal noise; each run's seconds are what its rate implies.
func roundSamples(round int, sizes []int64, curve func(int64) float64, noise float64, rng *rand.Rand) []Sample {
	var out []Sample
	for _, s := range sizes {
		v := curve(s) * math.Exp(noise*rng.NormFloat64())
		out = append(out, Sample{Run: Run{Mode: ModeWrite, WriteSize: s, Round: round}, Bytes: MiB, Seconds: 1 / v})
	}
	return out
}

// drive runs autoRounds as the engine does, each round taking one second
// per size, and returns the rounds' sizes.
func drive(t *testing.T, cfg Config, curve func(int64) float64, noise float64) ([][]int64, Adaptive) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Unix(0, 0)
	a := newAutoRounds(cfg, start)
	now := start
	var samples []Sample
	var rounds [][]int64
	sizes := cfg.Sizes
	for round := 1; len(sizes) > 0; round++ {
		rounds = append(rounds, sizes)
		samples = append(samples, roundSamples(round, sizes, curve, noise, rng)...)
		now = now.Add(time.Duration(len(sizes)) * time.Second)
		sizes = a.next(samples, round, sizes, now)
		if round > MaxAutoRounds+1 {
			t.Fatal("adaptive rounds do not stop")
		}
	}
	return rounds, a.log
}

func kneeCurve(k float64) func(int64) float64 {
	return func(s int64) float64 { return 1000 * math.Pow(min(1, float64(s)/k), 0.7) }
}

func TestAutoRoundsQuietCurve(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Auto = true
	rounds, log := drive(t, cfg, kneeCurve(256<<10), 0.01)
	// Established at round 3, confirmed by round 4 (two looks in a row).
	if log.Stop != StopEstablished || log.Rounds != MinAutoRounds+1 {
		t.Errorf("stop %q after %d rounds; want established after %d", log.Stop, log.Rounds, MinAutoRounds+1)
	}
	if len(rounds[0]) != len(cfg.Sizes) {
		t.Errorf("round 1 ran %d sizes, want all %d", len(rounds[0]), len(cfg.Sizes))
	}
	// Round 2 covers the knee (256 KiB) +- aroundKnee steps.
	want := units.PowersOfTwo(64<<10, 1<<20)
	if !slices.Equal(rounds[1], want) {
		t.Errorf("round 2 sizes %v, want %v", rounds[1], want)
	}
	// The default budget is 3 rounds of round 1: 17 s x 3.
	if log.BudgetSeconds != 3*17 || log.FirstRoundSeconds != 17 || log.BudgetFromFlag {
		t.Errorf("budget %v s from a %v s first round (flag %v); want 51 from 17", log.BudgetSeconds, log.FirstRoundSeconds, log.BudgetFromFlag)
	}
	if log.SpentSeconds > log.BudgetSeconds {
		t.Errorf("spent %v s of a %v s budget", log.SpentSeconds, log.BudgetSeconds)
	}
	if last := rounds[len(rounds)-1]; len(last) > 3+2 {
		t.Errorf("round 4 ran %v; want the deciding sizes and 2 plateau sizes", last)
	}
}

// A runtime's default buffer far below the knee still runs in each of the
// first MinAutoRounds rounds, so the gain over it can be tested; a
// reference size outside the sweep is not added.
func TestAutoRoundsRunReferenceSizes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Auto = true
	cfg.ReferenceSizes = []int64{8 << 10, 128 << 10, 3 << 10}
	rounds, _ := drive(t, cfg, kneeCurve(4<<20), 0.01)
	for r := 1; r < MinAutoRounds; r++ {
		for _, ref := range []int64{8 << 10, 128 << 10} {
			if !slices.Contains(rounds[r], ref) {
				t.Errorf("round %d sizes %v lack the reference size %d", r+1, rounds[r], ref)
			}
		}
		if slices.Contains(rounds[r], 3<<10) {
			t.Errorf("round %d runs 3 KiB, which is not in the sweep", r+1)
		}
		if !slices.IsSorted(rounds[r]) {
			t.Errorf("round %d sizes %v not sorted", r+1, rounds[r])
		}
	}
}

// TestAdaptiveTruth runs adaptive sweeps of curves with known knees at 5-20%
// noise, 3% slow runs at half speed, the engine's default budget, and
// run times that follow the throughput: an established knee more than one
// size step from the truth in at most 5% of the established, every sweep
// within its budget (to 5%, the noise of one round's run times) after the
// rounds that always run.
func TestAdaptiveTruth(t *testing.T) {
	testenv.Simulation(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var established, far, n int
	for range 400 {
		curve, truth := randomKneeCurve(rng)
		noise := []float64{0.05, 0.10, 0.15, 0.20}[rng.IntN(4)]
		est, log := adaptiveSweep(curve, noise, rng)
		n++
		if est.Established {
			established++
			if off := math.Abs(math.Log2(float64(est.WriteSize) / float64(truth))); off > 1 {
				far++
			}
		}
		// The budget holds to the noise of the last round's run times.
		if log.Rounds > MinAutoRounds && log.SpentSeconds > 1.05*log.BudgetSeconds {
			t.Errorf("spent %.1f s of a %.1f s budget in %d rounds", log.SpentSeconds, log.BudgetSeconds, log.Rounds)
		}
	}
	pct := 100 * float64(far) / float64(max(established, 1))
	t.Logf("%d sweeps, %d established, %d of those more than one step off (%.1f%%)", n, established, far, pct)
	if established < 100 || pct > 5 {
		t.Errorf("%d established, %.1f%% more than one step off; want at least 100 and at most 5%%", established, pct)
	}
}

// randomKneeCurve is a hard corner or a saturating curve with a knee of
// 4 KiB .. 8 MiB, and its true knee (the plateau rule on the noiseless curve).
func randomKneeCurve(rng *rand.Rand) (func(int64) float64, int64) {
	k := float64(int64(4<<10) << rng.IntN(12))
	u := 0.5 + 0.5*rng.Float64()
	curves := []func(int64) float64{
		func(s int64) float64 { return 1000 * math.Pow(min(1, float64(s)/k), 0.4) },
		func(s int64) float64 { return 1000 * min(1, float64(s)/k) },
		func(s int64) float64 { s0 := k / 19 * u; return 1000 * float64(s) / (float64(s) + s0) },
		func(s int64) float64 { s0 := k / 3 * u; return 1000 * (1 - math.Exp(-float64(s)/s0)) },
	}
	f := curves[rng.IntN(len(curves))]
	var pts []knee.Point
	for _, s := range DefaultConfig().Sizes {
		pts = append(pts, knee.Point{Size: s, MiBPerSec: f(s)})
	}
	return f, knee.Find(pts, knee.DefaultFraction).WriteSize
}

// adaptiveSweep drives autoRounds with simulated runs whose wall time is
// a fixed 0.3 s plus the data at the curve's rate.
func adaptiveSweep(curve func(int64) float64, noise float64, rng *rand.Rand) (knee.Estimate, Adaptive) {
	cfg := DefaultConfig()
	cfg.Auto = true
	now := time.Unix(0, 0)
	a := newAutoRounds(cfg, now)
	var samples []Sample
	sizes := cfg.Sizes
	for round := 1; len(sizes) > 0; round++ {
		for _, s := range sizes {
			v := curve(s) * math.Exp(noise*rng.NormFloat64())
			if rng.Float64() < 0.03 {
				v *= 0.5
			}
			secs := 250 / v
			samples = append(samples, Sample{Run: Run{Mode: ModeWrite, WriteSize: s, Round: round}, Bytes: 250 * MiB, Seconds: secs})
			now = now.Add(time.Duration(float64(time.Second) * (0.3 + secs)))
		}
		sizes = a.next(samples, round, sizes, now)
	}
	return knee.EstimateKnee(a.runs(samples), knee.DefaultFraction), a.log
}

func TestAutoRoundsNoisyCurveStopsAtTheBudget(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Auto = true
	cfg.TimeBudget = 40 * time.Second
	rounds, log := drive(t, cfg, kneeCurve(256<<10), 0.25)
	if log.Stop != StopBudget || !log.BudgetFromFlag || log.BudgetSeconds != 40 {
		t.Fatalf("stop %q, budget %v s (flag %v); want the 40 s --time-budget to stop it", log.Stop, log.BudgetSeconds, log.BudgetFromFlag)
	}
	if log.SpentSeconds > 40 || log.SpentSeconds+log.NextRoundSeconds <= 40 {
		t.Errorf("spent %v s, next round %v s: must fit the budget and the next must not", log.SpentSeconds, log.NextRoundSeconds)
	}
	if len(rounds) < MinAutoRounds {
		t.Errorf("%d rounds; the first %d always run", len(rounds), MinAutoRounds)
	}
	for i := MinAutoRounds; i < len(rounds); i++ {
		if len(rounds[i]) >= len(cfg.Sizes)/2 {
			t.Errorf("round %d ran %d sizes; after round %d only the deciding few", i+1, len(rounds[i]), MinAutoRounds)
		}
	}
}

func TestAutoRoundsRisingCurveStops(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Auto = true
	rounds, log := drive(t, cfg, func(s int64) float64 { return float64(s) }, 0.01)
	if log.Stop != StopNoKnee || len(rounds) != MinAutoRounds {
		t.Errorf("stop %q after %d rounds; want no_knee after %d", log.Stop, len(rounds), MinAutoRounds)
	}
	for _, r := range rounds {
		if len(r) != len(cfg.Sizes) {
			t.Errorf("a round without a knee ran %d sizes, want every size", len(r))
		}
	}
}

func TestAutoRoundsMax(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Auto = true
	cfg.TimeBudget = 1e6 * time.Second
	_, log := drive(t, cfg, kneeCurve(256<<10), 0.6)
	if log.Stop != StopMaxRounds || log.Rounds != MaxAutoRounds {
		t.Errorf("stop %q after %d rounds; want max_rounds after %d", log.Stop, log.Rounds, MaxAutoRounds)
	}
}

// TestRoundRunsKeepsPlan: Plan is the rounds RoundRuns makes, so a fixed
// sweep keeps its order for a seed.
func TestRoundRunsKeepsPlan(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Repeat, cfg.Order, cfg.Seed, cfg.Mode = 3, Shuffled, 7, ModeBoth
	rng := PlanRand(cfg)
	var got []Run
	for round := 1; round <= 3; round++ {
		got = append(got, RoundRuns(cfg, round, cfg.Sizes, rng, len(got))...)
	}
	if !slices.Equal(got, Plan(cfg)) {
		t.Error("RoundRuns over 3 rounds differs from Plan")
	}
}
