package report_test

import (
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/report/internal/fixture"
)

// The runtime report's how-to-apply rows: libgfortran's are marked
// measured, as it ran at the recommended 256 KiB; the others are not.
func TestRuntimeReportAppliesWhatItMeasured(t *testing.T) {
	r := fixture.Runtime()
	var gf, others int
	for _, a := range r.Apply {
		switch {
		case a.Runtime == advice.RuntimeLibgfortran && a.Setting == "GFORTRAN_UNFORMATTED_BUFFER_SIZE" && a.Value == "262144":
			if !a.Measured {
				t.Errorf("%+v: want measured", a)
			}
			gf++
		case a.Runtime != advice.RuntimeLibgfortran && a.Measured:
			t.Errorf("%+v: only libgfortran ran", a)
		default:
			others++
		}
	}
	if gf != 1 || others == 0 {
		t.Errorf("apply rows %+v: want libgfortran at 262144 measured, and the other runtimes", r.Apply)
	}
	r.Sweep.KneeBytes = 0
	if r.SetApply(); r.Apply != nil {
		t.Errorf("no knee in the sweep, yet apply rows %+v", r.Apply)
	}
}
