package knee_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/knee"
)

func TestStability(t *testing.T) {
	clean := saturating(s0)
	tests := []struct {
		name   string
		rounds [][]knee.Point
		want   knee.Spread
	}{
		{
			"three noisy rounds agree",
			[][]knee.Point{noisy(clean, 0.03, 1), noisy(clean, 0.03, 2), noisy(clean, 0.03, 3)},
			knee.Spread{
				Knees: []int64{wantKnee, wantKnee, wantKnee}, Min: wantKnee, Max: wantKnee, Agree: true,
				Note: "knee at 256 KiB in 3 of 3 rounds",
			},
		},
		{
			"one round's knee moves",
			[][]knee.Point{clean, saturating(2 * s0), clean},
			knee.Spread{
				Knees: []int64{wantKnee, 2 * wantKnee, wantKnee}, Min: wantKnee, Max: 2 * wantKnee,
				Note: "knees range from 256 KiB to 512 KiB across 3 rounds (a factor of 2)",
			},
		},
		{
			"one round still rising",
			[][]knee.Point{clean, clean, saturating(16 * mib)},
			knee.Spread{
				Knees: []int64{wantKnee, wantKnee, 0}, Min: wantKnee, Max: wantKnee,
				Note: "knee at 256 KiB in 2 of 3 rounds; no knee in 1 of 3 rounds",
			},
		},
		{
			"no round has a knee",
			[][]knee.Point{clean[:2], nil, saturating(16 * mib)},
			knee.Spread{Knees: []int64{0, 0, 0}, Note: "no knee in any of 3 rounds"},
		},
		{
			"single round",
			[][]knee.Point{clean},
			knee.Spread{
				Knees: []int64{wantKnee}, Min: wantKnee, Max: wantKnee,
				Note: "knee at 256 KiB in the only round; repeat to judge stability",
			},
		},
		{"no rounds", nil, knee.Spread{Knees: []int64{}, Note: "no rounds"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := knee.Stability(tt.rounds, knee.DefaultFraction)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Stability() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
