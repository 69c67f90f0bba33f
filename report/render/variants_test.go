package render

import (
	"strings"
	"testing"

	"github.com/iobench/iobench/report/internal/fixture"
)

// TestVariantsReport: each variant's section, the ratios to the first
// and where the recommendation comes from.
func TestVariantsReport(t *testing.T) {
	var text strings.Builder
	if err := Text(&text, fixture.Variants()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nwrite, convert=native\n", "\nwrite, convert=big-endian\n", "each variant over convert=native",
		"the recommendation is from the first variant, convert=native"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
}
