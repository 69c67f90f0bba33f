package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
	"github.com/iobench/iobench/report/render"
)

// JSON is lossless: decoded, it is the report again. analyze and the
// plot tests rely on it.
// TestJSONRoundTrip: a report read back from its JSON is the report,
// MPI's per-rank and --jobs' per-job spreads included.
func TestJSONRoundTrip(t *testing.T) {
	for name, fixture := range map[string]func() *report.Report{"ext4": fixture.Ext4, "mpi": fixture.MPI, "jobs": fixture.Jobs} {
		var b bytes.Buffer
		if err := render.JSON(&b, fixture()); err != nil {
			t.Fatal(err)
		}
		var got report.Report
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		// An apply row's Comment is for the text block only; Note holds it all.
		if diff := cmp.Diff(fixture(), &got, cmpopts.IgnoreFields(advice.Apply{}, "Comment"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: round trip (-want +got):\n%s", name, diff)
		}
	}
}
