package knee

import (
	"math"
	"slices"
)

// DefaultSensitivity is Kneedle's S. Satopaa et al. found S = 1 a good
// default for offline use; larger S waits for a sharper drop and so is more
// conservative.
const DefaultSensitivity = 1.0

// kneedle runs Kneedle on the smoothed curve up to end, the last size in the
// plateau band: the method assumes a curve that rises and then levels off,
// so a decline after the band is cut away.
func (c curve) kneedle(end int, sensitivity float64) (int64, bool) {
	return kneedleOn(c.size[:end+1], c.smooth[:end+1], sensitivity)
}

func kneedleOn(sizes []int64, ys []float64, sensitivity float64) (int64, bool) {
	if !(sensitivity >= 0) {
		sensitivity = DefaultSensitivity
	}
	n := len(sizes)
	if n < MinPoints {
		return 0, false
	}
	xs := make([]float64, n)
	for i, s := range sizes {
		xs[i] = math.Log2(float64(s))
	}
	xn, okx := normalise(xs)
	yn, oky := normalise(ys)
	if !okx || !oky {
		return 0, false // a flat curve has no knee to normalise
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = yn[i] - xn[i]
	}
	// mean(diff(xn)) telescopes to (xn[n-1] - xn[0]) / (n-1) = 1/(n-1).
	if i, ok := firstKnee(d, sensitivity/float64(n-1)); ok {
		return sizes[i], true
	}
	return 0, false
}

// firstKnee returns the first local maximum of d after which d drops below
// d[max] - drop before the next local maximum.
func firstKnee(d []float64, drop float64) (int, bool) {
	maxima := localMaxima(d)
	for m, i := range maxima {
		next := len(d)
		if m+1 < len(maxima) {
			next = maxima[m+1]
		}
		for j := i + 1; j < next; j++ {
			if d[j] < d[i]-drop {
				return i, true
			}
		}
	}
	return 0, false
}

// localMaxima lists interior indexes that rise from the left and do not
// fall to the right, so the first point of a flat top counts once.
func localMaxima(d []float64) []int {
	var idx []int
	for i := 1; i < len(d)-1; i++ {
		if d[i] > d[i-1] && d[i] >= d[i+1] {
			idx = append(idx, i)
		}
	}
	return idx
}

// normalise maps vs linearly onto [0, 1]; ok is false when vs has no range.
func normalise(vs []float64) ([]float64, bool) {
	lo, hi := slices.Min(vs), slices.Max(vs)
	if !(hi > lo) {
		return nil, false
	}
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = (v - lo) / (hi - lo)
	}
	return out, true
}
