package knee

import (
	"math"
	"slices"
)

// WideCV is the coefficient of variation above which a row's repeats are
// too spread to trust. With DefaultFraction the plateau band is 5% wide; a
// spread of twice that means repeats of one size scatter across the whole
// band, so whether that size is "past the knee" is down to luck.
const WideCV = 0.10

// Median returns the median of xs without modifying it: the middle value,
// or the mean of the two middle values for an even count. The median of no
// values is NaN, so a missing row cannot pass for 0 MiB/s.
func Median(xs []float64) float64 {
	n := len(xs)
	switch n {
	case 0:
		return math.NaN()
	case 1:
		return xs[0]
	case 2:
		return (xs[0] + xs[1]) / 2
	case 3:
		if a, b, c := xs[0], xs[1], xs[2]; a == a && b == b && c == c { // no NaN, which sorts first
			return max(min(a, b), min(max(a, b), c))
		}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// CV returns the coefficient of variation of samples: the sample standard
// deviation (n-1 denominator) over the absolute mean. It is 0 for fewer
// than two samples (no spread can be seen) and for identical samples, and
// +Inf when the mean is 0 but the samples differ.
func CV(samples []float64) float64 {
	n := len(samples)
	if n < 2 {
		return 0
	}
	var sum float64
	for _, x := range samples {
		sum += x
	}
	mean := sum / float64(n)
	var ss float64
	for _, x := range samples {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	if sd == 0 {
		return 0
	}
	return sd / math.Abs(mean)
}
