package knee_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/knee"
)

func TestKneedle(t *testing.T) {
	type result struct {
		Size int64
		OK   bool
	}
	tests := []struct {
		name        string
		points      []knee.Point
		sensitivity float64
		want        result
	}{
		{"elbow", elbow(), knee.DefaultSensitivity, result{64 * kib, true}},
		{"elbow, S=0", elbow(), 0, result{64 * kib, true}},
		{"elbow, negative S means default", elbow(), -1, result{64 * kib, true}},
		// The elbow's difference curve falls by 1/16 per size after the
		// corner, so S=3 needs a drop of more than 3/16, four sizes past it;
		{"elbow, S=3", elbow(), 3, result{64 * kib, true}},
		// S=16 needs more than the whole range.
		{"elbow, S=16", elbow(), 16, result{}},
		{"saturating", saturating(s0), knee.DefaultSensitivity, result{wantKnee, true}},
		{"straight line has no knee", sweep(func(s int64) float64 { return math.Log2(float64(s)) }), 1, result{}},
		{"flat has no knee", sweep(func(int64) float64 { return 5 }), 1, result{}},
		{"two points", elbow()[:2], 1, result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got result
			got.Size, got.OK = knee.Kneedle(tt.points, tt.sensitivity)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Kneedle() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
