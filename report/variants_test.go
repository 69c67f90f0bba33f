package report_test

import (
	"testing"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

// TestVariantsSummary: one curve per variant with its own knee, the
// ratios with intervals, and the first variant's knee as the report's.
func TestVariantsSummary(t *testing.T) {
	r := fixture.Variants()
	if len(r.Variants) != 2 || r.Variants[0].Name != "convert=native" {
		t.Fatalf("Variants = %+v", r.Variants)
	}
	if r.Knee.WriteSize != r.Variants[0].Knee.WriteSize {
		t.Errorf("Knee %d is not the first variant's %d", r.Knee.WriteSize, r.Variants[0].Knee.WriteSize)
	}
	if len(r.Ratios) != len(r.Config.Sizes) {
		t.Fatalf("%d ratios, want one per size (%d)", len(r.Ratios), len(r.Config.Sizes))
	}
	last := r.Ratios[len(r.Ratios)-1]
	if last.Variant != "convert=big-endian" || last.Ratio > 0.7 || !last.Differs || last.CILow > last.Ratio || last.CIHigh < last.Ratio {
		t.Errorf("ratio at the largest size: %+v, want about 0.6x, measurably different, inside its interval", last)
	}
	if first := r.Ratios[0]; first.Differs {
		t.Errorf("ratio at 4 KiB %+v: 0.97x in 3 noisy rounds should not count as measurably different", first)
	}
}

// TestVariantReport: each variant as a report of its own, its rows and
// settings, the recommendation with the first only.
func TestVariantReport(t *testing.T) {
	runs := report.ExpandVariants([]report.Run{{Name: "a.json", Report: fixture.Variants()}, {Name: "b.json", Report: fixture.Ext4()}})
	if len(runs) != 3 || runs[0].Name != "a.json convert=native" || runs[1].Name != "a.json convert=big-endian" || runs[2].Name != "b.json" {
		t.Fatalf("ExpandVariants: %d runs %+v, want a.json's two variants and b.json", len(runs), runs)
	}
	be := runs[1].Report
	if be.Variant != "convert=big-endian" || be.Config.Convert != "big-endian" || len(be.Variants) != 0 || be.Recommendation != nil {
		t.Errorf("big-endian's report: variant %q, convert %q, %d variants, recommendation %v", be.Variant, be.Config.Convert, len(be.Variants), be.Recommendation)
	}
	for _, row := range be.Results {
		if row.Variant != "convert=big-endian" {
			t.Fatalf("big-endian's report holds a row of %q", row.Variant)
		}
	}
	if runs[0].Report.Recommendation == nil {
		t.Error("the first variant lost the recommendation")
	}
}
