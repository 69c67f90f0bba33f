package abtest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Direction says which way a candidate differs from the baseline.
type Direction int

const (
	// None: no difference established (yet).
	None Direction = iota
	// Faster: the candidate's wall time is shorter than the baseline's.
	Faster
	// Slower: the candidate's wall time is longer than the baseline's.
	Slower
)

// String returns "none", "faster" or "slower".
func (d Direction) String() string {
	switch d {
	case Faster:
		return "faster"
	case Slower:
		return "slower"
	}
	return "none"
}

// ErrNotFinite is returned for a time or log ratio that is NaN, infinite,
// or (for a time) not positive: such a run failed or was not timed, and
// dropping it silently could hide a setting that breaks the program.
var ErrNotFinite = errors.New("not a finite value")

// bets is the grid of the mixture: 19 fixed bets 0.05, 0.10, ..., 0.95,
// equally weighted. Small bets catch small effects (p near 1/2), large
// ones win quickly on one-sided runs; a bet of 1 is left out because one
// contrary sign would zero its product for good. The uniform grid behaves
// like the uniform prior on the bet, whose e-value is within a factor of
// about n+1 of the best single bet in hindsight.
var bets = func() []float64 {
	b := make([]float64, 19)
	for j := range b {
		b[j] = float64(j+1) / 20
	}
	return b
}()

// logUp and logDown are ln(1+lambda) and ln(1-lambda) for each bet.
var logUp, logDown = func() (up, down []float64) {
	for _, l := range bets {
		up = append(up, math.Log1p(l))
		down = append(down, math.Log1p(-l))
	}
	return up, down
}()

// eValue is the two-sided mixture e-value after `with` signs agreeing
// with one direction and `against` signs agreeing with the other: the
// average over the bets and the two directions of
// (1+lambda)^with (1-lambda)^against. It is symmetric in its arguments.
func eValue(with, against int) float64 {
	w, a := float64(with), float64(against)
	shift := 0.0
	if with+against > 1000 { // 1.95^1000 is near the float64 limit
		shift = math.Inf(-1)
		for j := range bets {
			shift = max(shift, w*logUp[j]+a*logDown[j], a*logUp[j]+w*logDown[j])
		}
	}
	var sum float64
	for j := range bets {
		sum += math.Exp(w*logUp[j]+a*logDown[j]-shift) + math.Exp(a*logUp[j]+w*logDown[j]-shift)
	}
	return math.Exp(shift) * sum / float64(2*len(bets))
}

// critical returns c(m), the smallest count of the minority sign among m
// untied signs that keeps E below 1/alpha: E rejects exactly when
// min(faster, slower) < c(faster+slower). For fixed m, E is a sum of
// exponentials in the count, so convex, and symmetric about m/2, where it
// is at most 1; hence one threshold per m, found by bisection and kept.
func (s *Sequential) critical(m int) int {
	for len(s.crit) <= m {
		n := len(s.crit)
		c := sort.Search(n/2, func(k int) bool { return eValue(k, n-k) < 1/s.alpha })
		s.crit = append(s.crit, c)
	}
	return s.crit[m]
}

// accepts says whether below and above untied signs leave the null
// standing (E < 1/alpha).
func (s *Sequential) accepts(below, above int) bool {
	return min(below, above) >= s.critical(below+above)
}

// Sequential is the anytime-valid sign test of one candidate against the
// baseline: a betting e-process on the signs of the paired log ratios,
// which may be looked at after every block.
//
// Two one-sided e-processes, "faster" and "slower", are each the mixture
// over the bets lambda of prod_i (1 + lambda*s_i), s_i = +1 when block i
// points their way and -1 otherwise; ties (d_i == 0) are skipped. Each
// product has mean 1 under the null for every stopping rule, so their
// average E does too, and Ville's inequality gives
// P(E ever reaches 1/alpha) <= alpha. The decision is that first crossing.
//
// The zero value is not usable; use NewSequential.
type Sequential struct {
	alpha          float64
	faster, slower int
	ties           int
	sorted         []float64 // every accepted d, ascending
	decided        Direction // latched at the first crossing
	ci             *logInterval
	crit           []int // critical(m) for m < len(crit)
}

// NewSequential returns an empty test that rejects the null (no effect)
// at level alpha, 0 < alpha < 1.
func NewSequential(alpha float64) (*Sequential, error) {
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("abtest: alpha %v is not between 0 and 1", alpha)
	}
	return &Sequential{alpha: alpha}, nil
}

// NewScreening returns one test per candidate, each at alpha/candidates
// (Bonferroni), so that the chance that any of them wrongly rejects stays
// at most alpha whatever the dependence through the shared baseline runs.
// Their RatioIntervals then hold simultaneously at level 1-alpha.
func NewScreening(alpha float64, candidates int) ([]*Sequential, error) {
	if candidates < 1 {
		return nil, fmt.Errorf("abtest: %d candidates: need at least 1", candidates)
	}
	tests := make([]*Sequential, candidates)
	for i := range tests {
		t, err := NewSequential(alpha / float64(candidates))
		if err != nil {
			return nil, err
		}
		tests[i] = t
	}
	return tests, nil
}

// LogRatio returns ln(candidate/baseline), the datum Add takes, for two
// wall times of the same block (any one unit). Both must be positive and
// finite.
func LogRatio(candidate, baseline float64) (float64, error) {
	for _, t := range []float64{candidate, baseline} {
		if !(t > 0) || math.IsInf(t, 1) {
			return 0, fmt.Errorf("abtest: wall time %v: %w", t, ErrNotFinite)
		}
	}
	return math.Log(candidate / baseline), nil
}

// Add records one block's log ratio d = ln(t_candidate/t_baseline).
// A non-finite d is refused with ErrNotFinite and leaves the test
// unchanged (the brief allowed a silent count instead; an error makes the
// caller decide what a failed run means). d == 0 is a tie: it counts in N
// and Ties and in the median, but does not move E.
func (s *Sequential) Add(d float64) error {
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return fmt.Errorf("abtest: log ratio %v: %w", d, ErrNotFinite)
	}
	switch {
	case d < 0:
		s.faster++
	case d > 0:
		s.slower++
	default:
		s.ties++
		d = 0 // one zero, not -0 and +0
	}
	i, _ := slices.BinarySearch(s.sorted, d)
	s.sorted = slices.Insert(s.sorted, i, d)
	s.ci = nil
	if s.decided == None && !s.accepts(s.faster, s.slower) {
		s.decided = Slower
		if s.faster > s.slower {
			s.decided = Faster
		}
	}
	return nil
}

// E returns the current two-sided e-value: 1 before any block, large when
// the signs lean one way. The null is rejected once it reaches 1/alpha.
func (s *Sequential) E() float64 { return eValue(s.faster, s.slower) }

// Decided says whether the difference is established, and which way.
// The decision latches at the first block where E reached 1/alpha: that
// is the stopping time Ville's inequality covers, so later blocks (if the
// caller keeps adding) update E and the interval but never undo it.
// Deciding a direction wrongly (Faster when the candidate is not faster)
// has probability at most alpha too.
func (s *Sequential) Decided() (bool, Direction) { return s.decided != None, s.decided }

// N returns the number of blocks added, ties included.
func (s *Sequential) N() int { return len(s.sorted) }

// Ties returns the number of blocks with d == 0, which the e-process skips.
func (s *Sequential) Ties() int { return s.ties }

// Alpha returns the level the test was made with.
func (s *Sequential) Alpha() float64 { return s.alpha }

// Ratio returns the point estimate of t_candidate/t_baseline,
// exp(median d): below 1 means faster. It is NaN before any block.
func (s *Sequential) Ratio() float64 { return math.Exp(sortedMedian(s.sorted)) }

// sortedMedian is the median of an ascending slice; NaN when empty.
func sortedMedian(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
