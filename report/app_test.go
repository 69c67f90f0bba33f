package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/workload"
)

// appInputs are a Fortran program's log (1 KiB records through
// libgfortran's 128 KiB buffer, stdout through stdio) and a trace of a
// program writing 8-byte calls itself.
func appInputs() []workload.Input {
	frec := workload.File{Path: "/scratch/alice/run1/frec.bin", Module: workload.ModulePOSIX, Mount: "/scratch", FSType: "ext4",
		Records: 1, Writes: 2048, Bytes: 256 << 20, Histogram: true, WriteSeconds: 0.41,
		Sizes: []workload.SizeClass{{Low: 128 << 10, High: 128 << 10, Calls: 2048, Bin: "100K_1M"}}}
	stdout := workload.File{Path: "/scratch/alice/run1/log.txt", Module: workload.ModuleSTDIO, Mount: "/scratch", FSType: "ext4",
		Records: 1, Writes: 1000, Bytes: 64000, WriteSeconds: 0.002}
	darshanIn := workload.Input{Path: "frec.darshan", Kind: workload.KindDarshan, Version: "3.41", Compression: "zlib", NProcs: 1,
		Exe: "./frec /scratch/alice/run1/frec.bin", RunSeconds: 2.1, Present: []string{"POSIX", "STDIO", "HEATMAP"},
		Skipped: []string{"HEATMAP (v1)"}, Files: []workload.File{frec, stdout},
		Modules: []workload.Module{
			{Name: "POSIX", Records: 1, Files: 1, Writes: 2048, BytesWritten: 256 << 20, WriteSeconds: 0.41,
				Histogram: map[string]int64{"0_100": 0, "100_1K": 0, "1K_10K": 0, "10K_100K": 0, "100K_1M": 2048, "1M_4M": 0, "4M_10M": 0, "10M_100M": 0, "100M_1G": 0, "1G_PLUS": 0}},
			{Name: "STDIO", Records: 1, Files: 1, Writes: 1000, BytesWritten: 64000, WriteSeconds: 0.002}}}
	small := workload.File{Path: "/scratch/alice/run1/out.dat", Module: workload.ModuleStrace, Mount: "/scratch", FSType: "ext4",
		Records: 1, Writes: 2000, Bytes: 16000, Histogram: true, Sizes: []workload.SizeClass{{Low: 8, High: 8, Calls: 2000}}}
	straceIn := workload.Input{Path: "trace.txt", Kind: workload.KindStrace, NProcs: 1, Files: []workload.File{small},
		Notes: []string{"the trace has no call times (record with strace -T to measure the write time)"},
		Modules: []workload.Module{{Name: "strace", Records: 1, Files: 1, Writes: 2000, BytesWritten: 16000,
			Histogram: map[string]int64{"0_100": 2000, "100_1K": 0, "1K_10K": 0, "10K_100K": 0, "100K_1M": 0, "1M_4M": 0, "4M_10M": 0, "10M_100M": 0, "100M_1G": 0, "1G_PLUS": 0}}}}
	return []workload.Input{darshanIn, straceIn}
}

// appReport is the two inputs against the ext4 fixture's curve.
func appReport(t *testing.T) *AppReport {
	t.Helper()
	curve := fixedReport()
	cc := curve.CostCurve(4096)
	inputs := appInputs()
	cost := advice.EstimateCost(inputs, cc)
	ev := advice.RuntimesOf(inputs, advice.ProgramFacts{})
	head := AppReport{Tool: curve.Tool, Command: []string{"iobench", "app", "frec.darshan", "trace.txt", "--curve", "ext4.json"},
		StartTime: fixtureStart, Curve: AppCurveOf("ext4.json", curve, cc)}
	return NewAppReport(head, inputs, curve, &cost, ev, advice.ApplyFor(curve.Recommendation.Apply, ev))
}

// Without a curve the report gives the sizes and says how to get one.
func TestAppWithoutACurve(t *testing.T) {
	r := NewAppReport(AppReport{Tool: fixedReport().Tool}, appInputs(), nil, nil, nil, nil)
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
	in := appInputs()[0]
	in.Files, in.Modules = in.Files[:1], in.Modules[:1]
	curve := fixedReport()
	cc := curve.CostCurve(4096)
	cc.Recommended = rec
	cost := advice.EstimateCost([]workload.Input{in}, cc)
	head := AppReport{Tool: curve.Tool, Curve: AppCurveOf("ext4.json", curve, cc)}
	var b bytes.Buffer
	if err := AppText(&b, NewAppReport(head, []workload.Input{in}, curve, &cost, nil, nil)); err != nil {
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
	if err := AppText(&b, appReport(t)); err != nil {
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
	curve := fixedReport()
	cc := curve.CostCurve(4096)
	cost := advice.EstimateCost([]workload.Input{in}, cc)
	r := NewAppReport(AppReport{Tool: curve.Tool, Curve: AppCurveOf("ext4.json", curve, cc)}, []workload.Input{in}, curve, &cost, nil, nil)
	for name, format := range map[string]AppReporter{"text": AppText, "markdown": AppMarkdown} {
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
