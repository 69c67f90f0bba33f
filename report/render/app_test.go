package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/iobench/iobench/report/internal/fixture"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload"
)

// Without a curve the report gives the sizes and says how to get one.
func TestAppWithoutACurve(t *testing.T) {
	r := report.NewAppReport(report.AppReport{Tool: fixture.Ext4().Tool}, fixture.AppInputs(), nil, nil, nil, nil)
	var b bytes.Buffer
	if err := AppText(&b, r); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "iobench sweep --dir /scratch --format json -o curve.json") || strings.Contains(out, "what to set") {
		t.Errorf("no-curve text:\n%s", out)
	}
	b.Reset()
	if err := AppJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc["estimate"] != nil || doc["curve"] != nil {
		t.Errorf("no-curve JSON has an estimate or a curve (%v):\n%s", err, b.String())
	}
}

// fortranAlone is the report of the Fortran log's 128 KiB calls alone
// against the fixture's curve, recommending rec bytes.
func fortranAlone(t *testing.T, rec int64) string {
	t.Helper()
	in := fixture.AppInputs()[0]
	in.Files, in.Modules = in.Files[:1], in.Modules[:1]
	curve := fixture.Ext4()
	cc := curve.CostCurve(4096)
	cc.Recommended = rec
	cost := advice.EstimateCost([]workload.Input{in}, cc)
	head := report.AppReport{Tool: curve.Tool, Curve: report.AppCurveOf("ext4.json", curve, cc)}
	var b bytes.Buffer
	if err := AppText(&b, report.NewAppReport(head, []workload.Input{in}, curve, &cost, nil, nil)); err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(b.String()), " ") // the words, wherever the lines break
}

// Calls all of one size are named by it in the verdict.
func TestAppNamesTheOneCallSize(t *testing.T) {
	if out := fortranAlone(t, 2<<20); !strings.Contains(out, "in 2048 write(2) calls of 128 KiB, at the curve's") {
		t.Errorf("the verdict does not name the one size:\n%s", out)
	}
	var b bytes.Buffer
	if err := AppText(&b, fixture.App()); err != nil {
		t.Fatal(err)
	}
	if out := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(out, "in 2064 write(2) calls, at the curve's") {
		t.Errorf("calls of several sizes (128 KiB, 4 KiB from stdio) named by one:\n%s", b.String())
	}
}

// Calls already above the recommended size are said to be, not "about
// the same" in writes of a smaller size.
func TestAppCallsAboveTheRecommendedSize(t *testing.T) {
	out := fortranAlone(t, 8<<10)
	for _, want := range []string{
		"the write(2) calls are at or above the recommended 8 KiB already: nothing to save by their size.",
		"the curve does not agree: they are at or above its recommended 8 KiB already",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// A log without records says so, in the verdict, what to set and its
// table, in text and Markdown.
func TestAppLogWithoutWrites(t *testing.T) {
	in := workload.Input{Path: "empty.darshan", Kind: workload.KindDarshan, Version: "3.41", Compression: "zlib", NProcs: 4}
	curve := fixture.Ext4()
	cc := curve.CostCurve(4096)
	cost := advice.EstimateCost([]workload.Input{in}, cc)
	r := report.NewAppReport(report.AppReport{Tool: curve.Tool, Curve: report.AppCurveOf("ext4.json", curve, cc)}, []workload.Input{in}, curve, &cost, nil, nil)
	for name, format := range map[string]report.AppReporter{"text": AppText, "markdown": AppMarkdown} {
		var b bytes.Buffer
		if err := format(&b, r); err != nil {
			t.Fatal(err)
		}
		out := strings.ToLower(b.String())
		for _, want := range []string{"the inputs have no write calls: nothing to estimate.", "nothing; the inputs show no write calls.", "no posix, mpi-io or stdio records"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in:\n%s", name, want, b.String())
			}
		}
	}
}
