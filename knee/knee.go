package knee

import (
	"fmt"
	"math"

	"github.com/iobench/iobench/units"
)

// DefaultFraction is the share of the plateau a size must reach to count as
// past the knee.
const DefaultFraction = 0.95

// MinPoints is the fewest usable points Find needs: with fewer there is no
// "before" and "after" to tell apart.
const MinPoints = 3

// Shapes of a curve, as reported in Result.Shape.
const (
	// ShapePlateau: throughput rises and then stays within the fraction
	// band of the plateau up to the largest size.
	ShapePlateau = "plateau"
	// ShapeDeclines: throughput reaches the band but falls below it again
	// at the largest sizes.
	ShapeDeclines = "declines"
	// ShapeFlat: every size is already within the band; write size does
	// not matter in the measured range.
	ShapeFlat = "flat"
	// ShapeRising: throughput is still climbing at the largest size.
	ShapeRising = "rising"
	// ShapeTooFewPoints: fewer than MinPoints usable points.
	ShapeTooFewPoints = "too_few_points"
)

// Point is one write size and its median throughput.
type Point struct {
	Size      int64   // write size in bytes
	MiBPerSec float64 // median throughput, MiB/s (2^20 bytes per second)
}

// Result is the knee of a curve, with the plateau it was measured against.
//
// Sizes are bytes and throughputs MiB/s. WriteSize, MiBPerSec and
// BestMiBPerSec are the measured (unsmoothed) values at those sizes, so they
// match the caller's table; PlateauMiBPerSec is derived from the smoothed
// curve (see Find).
type Result struct {
	// Found is true when the plateau rule gave a knee (shapes plateau,
	// declines and flat).
	Found bool `json:"found"`
	// WriteSize is the knee: the recommended smallest write size.
	WriteSize int64 `json:"write_size"`
	// MiBPerSec is the measured throughput at WriteSize.
	MiBPerSec float64 `json:"mib_per_s"`
	// PlateauMiBPerSec is the robust plateau level the fraction applies to.
	PlateauMiBPerSec float64 `json:"plateau_mib_per_s"`
	// Fraction is the share of the plateau used, after defaulting.
	Fraction float64 `json:"fraction"`
	// Reason says in words what was found, or why nothing was.
	Reason string `json:"reason,omitempty"`
	// Shape is one of the Shape* constants.
	Shape string `json:"shape"`
	// BestSize is the size with the highest smoothed throughput (the
	// smallest such size on ties), and BestMiBPerSec its measured value.
	BestSize      int64   `json:"best_write_size"`
	BestMiBPerSec float64 `json:"best_mib_per_s"`
	// DeclinesAbove is, for ShapeDeclines, the largest size still within
	// the band; every larger size is below it.
	DeclinesAbove int64 `json:"declines_above,omitempty"`
	// KneedleFound and KneedleSize are the Kneedle method's knee, which
	// tends to sit at or before the plateau rule's knee.
	// Outliers are sizes at or above the knee that fell below the band in
	// a single isolated run and were treated as bad runs, not as the curve.
	Outliers []int64 `json:"outliers,omitempty"`
	// Centered says the knee was moved to the middle of a three-size
	// interval (see EstimateKnee); Outliers then also lists sizes from the
	// knee up whose median is below the band, within the noise.
	Centered     bool  `json:"centered,omitempty"`
	KneedleFound bool  `json:"kneedle_found"`
	KneedleSize  int64 `json:"kneedle_write_size,omitempty"`
}

// Find applies the plateau rule to points and classifies the curve.
//
// Points need not be sorted. Points with a non-positive size or a negative,
// NaN or infinite throughput are ignored; points that share a size are
// merged into their median. A fraction outside (0, 1] (including 0) means
// DefaultFraction.
//
// One bad run must not move the knee. The plateau is the median of the
// smoothed values (running median of 3 over log2 size) within fraction of
// the highest one: a robust maximum that neither a single lucky run nor
// ordinary noise on a long plateau can raise (see plateau). The knee is the
// smallest size whose throughput, and that of every larger size up to the
// end of the band, is at least fraction x plateau, where a single outlying
// size between two ordinary ones is forgiven (see inBand).
//
// Shapes: "rising" if the smoothed curve peaks at the largest size and the
// size below is under fraction of that peak, or if only the largest size is
// in the band (Found is false); "declines" if the largest sizes (two or more, since a
// single low last point is treated as a bad run) fall below the band, in
// which case the knee is taken within the band and DeclinesAbove is its
// upper end; "flat" if every size is in the band (the knee is the smallest
// size); otherwise "plateau".
//
// Limits, pinned by tests: a bad run at the knee itself, low or above the
// band, moves the knee up one size, as nothing tells it from a later knee;
// a run that lands inside the band one or two sizes below the knee looks
// like an earlier knee and moves it down. Kneedle runs on the smoothed
// curve, where an outlier beside its knee moves it one size.
func Find(points []Point, fraction float64) Result {
	return findOn(newCurve(points), normFraction(fraction))
}

func findOn(c curve, fraction float64) Result {
	res := Result{Fraction: fraction}
	if c.len() < MinPoints {
		return tooFew(res, c)
	}
	best := c.bestMeasured()
	res.BestSize, res.BestMiBPerSec = c.size[best], c.raw[best]
	k := c.core(fraction)
	res.PlateauMiBPerSec, res.Shape = k.plateau, k.shape
	if res.Shape != ShapeFlat {
		res.KneedleSize, res.KneedleFound = c.kneedle(k.end, DefaultSensitivity)
	}
	if res.Shape == ShapeRising {
		res.Reason = risingReason(c)
		return res
	}
	res.Found = true
	res.WriteSize, res.MiBPerSec = c.size[k.knee], c.raw[k.knee]
	res.Outliers = c.forgiven(k.band, k.knee, k.end)
	if res.Shape == ShapeDeclines {
		res.DeclinesAbove = c.size[k.end]
	}
	res.Reason = reason(res, c)
	return res
}

// kneeCore is the plateau rule's outcome as indices into a curve of at
// least MinPoints points: what resampling needs, without the words.
type kneeCore struct {
	plateau float64
	band    band
	end     int // last index in the band
	knee    int // the knee's index; meaningless when shape is rising
	shape   string
}

func (c curve) core(fraction float64) kneeCore {
	k := c.coreAt(fraction, c.plateau(fraction))
	// The robust maximum starts the search; the plateau is then the level
	// of the sizes on it, the median of [knee, end], until that settles.
	// A maximum, however robust, sits above the typical plateau run by
	// about the noise, and would push honest plateau sizes out of the band.
	for range maxPlateauSteps {
		level := Median(c.raw[k.knee : k.end+1])
		if k.shape == ShapeRising || !(level > 0) || level == k.plateau {
			break
		}
		k = c.coreAt(fraction, level)
	}
	return k
}

// maxPlateauSteps bounds the refinement of the plateau level; it settles
// in one or two steps on real curves.
const maxPlateauSteps = 4

func (c curve) coreAt(fraction, plateau float64) kneeCore {
	k := kneeCore{plateau: plateau}
	k.band = band{fraction * k.plateau, k.plateau / fraction}
	k.end = c.lastInBand(k.band)
	k.knee = c.kneeIndex(k.band, k.end)
	k.shape = c.shape(fraction, k.knee, k.end)
	return k
}

// normFraction maps an unusable fraction to DefaultFraction. A fraction
// above 1 could never be reached by every point, and 0 is the zero value
// callers leave unset.
func normFraction(f float64) float64 {
	if !(f > 0 && f <= 1) {
		return DefaultFraction
	}
	return f
}

func tooFew(res Result, c curve) Result {
	res.Shape = ShapeTooFewPoints
	res.Reason = fmt.Sprintf("need at least %d write sizes to find a knee, got %d", MinPoints, c.len())
	if c.len() > 0 {
		best := c.bestMeasured()
		res.BestSize, res.BestMiBPerSec = c.size[best], c.raw[best]
	}
	return res
}

// shape classifies the curve. Rising is checked first: a curve that is
// still climbing at the largest size has no plateau to speak of, whatever
// happened before.
func (c curve) shape(fraction float64, k, end int) string {
	last := c.len() - 1
	switch {
	case c.best() == last && c.smooth[last-1] < fraction*c.smooth[last], k == last:
		return ShapeRising
	case end < last:
		return ShapeDeclines
	case k == 0:
		return ShapeFlat
	default:
		return ShapePlateau
	}
}

func risingReason(c curve) string {
	last := c.len() - 1
	return fmt.Sprintf("no plateau reached: throughput still rising at %s (%.1f MiB/s, %.1f at %s)",
		units.FormatSize(c.size[last]), c.raw[last], c.raw[last-1], units.FormatSize(c.size[last-1]))
}

func reason(r Result, c curve) string {
	pct := math.Round(r.Fraction * 100)
	switch r.Shape {
	case ShapeFlat:
		return fmt.Sprintf("no sensitivity to write size in this range: every size is within %.0f%% of the %.1f MiB/s plateau",
			pct, r.PlateauMiBPerSec)
	case ShapeDeclines:
		last := c.len() - 1
		return fmt.Sprintf("throughput declines above %s: best %.1f MiB/s at %s, %.1f MiB/s at %s (below %.0f%% of the %.1f MiB/s plateau); knee at %s",
			units.FormatSize(r.DeclinesAbove), r.BestMiBPerSec, units.FormatSize(r.BestSize),
			c.raw[last], units.FormatSize(c.size[last]), pct, r.PlateauMiBPerSec, units.FormatSize(r.WriteSize))
	}
	if r.Centered {
		return fmt.Sprintf("the knee is %s, the middle of the sizes the runs cannot tell apart; from there throughput stays within the noise of %.0f%% of the %.1f MiB/s plateau",
			units.FormatSize(r.WriteSize), pct, r.PlateauMiBPerSec)
	}
	return fmt.Sprintf("throughput reaches %.0f%% of the %.1f MiB/s plateau at %s and stays there",
		pct, r.PlateauMiBPerSec, units.FormatSize(r.WriteSize))
}
