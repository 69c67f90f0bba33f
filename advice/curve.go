package advice

import (
	"math"
	"slices"

	"github.com/iobench/iobench/knee"
)

// curve is the median curve cleaned as package knee cleans it: unusable
// points dropped, sorted by size, repeated sizes merged into their median.
type curve struct {
	size []int64
	mibs []float64
}

func newCurve(points []knee.Point) curve {
	var c curve
	for _, p := range knee.Clean(points) {
		c.size = append(c.size, p.Size)
		c.mibs = append(c.mibs, p.MiBPerSec)
	}
	return c
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
