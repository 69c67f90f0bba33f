package advice

import (
	"math"
	"slices"

	"github.com/iobench/iobench/knee"
)

// curve is the runs cleaned as package knee cleans them: sorted by size,
// unusable values dropped, each size with its runs and their median.
type curve struct {
	size []int64
	mibs []float64   // median of each size's runs
	runs [][]float64 // every run of each size
}

func newCurve(runs []knee.Runs) curve {
	var c curve
	for _, r := range knee.GroupRuns(runs) {
		c.size = append(c.size, r.Size)
		c.mibs = append(c.mibs, knee.Median(r.MiBPerSec))
		c.runs = append(c.runs, r.MiBPerSec)
	}
	return c
}

// runsAt are the runs of a measured size, nil for others.
func (c curve) runsAt(size int64) []float64 {
	if i, found := slices.BinarySearch(c.size, size); found {
		return c.runs[i]
	}
	return nil
}

// plateauRuns are the runs of every size in the knee's band: from the knee
// to the end of the band.
func (c curve) plateauRuns(k knee.Result) []float64 {
	var out []float64
	for i, s := range c.size {
		if s >= k.WriteSize && (k.DeclinesAbove == 0 || s <= k.DeclinesAbove) {
			out = append(out, c.runs[i]...)
		}
	}
	return out
}

// measured reports whether size is one of the curve's own points.
func (c curve) measured(size int64) bool {
	_, found := slices.BinarySearch(c.size, size)
	return found
}

// at is the throughput at size: the measured value when size was measured,
// else interpolated linearly in log2(size) between its neighbours, the
// axis on which a power-of-two sweep is evenly spaced. ok is false outside
// the measured range, where guessing would be extrapolation.
func (c curve) at(size int64) (v float64, ok bool) {
	i, found := slices.BinarySearch(c.size, size)
	switch {
	case found:
		return c.mibs[i], true
	case i == 0 || i == len(c.size):
		return 0, false
	}
	x0, x1 := math.Log2(float64(c.size[i-1])), math.Log2(float64(c.size[i]))
	t := (math.Log2(float64(size)) - x0) / (x1 - x0)
	return c.mibs[i-1] + t*(c.mibs[i]-c.mibs[i-1]), true
}

// span is the measured range, for messages; zeros for an empty curve.
func (c curve) span() (lo, hi int64) {
	if len(c.size) == 0 {
		return 0, 0
	}
	return c.size[0], c.size[len(c.size)-1]
}
