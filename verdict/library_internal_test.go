package verdict

import (
	"testing"

	"github.com/iobench/iobench/knee"
)

// slower is Gain.Significant's mirror: a real loss, not a real gain, nor
// a difference inside the band.
func TestSlowerIsARealLoss(t *testing.T) {
	fast := []float64{1000, 990, 1010, 1005, 995, 1002, 998, 1001}
	slow := []float64{500, 495, 505, 502, 498, 501, 499, 500}
	near := []float64{990, 980, 1000, 995, 985, 992, 988, 991}
	for _, tc := range []struct {
		name       string
		case_, def []float64
		want       bool
	}{
		{"half as fast", slow, fast, true},
		{"twice as fast", fast, slow, false},
		{"1% slower, inside the band", near, fast, false},
		{"three runs, too few for the U test", slow[:3], fast[:3], false},
	} {
		if got := slower(knee.CompareGain(tc.case_, tc.def, 0.95), 0.95); got != tc.want {
			t.Errorf("%s: slower = %v, want %v", tc.name, got, tc.want)
		}
	}
}
