package knee

// Kneedle applies the Kneedle method (Satopaa et al. 2011) to a concave,
// increasing curve and returns the first knee it finds.
//
// x is log2 of the write size and y the throughput, both normalised to
// [0, 1]. On the difference curve d = y - x each local maximum i gets a
// threshold T = d[i] - S*mean(diff(x)); the knee is the first local maximum
// after which d falls below its T before the next local maximum.
//
// Unlike Find, it uses points as given (cleaned and sorted, not smoothed
// or cut). A negative or NaN sensitivity means DefaultSensitivity. Find runs
// the method on its smoothed curve (curve.kneedle); this form tests the
// method itself.
func Kneedle(points []Point, sensitivity float64) (size int64, ok bool) {
	c := newCurve(points)
	return kneedleOn(c.size, c.raw, sensitivity)
}
