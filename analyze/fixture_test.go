package analyze_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
	"github.com/iobench/iobench/verdict"
)

var update = flag.Bool("update", false, "rewrite the JSON and CSV fixtures from testdata/pr91030-small.txt")

// The text fixture is real output of the reference program (see
// testdata/make-pr91030.sh); the JSON and CSV fixtures are the same curve
// as iobench would write it, generated from the text with -update.
const (
	smallText = "testdata/pr91030-small.txt"
	smallJSON = "testdata/pr91030-small.json"
	smallCSV  = "testdata/pr91030-small.csv"
)

func mustParseFile(t *testing.T, path string) *analyze.Input {
	t.Helper()
	in, err := analyze.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// asIobench is the report iobench would have written for the curve the
// reference program measured.
func asIobench(t *testing.T) *report.Report {
	in := mustParseFile(t, smallText)
	rep := *in.Report
	rep.Tool = report.Tool{Name: "iobench", Version: "fixture", GoVersion: "go1.26"}
	rep.Command = []string{"analyze.test", "-test.run=TestFixtures", "-update"}
	rep.Config.KneeFraction = knee.DefaultFraction
	rep.Knee = knee.EstimateKnee(verdict.Runs(rep.Results, record.ModeWrite), knee.DefaultFraction)
	return &rep
}

func TestFixtures(t *testing.T) {
	rep := asIobench(t)
	for path, write := range map[string]render.Reporter{smallJSON: render.JSON, smallCSV: render.CSV} {
		var buf bytes.Buffer
		if err := write(&buf, rep); err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./analyze/ -run TestFixtures -update)", err)
		}
		if diff := cmp.Diff(string(old), buf.String()); diff != "" {
			t.Errorf("%s is stale; rerun with -update (-want +got):\n%s", path, diff)
		}
	}
}

// TestSameKnee is the point of the text parser: the reference program's
// output and the same curve written by iobench give the same knee.
func TestSameKnee(t *testing.T) {
	want := mustParseFile(t, smallText)
	wantKnee := knee.EstimateKnee(verdict.Runs(want.Report.Results, record.ModeWrite), knee.DefaultFraction)
	if !wantKnee.Found { // two not-found knees would compare equal
		t.Fatalf("the fixture has no knee to compare: %+v", wantKnee)
	}
	// CSV keeps 9 significant digits of seconds, so its MiB/s differ in
	// the last places.
	approx := cmpopts.EquateApprox(1e-7, 0)
	for _, path := range []string{smallJSON, smallCSV} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			got := mustParseFile(t, path)
			gotKnee := knee.EstimateKnee(verdict.Runs(got.Report.Results, record.ModeWrite), knee.DefaultFraction)
			if diff := cmp.Diff(wantKnee, gotKnee, approx); diff != "" {
				t.Errorf("knee differs from the text's (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(curve(want), curve(got), approx); diff != "" {
				t.Errorf("curve differs from the text's (-want +got):\n%s", diff)
			}
		})
	}
}

func curve(in *analyze.Input) []knee.Point { return medianCurve(in.Report.Results, record.ModeWrite) }

// medianCurve is the median of each size in one direction, as knee sees it.
func medianCurve(rows []record.SizeResult, mode record.Mode) []knee.Point {
	var pts []knee.Point
	for _, row := range verdict.ModeRows(rows, mode) {
		pts = append(pts, knee.Point{Size: row.WriteSize, MiBPerSec: row.MiBPerSec})
	}
	return pts
}

// TestFixtureUnits checks the real output against its own figures: every
// size is bs*8 bytes and every throughput the printed one times 8.
func TestFixtureUnits(t *testing.T) {
	in := mustParseFile(t, smallText)
	if len(in.Original) != 17 || len(in.Report.Results) != 17 {
		t.Fatalf("got %d printed rows and %d results, want 17 (bs 2^10 .. 2^26)", len(in.Original), len(in.Report.Results))
	}
	for i, o := range in.Original {
		r := in.Report.Results[i]
		want := record.SizeResult{WriteSize: 8 << (10 + i), MiBPerSec: o.MiBPerSec * 8}
		got := record.SizeResult{WriteSize: r.WriteSize, MiBPerSec: r.MiBPerSec}
		if diff := cmp.Diff(want, got, cmpopts.EquateApprox(1e-12, 0)); diff != "" {
			t.Errorf("row %d (-want +got):\n%s", i, diff)
		}
	}
	c := in.Report.Config
	if c.Count != 2_000_000 || c.TotalBytes != 16_000_000 || in.Report.FS.BlockSize != 4096 {
		t.Errorf("count %d, total %d B, block size %d; want 2000000, 16000000, 4096", c.Count, c.TotalBytes, in.Report.FS.BlockSize)
	}
}

func TestFixtureRounds(t *testing.T) {
	in := mustParseFile(t, "testdata/pr91030-3runs.txt")
	if in.Report.Config.Repeat != 3 || len(in.Report.Results) != 17 {
		t.Fatalf("repeat %d, %d rows; want 3 rounds of 17 sizes", in.Report.Config.Repeat, len(in.Report.Results))
	}
	for _, r := range in.Report.Results {
		var rounds []int
		for _, s := range r.Samples {
			rounds = append(rounds, s.Round)
		}
		if diff := cmp.Diff([]int{1, 2, 3}, rounds); diff != "" {
			t.Errorf("rounds of %d B (-want +got):\n%s", r.WriteSize, diff)
		}
	}
}
