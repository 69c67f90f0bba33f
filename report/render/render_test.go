package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
)

func TestLookup(t *testing.T) {
	for _, f := range formats {
		got, err := Lookup(f.Command, f.Name)
		if err != nil || got.Name != f.Name || got.Ext == "" {
			t.Errorf("Lookup(%s, %s) = %+v, %v; want the format with its extension", f.Command, f.Name, got, err)
		}
		set := 0
		for _, ok := range []bool{f.Report != nil, f.Runs != nil, f.Runtime != nil, f.App != nil} {
			if ok {
				set++
			}
		}
		if set != 1 && f.Command != CmdPlot {
			t.Errorf("%s %s: want exactly one of Report, Runs, Runtime and App", f.Command, f.Name)
		}
	}
	_, err := Lookup(CmdAnalyze, "gobench")
	var unknown *UnknownFormatError
	if !errors.As(err, &unknown) || unknown.Format != "gobench" || !slices.Contains(unknown.Valid, "markdown") {
		t.Errorf(`Lookup(analyze, "gobench") error = %#v; want an *UnknownFormatError listing analyze's formats`, err)
	}
	if want := `unknown format "gobench" for analyze (valid: text, json, csv, markdown)`; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

var errFull = errors.New("disk full")

// failWriter accepts budget bytes, then fails every write.
type failWriter struct{ budget int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.budget {
		w.budget -= len(p)
		return len(p), nil
	}
	n := w.budget
	w.budget = 0
	return n, errFull
}

// TestWriteErrors checks that every output propagates a failed write,
// whether the first byte fails or one in the middle does.
func TestWriteErrors(t *testing.T) {
	outputs := map[string]func(io.Writer) error{
		"body": func(w io.Writer) error { return TextBody(w, fixedReport()) },
	}
	for _, f := range formats {
		name := string(f.Command) + " " + f.Name
		switch {
		case f.Report != nil:
			outputs[name] = func(w io.Writer) error { return f.Report(w, mpiReport()) }
		case f.Runs != nil:
			outputs[name] = func(w io.Writer) error { return f.Runs(w, []Run{{"a", fixedReport()}, {"b", gpfsReport()}}) }
		}
	}
	for name, out := range outputs {
		var full bytes.Buffer
		if err := out(&full); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, budget := range []int{0, full.Len() / 2, full.Len() - 1} {
			if err := out(&failWriter{budget: budget}); !errors.Is(err, errFull) {
				t.Errorf("%s, failing after %d bytes: error = %v, want %v", name, budget, err, errFull)
			}
		}
	}
}

// kneeRows is a table for KneeLine: 1 KiB .. 64 MiB with the given MiB/s
// (the last value repeats up to 64 MiB).
func kneeRows(ys ...float64) []iobench.SizeResult {
	var rows []iobench.SizeResult
	for i := 0; i < 17; i++ {
		y := ys[min(i, len(ys)-1)]
		rows = append(rows, iobench.SizeResult{Mode: iobench.ModeWrite, WriteSize: 1024 << i, MiBPerSec: y})
	}
	return rows
}

func TestKneeLine(t *testing.T) {
	rows := kneeRows(100, 200, 400, 800, 1200, 1500, 1800, 1900, 2000, 1850, 2010)
	base := knee.Estimate{Result: knee.Result{Found: true, WriteSize: 128 << 10, MiBPerSec: 1900, PlateauMiBPerSec: 2000, Fraction: 0.95,
		BestSize: 1 << 20, BestMiBPerSec: 2010, KneedleFound: true, KneedleSize: 16 << 10}, CILow: 64 << 10, CIHigh: 256 << 10}
	with := func(f func(*knee.Estimate)) knee.Estimate { k := base; f(&k); return k }
	tests := []struct {
		name     string
		k        knee.Estimate
		rows     []iobench.SizeResult
		want     []string
		dontWant []string
	}{
		{"plateau", with(func(k *knee.Estimate) { k.Shape = knee.ShapePlateau }), rows,
			[]string{"knee: 128 KiB (131072 bytes; likely between 64 KiB and 256 KiB) at 1900.0 MiB/s (95% of the 2000.0 MiB/s plateau)",
				"no larger size is measurably below 95% of it (512 KiB at 92%: below it, but within noise)", "Kneedle", "16 KiB"}, nil},
		{"no interval when it is the knee", with(func(k *knee.Estimate) { k.Shape, k.CILow, k.CIHigh = knee.ShapePlateau, 128<<10, 128<<10 }), rows,
			[]string{"knee: 128 KiB (131072 bytes) at"}, []string{"likely"}},
		{"declines", with(func(k *knee.Estimate) { k.Shape, k.DeclinesAbove = knee.ShapeDeclines, 16<<20 }), kneeRows(100, 200, 400, 800, 1200, 1500, 1800, 1900, 2000, 1850, 2010, 2000, 1990, 1980, 1970, 800, 700),
			[]string{"knee: 128 KiB", "peaks around 1 MiB (best 2010.0 MiB/s) and declines above 16 MiB", "sizes from 128 KiB to 16 MiB are within noise of 95%",
				"every larger size measures below it (32 MiB at 40%, 64 MiB at 35%)"}, []string{"reached it"}},
		{"declines, one larger size reaching", with(func(k *knee.Estimate) { k.Shape, k.DeclinesAbove = knee.ShapeDeclines, 8<<20 }), kneeRows(100, 200, 400, 800, 1200, 1500, 1800, 1900, 2000, 1850, 2010, 2000, 1990, 1980, 800, 1950, 700),
			[]string{"though 32 MiB reached it"}, []string{"every larger size"}},
		{"declines at once", with(func(k *knee.Estimate) { k.Shape, k.DeclinesAbove = knee.ShapeDeclines, 128<<10 }), rows,
			[]string{"but throughput declines above 128 KiB: only 128 KiB is within noise"}, []string{"peaks"}},
		{"flat", with(func(k *knee.Estimate) { k.Shape, k.WriteSize, k.KneedleFound = knee.ShapeFlat, 1024, false }), kneeRows(2000, 1960, 1890, 2000),
			[]string{"knee: none", "does not matter", "no size from 1 KiB up", "(4 KiB at 94.5%: below it, but within noise)", "smaller --min"}, []string{"Kneedle"}},
		{"rising", with(func(k *knee.Estimate) {
			k.Shape, k.Found, k.Reason = knee.ShapeRising, false, "no plateau reached: throughput still rising at 64 MiB; extend --max"
		}), rows, []string{"knee: none", "still rising at 64 MiB", "--max", "sharpest bend at 16 KiB"}, []string{"plateau)"}},
		{"too few", knee.Estimate{Result: knee.Result{Shape: knee.ShapeTooFewPoints, Reason: "need at least 3 write sizes to find a knee, got 2"}}, nil,
			[]string{"knee: none (need at least 3 write sizes"}, []string{"Kneedle"}},
		{"agreeing Kneedle", with(func(k *knee.Estimate) { k.Shape, k.KneedleSize = knee.ShapePlateau, 128<<10 }), rows,
			[]string{"the Kneedle method agrees"}, nil},
		{"report without shape", with(func(k *knee.Estimate) { k.Shape, k.KneedleFound = "", false }), rows,
			[]string{"knee: 128 KiB", "no larger size is measurably below"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := KneeLine(tt.k, tt.rows)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("KneeLine = %q\nwant it to contain %q", got, w)
				}
			}
			for _, w := range tt.dontWant {
				if strings.Contains(got, w) {
					t.Errorf("KneeLine = %q\nwant it without %q", got, w)
				}
			}
		})
	}
}

func TestSharePct(t *testing.T) {
	for _, tt := range []struct {
		share float64
		want  string
	}{{0.946, "94.6%"}, {0.95, "95%"}, {0.9549, "95%"}, {0.944, "94%"}, {1.2, "120%"}, {0.3, "30%"}} {
		if got := sharePct(tt.share, 0.95); got != tt.want {
			t.Errorf("sharePct(%v) = %q, want %q", tt.share, got, tt.want)
		}
	}
}

func TestSummarizeStability(t *testing.T) {
	r := fixedReport()
	if r.KneeStability == nil {
		t.Fatal("KneeStability is nil after 3 rounds")
	}
	if diff := cmp.Diff([]int64{1 << 20, 2 << 20, 2 << 20}, r.KneeStability.Knees); diff != "" {
		t.Errorf("knees by round (-want +got):\n%s", diff)
	}
	r.Config.Repeat = 2
	r.SetResult(&iobench.Result{Samples: fixtureSamples(r.Config, []iobench.Mode{iobench.ModeWrite},
		func(iobench.Mode, int64) float64 { return 100 })})
	if r.KneeStability != nil {
		t.Errorf("KneeStability = %+v after 2 rounds, want nil", r.KneeStability)
	}
}

// TestFullRoundCurves: only rounds that measured every size count; a
// partial round (adaptive, or interrupted) and other directions do not.
func TestFullRoundCurves(t *testing.T) {
	s := func(round int, size int64) iobench.Sample {
		return iobench.Sample{Run: iobench.Run{Mode: iobench.ModeWrite, WriteSize: size, Round: round}, Seconds: 1, Bytes: iobench.MiB}
	}
	got := FullRoundCurves([]iobench.Sample{s(3, 1024), s(1, 1024), s(1, 2048), s(2, 2048), s(2, 1024), {Run: iobench.Run{Mode: iobench.ModeRead, Round: 4}}}, iobench.ModeWrite)
	full := []knee.Point{{Size: 1024, MiBPerSec: 1}, {Size: 2048, MiBPerSec: 1}}
	want := [][]knee.Point{full, {full[1], full[0]}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FullRoundCurves (-want +got):\n%s", diff)
	}
}

// TestSummaryWarnings: the warnings the knee calls for, by kind.
func TestSummaryWarnings(t *testing.T) {
	k := knee.Estimate{Result: knee.Result{Found: true, Outliers: []int64{4096}}, Rounds: 1, Status: knee.StatusOneRound}
	var got []WarningKind
	for _, w := range summaryWarnings(k) {
		got = append(got, w.Kind)
	}
	if diff := cmp.Diff([]WarningKind{WarnKneeNotEstablished, WarnOutliersSetAside}, got); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	k.Established, k.Rounds, k.Status = true, 3, knee.StatusEstablished
	if w := summaryWarnings(k); w != nil {
		t.Errorf("an established knee after 3 rounds: warnings %v", w)
	}
}

// TestSummaryWarningsOnceAfterAnalyze: a sweep's JSON read back and
// summarized again, as analyze does, carries each derived warning once,
// after the run's own.
func TestSummaryWarningsOnceAfterAnalyze(t *testing.T) {
	r := fixedReport()
	r.Config.Repeat = 1
	r.Warnings = append(r.Warnings, "launcher: something")
	res := &iobench.Result{Samples: fixtureSamples(r.Config, []iobench.Mode{iobench.ModeWrite},
		func(_ iobench.Mode, size int64) float64 { return float64(min(size, 1<<20)) / 1000 })}
	r.SetResult(res)
	if len(r.Summary.Warnings) != 1 || r.Summary.Warnings[0].Kind != WarnKneeNotEstablished {
		t.Fatalf("one round: summary warnings %+v, want the knee not established", r.Summary.Warnings)
	}
	doc, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(doc, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.Warnings, back.Warnings); diff != "" {
		t.Errorf("the run's warnings read back (-want +got):\n%s", diff)
	}
	back.SetResult(res)
	if diff := cmp.Diff(r.AllWarnings(), back.AllWarnings()); diff != "" {
		t.Errorf("warnings summarized again (-sweep +analyze):\n%s", diff)
	}
}

func TestShellJoin(t *testing.T) {
	got := ShellJoin([]string{"iobench", "--dir", "/mnt/my data", "--sizes=4KiB,1MiB", "it's", "<dir>/x", "a;b"})
	want := `iobench --dir '/mnt/my data' --sizes=4KiB,1MiB 'it'\''s' <dir>/x 'a;b'`
	if got != want {
		t.Errorf("ShellJoin = %s\nwant        %s", got, want)
	}
}

func TestAnonymize(t *testing.T) {
	orig := mpiReport()
	orig.Warnings = append(orig.Warnings, "cannot remove /scratch/alice/run2/iobench-0003.dat on node18: busy",
		"nothing written to /scratch/alice/run2.", "/scratch/alice/run2x is not /scratch/alice/run2",
		"left /scratch/alice/run2/.iobench-gpu_node_9-77-0123456789ab-shared.dat")
	orig.MPI.Hosts = append(orig.MPI.Hosts, "gpu-node-9") // data file names spell it gpu_node_9
	orig.FS.SuperOptions = "rw,vers=4.2,addr=10.1.2.3,clientaddr=10.1.2.99"
	anon := Anonymize(orig, fixtureUser)
	var out bytes.Buffer
	for _, f := range []Reporter{Markdown, JSON, Text, CSV, Gobench} {
		if err := f(&out, anon); err != nil {
			t.Fatal(err)
		}
	}
	for _, secret := range []string{"alice", "node17", "node18", "cluster", "example.org", "scratch", "nvme0n1", "10.1.2", "/home", "gpu"} {
		if i := strings.Index(out.String(), secret); i >= 0 {
			t.Errorf("anonymized output still holds %q: ...%s...", secret, out.String()[max(i-60, 0):min(i+60, out.Len())])
		}
	}
	for _, want := range []string{"<host>", "<host-2>", "<dir>", "<mount>", "<device>", "addr=<addr>", "<dir>/iobench-0003.dat on <host-2>", "written to <dir>.", "<mount>/<user>/run2x is not <dir>", "<dir>/.iobench-<host-3>-77-"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("anonymized output lacks %q", want)
		}
	}
	if orig.Host.Hostname != fixtureHost || orig.MPI.Hosts[1] != "node18.cluster.example.org" || orig.FS.Dir != "/scratch/alice/run2" {
		t.Error("Anonymize changed the report it was given")
	}
	if diff := cmp.Diff(anon, Anonymize(orig, fixtureUser)); diff != "" {
		t.Errorf("Anonymize is not stable (-first +second):\n%s", diff)
	}
}

func TestAnonymizePlaceholdersAreNotRescanned(t *testing.T) {
	r := fixedReport()
	r.Host.Hostname = "dir" // a name that is also a placeholder's word
	r.Warnings = []string{"host dir is slow"}
	got := Anonymize(r, "host").Warnings[0]
	if got != "<user> <host> is slow" {
		t.Errorf("warning = %q, want %q", got, "<user> <host> is slow")
	}
}

// JSON is lossless: decoded, it is the report again. analyze and the
// plot tests rely on it.
// TestJSONRoundTrip: a report read back from its JSON is the report,
// MPI's per-rank and --jobs' per-job spreads included.
func TestJSONRoundTrip(t *testing.T) {
	for name, fixture := range map[string]func() *Report{"ext4": fixedReport, "mpi": mpiReport, "jobs": jobsReport} {
		var b bytes.Buffer
		if err := JSON(&b, fixture()); err != nil {
			t.Fatal(err)
		}
		var got Report
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		// An apply row's Comment is for the text block only; Note holds it all.
		if diff := cmp.Diff(fixture(), &got, cmpopts.IgnoreFields(advice.Apply{}, "Comment"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: round trip (-want +got):\n%s", name, diff)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	if err := Compare(io.Discard, nil); err == nil {
		t.Error("Compare with no reports: no error")
	}
	if err := Compare(io.Discard, []Run{{"x.json", nil}}); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("Compare with a nil report: error = %v, want it to name x.json", err)
	}
}

func TestAnonymizeRelativeDir(t *testing.T) {
	r := fixedReport()
	r.FS.Dir = "data"
	r.Command = []string{"iobench", "--dir", "data", "--dir=data", "--size", "1GiB"}
	a := Anonymize(r, "")
	if diff := cmp.Diff([]string{"iobench", "--dir", "<dir>", "--dir=<dir>", "--size", "1GiB"}, a.Command); diff != "" {
		t.Errorf("command (-want +got):\n%s", diff)
	}
	if a.FS.Dir != "<dir>" || !strings.HasPrefix(a.Warnings[0], "the data (256 MiB)") {
		t.Errorf("dir %q, warning %q: want <dir>, and the word data kept in messages", a.FS.Dir, a.Warnings[0])
	}
}
