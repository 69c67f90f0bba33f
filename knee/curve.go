package knee

import (
	"cmp"
	"math"
	"slices"
)

// curve is a cleaned, sorted median curve: raw holds the measured values,
// smooth a running median of them (see smooth).
//
// Both are needed because one bad run must not move the knee, and a bad run
// can be high or low. smooth sets the plateau, the best size, the rising
// test and the Kneedle input, so a lucky run cannot raise the bar. Whether a
// size is in the band is decided on the measured values instead, with a
// single outlier forgiven (see inBand): a median of 3 there would pull a
// genuine point beside a dip down to its other neighbour (a dip just above
// the knee would move the knee up one size) and lift the genuine point
// beside a spike (a spike just below the knee would move it down).
type curve struct {
	size   []int64
	raw    []float64
	smooth []float64
}

func (c curve) len() int { return len(c.size) }

// Clean drops unusable points (sizes <= 0, negative, NaN or infinite
// throughputs), sorts by size and merges repeated sizes into their median,
// so that a caller's sloppy input cannot produce two throughputs for one x.
func Clean(points []Point) []Point {
	usable := slices.DeleteFunc(slices.Clone(points), func(p Point) bool {
		return !(p.Size > 0 && p.MiBPerSec >= 0 && !math.IsInf(p.MiBPerSec, 1))
	})
	slices.SortStableFunc(usable, func(a, b Point) int { return cmp.Compare(a.Size, b.Size) })
	var out []Point
	for i := 0; i < len(usable); {
		j := i + 1
		for j < len(usable) && usable[j].Size == usable[i].Size {
			j++
		}
		out = append(out, Point{Size: usable[i].Size, MiBPerSec: medianOf(usable[i:j])})
		i = j
	}
	return out
}

// medianOf is the median throughput of points.
func medianOf(points []Point) float64 {
	if len(points) == 1 {
		return points[0].MiBPerSec
	}
	vals := make([]float64, len(points))
	for i, p := range points {
		vals[i] = p.MiBPerSec
	}
	return Median(vals)
}

func newCurve(points []Point) curve {
	var c curve
	for _, p := range Clean(points) {
		c.size = append(c.size, p.Size)
		c.raw = append(c.raw, p.MiBPerSec)
	}
	c.smooth = smooth(c.raw)
	return c
}

// smooth returns the running median of 3 of ys, taken over the index; for a
// power-of-two sweep the index is log2 of the size.
//
// A median of 3 removes any isolated single-point spike or dip but keeps
// monotone stretches and steps exactly, so a clean curve's knee does not
// move. A decline or a rise must show in at least two consecutive sizes to
// survive.
//
// The ends: the first value is kept as measured, because a low value at
// the smallest size is the expected shape, not an outlier. The last value
// uses Tukey's end-point rule, median(y[n-1], s[n-2], 3*s[n-2] - 2*s[n-3]):
// the linear extrapolation keeps a genuine rise at the top end, while a
// single low (or high) last point on a plateau is replaced by the plateau.
func smooth(ys []float64) []float64 {
	s := make([]float64, len(ys))
	smoothInto(s, ys)
	return s
}

// smoothInto writes smooth(ys) into s, which has len(ys), without
// allocating: resampling smooths a thousand curves.
func smoothInto(s, ys []float64) {
	n := len(ys)
	copy(s, ys)
	if n < 3 {
		return
	}
	for i := 1; i < n-1; i++ {
		s[i] = median3(ys[i-1], ys[i], ys[i+1])
	}
	s[n-1] = median3(ys[n-1], s[n-2], 3*s[n-2]-2*s[n-3])
}

func median3(a, b, c float64) float64 {
	return max(min(a, b), min(max(a, b), c))
}

// plateau is a robust maximum: the median of the smoothed values within
// fraction of the highest smoothed value, i.e. of the points on the top of
// the curve. Smoothing already removes single spikes, so the highest value
// is not one lucky run; taking the median of the top band rather than its
// maximum (or the median of the top three) keeps ordinary noise on a long
// plateau from biasing the level upwards, which would push honest plateau
// points out of the band. The result lies in [fraction x max, max].
func (c curve) plateau(fraction float64) float64 {
	hi := slices.Max(c.smooth)
	var top []float64
	for _, v := range c.smooth {
		if v >= fraction*hi {
			top = append(top, v)
		}
	}
	return Median(top)
}

// bestMeasured is the index of the highest measured value, the size a user
// sees as fastest; the smallest size on ties.
func (c curve) bestMeasured() int { return argMax(c.raw) }

// forgiven lists the sizes in [k, end] below the band that inBand let pass
// as single bad runs, so that the report can name them.
func (c curve) forgiven(b band, k, end int) []int64 {
	var out []int64
	for i := k; i <= end; i++ {
		if c.raw[i] < b.lo {
			out = append(out, c.size[i])
		}
	}
	return out
}

// best is the index of the highest smoothed value, the smallest size on ties.
func (c curve) best() int { return argMax(c.smooth) }

// argMax is the index of the highest of vs, the first on ties (0 when vs
// is empty).
func argMax(vs []float64) int {
	b := 0
	for i, v := range vs {
		if v > vs[b] {
			b = i
		}
	}
	return b
}

// band is the range a measured throughput must lie in to pass by itself.
// Its top, plateau / fraction, is at least the highest smoothed value (the
// plateau is at least fraction x that), so only an isolated spike can exceed
// it.
type band struct{ lo, hi float64 }

func (b band) inside(v float64) bool { return v >= b.lo && v <= b.hi }

// inBand reports whether size i counts as reaching the band.
//
// A size inside the band passes, and so does one above it unless it is a
// lone spike: the rule is "at least fraction x plateau". A single size below it passes if its neighbours are
// both inside the band: it is one bad run. A neighbour above the band is
// itself suspect and cannot vouch, which keeps a spike two sizes below the
// knee from making the genuine low point between look like a dip. The
// largest size has one neighbour, so a single low last point is forgiven
// and a decline has to show in two sizes. The smallest size has no left
// neighbour and passes only on its own value, since low throughput there
// is the expected shape, not an outlier.
func (c curve) inBand(i int, b band) bool {
	v := c.raw[i]
	lone := v > b.hi && c.spike(i, b.lo/b.hi)
	switch {
	case v >= b.lo && !lone:
		return true
	case i == 0:
		return v >= b.lo
	case i == c.len()-1:
		return b.inside(c.raw[i-1])
	default:
		return b.inside(c.raw[i-1]) && b.inside(c.raw[i+1])
	}
}

// spike reports whether size i towers over every neighbour it has by more
// than the band is wide (a factor 1/f2, f2 = fraction^2): one lucky run,
// not the curve. A point a little above a plateau that was estimated low is
// not a spike and still counts.
func (c curve) spike(i int, f2 float64) bool {
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < c.len() && c.raw[i]*f2 <= c.raw[j] {
			return false
		}
	}
	return true
}

// lastInBand is the largest index in the band, or 0 if none is. The
// smoothed maximum is a measured value inside the band unless it comes from
// the end-point extrapolation, so in practice one always exists.
func (c curve) lastInBand(b band) int {
	for i := c.len() - 1; i > 0; i-- {
		if c.inBand(i, b) {
			return i
		}
	}
	return 0
}

// kneeIndex is the smallest index k such that every index in [k, end] is
// in the band.
func (c curve) kneeIndex(b band, end int) int {
	k := end
	for k > 0 && c.inBand(k-1, b) {
		k--
	}
	return k
}
