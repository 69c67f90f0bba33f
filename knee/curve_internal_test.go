package knee

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSmooth(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want []float64
	}{
		{"too short to smooth", []float64{5, 1}, []float64{5, 1}},
		{"monotone is unchanged", []float64{1, 2, 4, 8, 9, 10}, []float64{1, 2, 4, 8, 9, 10}},
		{"step is unchanged", []float64{1, 1, 1, 9, 9, 9}, []float64{1, 1, 1, 9, 9, 9}},
		{"isolated dip filled", []float64{1, 9, 9, 2, 9, 9}, []float64{1, 9, 9, 9, 9, 9}},
		{"isolated spike removed", []float64{1, 9, 30, 9, 9}, []float64{1, 9, 9, 9, 9}},
		{"low first point kept", []float64{1, 9, 9, 9}, []float64{1, 9, 9, 9}},
		{"low last point replaced", []float64{1, 9, 9, 9, 2}, []float64{1, 9, 9, 9, 9}},
		{"high last point replaced", []float64{1, 9, 9, 9, 30}, []float64{1, 9, 9, 9, 9}},
		// 3*s[n-2] - 2*s[n-3] = 3*6 - 2*4 = 10 extrapolates the rise.
		{"rising last point kept", []float64{1, 2, 4, 6, 10}, []float64{1, 2, 4, 6, 10}},
		{"two-point decline kept", []float64{1, 9, 9, 9, 5, 4}, []float64{1, 9, 9, 9, 5, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, smooth(tt.in)); diff != "" {
				t.Errorf("smooth(%v) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestNewCurveMergesDuplicates(t *testing.T) {
	c := newCurve([]Point{{2048, 10}, {1024, 5}, {2048, 30}, {2048, 20}})
	want := curve{size: []int64{1024, 2048}, raw: []float64{5, 20}, smooth: []float64{5, 20}}
	if diff := cmp.Diff(want, c, cmp.AllowUnexported(curve{})); diff != "" {
		t.Errorf("newCurve mismatch (-want +got):\n%s", diff)
	}
}
