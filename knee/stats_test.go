package knee_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/knee"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"empty is NaN", nil, math.NaN()},
		{"one", []float64{7}, 7},
		{"odd, unsorted", []float64{3, 1, 2}, 2},
		{"even averages the middle two", []float64{4, 1, 3, 2}, 2.5},
		{"outlier ignored", []float64{100, 101, 1e9}, 101},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]float64(nil), tt.xs...)
			got := knee.Median(tt.xs)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("Median(%v) mismatch (-want +got):\n%s", tt.xs, diff)
			}
			if diff := cmp.Diff(in, tt.xs); diff != "" {
				t.Errorf("Median modified its input (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCV(t *testing.T) {
	tests := []struct {
		name    string
		samples []float64
		want    float64
	}{
		{"empty", nil, 0},
		{"one sample", []float64{5}, 0},
		{"identical", []float64{3, 3, 3}, 0},
		{"all zero", []float64{0, 0}, 0},
		{"sample stddev", []float64{1, 2, 3}, 0.5},          // sd 1 (n-1), mean 2
		{"at WideCV", []float64{90, 100, 110}, knee.WideCV}, // sd 10, mean 100
		{"two samples", []float64{90, 110}, math.Sqrt(200) / 100},
		{"zero mean, nonzero spread", []float64{-1, 1}, math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := knee.CV(tt.samples)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("CV(%v) mismatch (-want +got):\n%s", tt.samples, diff)
			}
		})
	}
}
