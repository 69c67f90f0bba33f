package plot

import (
	"bytes"
	"strings"
	"testing"
)

// TestPlotDrawsEveryVariant: one interleaved sweep (report's variants
// fixture, as JSON) draws a curve per variant, the legend naming each.
func TestPlotDrawsEveryVariant(t *testing.T) {
	runs := fixtures(t, "variants")
	var b bytes.Buffer
	if err := SVG(&b, runs); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{"[convert=native]", "[convert=big-endian]", "2 variants", "knee 2 MiB", "knee 128 KiB"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}
