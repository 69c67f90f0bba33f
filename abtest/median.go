package abtest

import (
	"math"
	"slices"

	"github.com/aclements/go-moremath/stats"
)

// MedianInterval returns the sample median of xs and a distribution-free
// confidence interval for the population median: the order statistics
// x_(k) and x_(n-k+1) with the largest k whose coverage,
// 1 - 2 P(Binomial(n, 1/2) <= k-1), is at least level. This holds for
// independent runs of one continuous distribution, with no model of it.
//
// ok is false, with the median still returned when it exists, when xs has
// a NaN or infinite value, when level is not in (0, 1), or when n is too
// small for the level: even k = 1 (the sample's own minimum and maximum)
// covers only 1 - 2^(1-n), so level 0.95 needs n >= 6 and 0.99 n >= 8.
// xs is not modified.
func MedianInterval(xs []float64, level float64) (median, lo, hi float64, ok bool) {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return math.NaN(), math.NaN(), math.NaN(), false
		}
	}
	s := slices.Sorted(slices.Values(xs))
	median = sortedMedian(s)
	k := orderForMedian(len(s), level)
	if k == 0 {
		return median, math.NaN(), math.NaN(), false
	}
	return median, s[k-1], s[len(s)-k], true
}

// orderForMedian is the largest k (1-based) with 1-2*CDF(k-1) >= level
// for Binomial(n, 1/2), or 0 when none is.
func orderForMedian(n int, level float64) int {
	if !(level > 0 && level < 1) || n == 0 {
		return 0
	}
	b := stats.BinomialDist{N: n, P: 0.5}
	k := 0
	for next := 1; 2*next <= n+1 && 1-2*b.CDF(float64(next-1)) >= level; next++ {
		k = next
	}
	return k
}

// MedianCoverage returns the exact coverage of MedianInterval's interval
// for n values at the given level, 0 when MedianInterval would not be ok.
func MedianCoverage(n int, level float64) float64 {
	k := orderForMedian(n, level)
	if k == 0 {
		return 0
	}
	return 1 - 2*stats.BinomialDist{N: n, P: 0.5}.CDF(float64(k-1))
}
