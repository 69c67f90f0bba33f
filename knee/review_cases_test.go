package knee_test

import (
	"testing"

	"github.com/iobench/iobench/knee"
)

// curveFrom builds a curve from 64 KiB up, doubling, from MiB/s values.
func curveFrom(vals ...float64) []knee.Point {
	pts := make([]knee.Point, len(vals))
	for i, v := range vals {
		pts[i] = knee.Point{Size: 64 << 10 << i, MiBPerSec: v}
	}
	return pts
}

// Cases a review found: a curve whose top point is slightly above the
// estimated plateau is not "rising"; "best" is the fastest measured size;
// a forgiven low run is named.
func TestReviewedCurves(t *testing.T) {
	r := knee.Find(curveFrom(500, 800, 1000, 1200, 1500, 1400), 0.95)
	if r.Shape == knee.ShapeRising || !r.Found || r.WriteSize != 1<<20 {
		t.Errorf("top point above the plateau: shape %q knee %d, want a knee at 1 MiB", r.Shape, r.WriteSize)
	}
	r = knee.Find(curveFrom(300, 600, 1000, 700, 1000, 950, 500, 450), 0.95)
	if r.BestSize != 256<<10 && r.BestSize != 1<<20 || r.BestMiBPerSec != 1000 {
		t.Errorf("best = %d at %.0f MiB/s, want a size that measured 1000", r.BestSize, r.BestMiBPerSec)
	}
	r = knee.Find(curveFrom(500, 800, 1000, 1000, 1000, 300, 1000, 1000), 0.95)
	if !r.Found || len(r.Outliers) != 1 || r.Outliers[0] != 2<<20 {
		t.Errorf("knee %d outliers %v, want the 2 MiB run named as an outlier", r.WriteSize, r.Outliers)
	}
}
