package abtest

import "math"

// logInterval is a confidence interval for the median of d.
type logInterval struct{ lo, hi float64 }

// piece is a stretch of theta over which the counts of d values below and
// above theta do not change: an open gap between two distinct values of
// d, or one value itself (where its copies are ties and are skipped).
type piece struct {
	below, above int
	left, right  float64
}

// pieces splits the real line at the observed values of d, in order.
func (s *Sequential) pieces() []piece {
	n := len(s.sorted)
	out := make([]piece, 0, 2*n+1)
	prev := math.Inf(-1)
	for i := 0; i < n; {
		v := s.sorted[i]
		j := i
		for j < n && s.sorted[j] == v {
			j++
		}
		out = append(out, piece{i, n - i, prev, v}, piece{i, n - j, v, v})
		prev, i = v, j
	}
	return append(out, piece{n, 0, prev, math.Inf(1)})
}

// interval inverts the e-process: the set of theta whose e-value on the
// signs of d_i - theta is below 1/alpha, closed at its ends, which are
// observed values of d or infinite. Its hull is returned, which can only
// widen it.
func (s *Sequential) interval() logInterval {
	if s.ci != nil {
		return *s.ci
	}
	ps := s.pieces()
	in := func(p piece) bool { return s.accepts(p.below, p.above) }
	first := 0
	for first < len(ps) && !in(ps[first]) {
		first++
	}
	ci := logInterval{}
	if first == len(ps) {
		// Every theta rejected: possible only with many copies of one
		// d value (a coarse clock); report the point estimate.
		m := sortedMedian(s.sorted)
		ci = logInterval{m, m}
	} else {
		last := len(ps) - 1
		for !in(ps[last]) {
			last--
		}
		ci = logInterval{ps[first].left, ps[last].right}
	}
	s.ci = &ci
	return ci
}

// RatioInterval returns the anytime-valid confidence interval of
// t_candidate/t_baseline at level 1-alpha: with probability at least
// 1-alpha it holds the true ratio at every block at once, so it may be
// read after any block, including the one the test stopped at. The
// ratio is that of a constant multiplicative effect (or, more generally,
// the value r with P(t_c/t_b < r) = 1/2 in each block). Its ends are
// observed ratios. A side that the data cannot bound yet is 0 (lo) or
// +Inf (hi); with no ties that takes fewer than 8 blocks at alpha 0.05,
// 10 at 0.05/3. Bounded reports whether both sides are finite.
func (s *Sequential) RatioInterval() (lo, hi float64) {
	ci := s.interval()
	return math.Exp(ci.lo), math.Exp(ci.hi)
}

// Bounded says whether RatioInterval is finite on both sides.
func (s *Sequential) Bounded() bool {
	ci := s.interval()
	return !math.IsInf(ci.lo, 0) && !math.IsInf(ci.hi, 0)
}
