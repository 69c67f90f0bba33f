package abtest_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/iobench/iobench/abtest"
)

func TestMedianInterval(t *testing.T) {
	xs := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5} // n=9 at 0.95: k=2, coverage 0.961
	med, lo, hi, ok := abtest.MedianInterval(xs, 0.95)
	if !ok || med != 5 || lo != 2 || hi != 8 {
		t.Errorf("MedianInterval = %v [%v, %v] %v, want 5 [2, 8] true", med, lo, hi, ok)
	}
	if c := abtest.MedianCoverage(9, 0.95); math.Abs(c-0.9609375) > 1e-9 {
		t.Errorf("MedianCoverage(9) = %v, want 0.9609375", c)
	}
	if !slices.Equal(xs, []float64{9, 1, 8, 2, 7, 3, 6, 4, 5}) {
		t.Error("xs was modified")
	}
	if _, _, _, ok := abtest.MedianInterval(xs[:5], 0.95); ok {
		t.Error("5 values cannot give a 95% interval (the extremes cover 0.9375)")
	}
	if _, _, _, ok := abtest.MedianInterval([]float64{1, math.NaN(), 2, 3, 4, 5, 6}, 0.9); ok {
		t.Error("a NaN must make the interval not ok")
	}
}

func TestPlanBlocksArePermutations(t *testing.T) {
	p, err := abtest.NewPlan(3, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	firsts := map[int]int{}
	for range 300 {
		b := p.Block()
		if s := slices.Sorted(slices.Values(b)); !slices.Equal(s, []int{0, 1, 2}) {
			t.Fatalf("block %v is not a permutation of 3 arms", b)
		}
		firsts[b[0]]++
	}
	for arm := range 3 {
		if firsts[arm] < 70 {
			t.Errorf("arm %d ran first %d times in 300 blocks, want about 100", arm, firsts[arm])
		}
	}
	if _, err := abtest.NewPlan(1, rand.New(rand.NewPCG(1, 2))); err == nil {
		t.Error("NewPlan(1) must be refused")
	}
}

func TestMaxBlocksAndDuration(t *testing.T) {
	if n := abtest.MaxBlocks([]float64{2, 3}, time.Minute); n != 12 {
		t.Errorf("MaxBlocks = %d, want 12", n)
	}
	if n := abtest.MaxBlocks([]float64{2, 0}, time.Minute); n != 0 {
		t.Errorf("MaxBlocks with a zero time = %d, want 0", n)
	}
	if d := abtest.ExpectedDuration([]float64{2, 3}, 4); d != 20*time.Second {
		t.Errorf("ExpectedDuration = %v, want 20s", d)
	}
}

func TestPickTheFastestDecided(t *testing.T) {
	fast, _ := abtest.NewSequential(0.05)
	faster, _ := abtest.NewSequential(0.05)
	undecided, _ := abtest.NewSequential(0.05)
	for range 20 {
		_ = fast.Add(math.Log(0.8))
		_ = faster.Add(math.Log(0.5))
	}
	_ = undecided.Add(math.Log(0.1))
	i, ok := abtest.Pick([]*abtest.Sequential{undecided, fast, nil, faster})
	if !ok || i != 3 {
		t.Errorf("Pick = %d %v, want 3 true", i, ok)
	}
	if _, ok := abtest.Pick([]*abtest.Sequential{undecided}); ok {
		t.Error("an undecided test must not win")
	}
	if _, err := abtest.LogRatio(1, 0); !errors.Is(err, abtest.ErrNotFinite) {
		t.Errorf("LogRatio(1, 0) err = %v, want ErrNotFinite", err)
	}
	if err := fast.Add(math.Inf(1)); !errors.Is(err, abtest.ErrNotFinite) {
		t.Errorf("Add(+Inf) err = %v", err)
	}
	if ok, dir := fast.Decided(); !ok || dir != abtest.Faster || dir.String() != "faster" {
		t.Errorf("Decided = %v %v", ok, dir)
	}
}
