package render

import (
	"strings"
	"testing"

	"github.com/iobench/iobench/report"
)

// TestUnsettledPriceSaysSo: a price whose interval holds no change says
// that the estimate stays the curve's; a settled one does not.
func TestUnsettledPriceSaysSo(t *testing.T) {
	for _, tt := range []struct {
		low, high float64
		want      bool
	}{{0.02, 0.2, false}, {-0.25, 0.2, true}} {
		rp := &report.AppRuntimePrice{Runtime: "libgfortran", SavingSeconds: 0.03, SavingLow: tt.low, SavingHigh: tt.high}
		if got := strings.Contains(runtimePriceWords(rp), "not settled"); got != tt.want {
			t.Errorf("price %g to %g: %q", tt.low, tt.high, runtimePriceWords(rp))
		}
	}
}
