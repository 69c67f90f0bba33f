package abtest_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/iobench/iobench/abtest"
)

// world simulates a program's wall times in blocks of two runs (baseline
// and one candidate) in a random order, with the disturbances a real
// machine adds: lognormal noise, a first run of each block 10% slower
// (cold cache), and a slow upward drift over the whole experiment.
type world struct {
	rng       *rand.Rand
	sigma     float64 // lognormal noise of one run
	ratio     float64 // true effect: candidate time / baseline time
	firstSlow float64 // factor on the first run of a block
	drift     float64 // relative slow-down per run
	run       int
}

func newWorld(seed uint64, ratio float64) *world {
	return &world{
		rng:       rand.New(rand.NewPCG(seed, 0x1ab)),
		sigma:     0.10,
		ratio:     ratio,
		firstSlow: 1.10,
		drift:     0.002,
	}
}

// block returns the baseline's and the candidate's wall times of one
// block, in seconds.
func (w *world) block() (base, cand float64) {
	var t [2]float64
	for slot := range t {
		t[slot] = 2 * math.Exp(w.sigma*w.rng.NormFloat64()) * (1 + w.drift*float64(w.run))
		w.run++
	}
	t[0] *= w.firstSlow
	if w.rng.IntN(2) == 0 {
		t[0], t[1] = t[1], t[0]
	}
	return t[0], t[1] * w.ratio
}

// uTest is a Mann-Whitney U test of two growing samples, updated as each
// value arrives, with the normal approximation and continuity correction
// (as go-moremath uses above its exact-distribution limit).
type uTest struct {
	a, b []float64
	u    float64 // pairs with a value of a above one of b
}

func (t *uTest) add(a, b float64) {
	for _, y := range t.b {
		t.u += above(a, y)
	}
	t.a = append(t.a, a)
	for _, x := range t.a {
		t.u += above(x, b)
	}
	t.b = append(t.b, b)
}

func above(x, y float64) float64 {
	switch {
	case x > y:
		return 1
	case x == y:
		return 0.5
	}
	return 0
}

// rejects says whether the two-sided test rejects at 0.05.
func (t *uTest) rejects() bool {
	n1, n2 := float64(len(t.a)), float64(len(t.b))
	mean := n1 * n2 / 2
	sd := math.Sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
	z := (math.Abs(t.u-mean) - 0.5) / sd
	return z > 1.959964
}

func mustSequential(t testing.TB, alpha float64) *abtest.Sequential {
	t.Helper()
	s, err := abtest.NewSequential(alpha)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustAdd(t testing.TB, s *abtest.Sequential, base, cand float64) {
	t.Helper()
	d, err := abtest.LogRatio(cand, base)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(d); err != nil {
		t.Fatal(err)
	}
}

// TestFalsePositiveRate is the reason for the design: under the null,
// looking after every block, the e-process rejects at most alpha of the
// time, while a Mann-Whitney U test at 0.05 after every block rejects
// several times as often.
func TestFalsePositiveRate(t *testing.T) {
	t.Parallel()
	const (
		alpha  = 0.05
		runs   = 4000
		blocks = 60
		uFrom  = 5
	)
	var eRejects, uRejects int
	for r := range runs {
		w := newWorld(uint64(r), 1)
		s := mustSequential(t, alpha)
		var u uTest
		uRejected := false
		for i := 1; i <= blocks; i++ {
			base, cand := w.block()
			mustAdd(t, s, base, cand)
			u.add(cand, base)
			uRejected = uRejected || i >= uFrom && u.rejects()
		}
		if ok, _ := s.Decided(); ok {
			eRejects++
		}
		if uRejected {
			uRejects++
		}
	}
	eRate, uRate := float64(eRejects)/runs, float64(uRejects)/runs
	mcSigma := math.Sqrt(alpha * (1 - alpha) / runs)
	t.Logf("null, %d runs, looks after each of %d blocks: e-process rejects %.4f, U test at 0.05 from block %d rejects %.4f (alpha %.2f, Monte Carlo sigma %.4f)",
		runs, blocks, eRate, uFrom, uRate, alpha, mcSigma)
	if eRate > alpha+3*mcSigma {
		t.Errorf("e-process false-positive rate %.4f > alpha + 3 sigma = %.4f", eRate, alpha+3*mcSigma)
	}
	if uRate <= 2*alpha {
		t.Errorf("repeated U test rejected %.4f <= 2 alpha: the simulation no longer shows why the e-process is needed", uRate)
	}
}

// blocksToDecide runs one experiment and returns the block at which the
// test decided and which way, or limit+1 and None.
func blocksToDecide(t testing.TB, w *world, alpha float64, limit int) (int, abtest.Direction) {
	s := mustSequential(t, alpha)
	for i := 1; i <= limit; i++ {
		base, cand := w.block()
		mustAdd(t, s, base, cand)
		if ok, dir := s.Decided(); ok {
			return i, dir
		}
	}
	return limit + 1, abtest.None
}

func TestPower(t *testing.T) {
	t.Parallel()
	const runs = 1000
	tests := []struct {
		name   string
		ratio  float64
		alpha  float64
		within int
		want   float64
	}{
		{"2x faster", 0.5, 0.05, 12, 0.95},
		{"1.2x faster", 1 / 1.2, 0.05, 60, 0.80},
		// Screening three candidates (Bonferroni), and a small effect,
		// whose floors are set from measured figures to catch a
		// regression rather than meet a target.
		{"2x faster at alpha/3", 0.5, 0.05 / 3, 12, 0.95},
		{"1.2x faster at alpha/3", 1 / 1.2, 0.05 / 3, 60, 0.80},
		{"1.1x faster", 1 / 1.1, 0.05, 60, 0.40},
	}
	for _, tt := range tests {
		var needed []int
		hits := 0
		for r := range runs {
			n, dir := blocksToDecide(t, newWorld(uint64(1e6+r), tt.ratio), tt.alpha, tt.within)
			if dir == abtest.Slower {
				t.Errorf("%s: run %d decided slower", tt.name, r)
			}
			if dir == abtest.Faster {
				hits++
			}
			needed = append(needed, n)
		}
		slices.Sort(needed)
		rate := float64(hits) / runs
		t.Logf("%s, 10%% noise: decided faster within %d blocks in %.3f of %d runs; median blocks %d (quartiles %d-%d)",
			tt.name, tt.within, rate, runs, needed[runs/2], needed[runs/4], needed[3*runs/4])
		if rate < tt.want {
			t.Errorf("%s: power %.3f < %.2f within %d blocks", tt.name, rate, tt.want, tt.within)
		}
	}
}

// TestRatioIntervalAnytimeCoverage checks that the interval holds the
// true ratio at every one of 60 looks at once, in at least 95% of runs.
func TestRatioIntervalAnytimeCoverage(t *testing.T) {
	t.Parallel()
	const (
		runs   = 1000
		blocks = 60
		ratio  = 1.2
	)
	covered := 0
	var widths []float64
	for r := range runs {
		w := newWorld(uint64(2e6+r), ratio)
		s := mustSequential(t, 0.05)
		always := true
		for range blocks {
			base, cand := w.block()
			mustAdd(t, s, base, cand)
			lo, hi := s.RatioInterval()
			always = always && lo <= ratio && ratio <= hi
		}
		if always {
			covered++
		}
		lo, hi := s.RatioInterval()
		widths = append(widths, hi/lo)
	}
	rate := float64(covered) / runs
	slices.Sort(widths)
	t.Logf("ratio %.1f, %d runs: covered at all %d looks in %.3f; median hi/lo after %d blocks %.3f",
		ratio, runs, blocks, rate, blocks, widths[runs/2])
	if rate < 0.95 {
		t.Errorf("anytime coverage %.3f < 0.95", rate)
	}
}
