package render

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

func TestLookup(t *testing.T) {
	for _, f := range formats {
		got, err := Lookup(f.Command, f.Name)
		if err != nil || got.Name != f.Name || got.Ext == "" {
			t.Errorf("Lookup(%s, %s) = %+v, %v; want the format with its extension", f.Command, f.Name, got, err)
		}
		set := 0
		for _, ok := range []bool{f.Report != nil, f.Runs != nil, f.Runtime != nil, f.App != nil, f.Tune != nil} {
			if ok {
				set++
			}
		}
		if set != 1 && f.Command != report.CmdPlot {
			t.Errorf("%s %s: want exactly one of Report, Runs, Runtime, App and Tune", f.Command, f.Name)
		}
	}
	_, err := Lookup(report.CmdAnalyze, "gobench")
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
		"body": func(w io.Writer) error { return TextRest(w, fixture.Ext4()) },
	}
	for _, f := range formats {
		name := string(f.Command) + " " + f.Name
		switch {
		case f.Report != nil:
			outputs[name] = func(w io.Writer) error { return f.Report(w, fixture.MPI()) }
		case f.Runs != nil:
			outputs[name] = func(w io.Writer) error {
				return f.Runs(w, []report.Run{{Name: "a", Report: fixture.Ext4()}, {Name: "b", Report: fixture.GPFS()}})
			}
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

// manyLowRows is the knee at 128 KiB (1900 MiB/s) and n sizes above it,
// 4 KiB apart, each at 92% of a 2000 MiB/s plateau.
func manyLowRows(n int) []record.SizeResult {
	rows := []record.SizeResult{{Mode: record.ModeWrite, WriteSize: 128 << 10, MiBPerSec: 1900}}
	for i := 1; i <= n; i++ {
		rows = append(rows, record.SizeResult{Mode: record.ModeWrite, WriteSize: 128<<10 + int64(i)*4096, MiBPerSec: 1840})
	}
	return rows
}

// kneeRows is a table for KneeLine: 1 KiB .. 64 MiB with the given MiB/s
// (the last value repeats up to 64 MiB).
func kneeRows(ys ...float64) []record.SizeResult {
	var rows []record.SizeResult
	for i := 0; i < 17; i++ {
		y := ys[min(i, len(ys)-1)]
		rows = append(rows, record.SizeResult{Mode: record.ModeWrite, WriteSize: 1024 << i, MiBPerSec: y})
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
		rows     []record.SizeResult
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
		{"many sizes below the band named up to a count", with(func(k *knee.Estimate) { k.Shape = knee.ShapePlateau }), manyLowRows(20),
			[]string{"(132 KiB at 92%, 136 KiB at 92%,", "160 KiB at 92% and 12 more: below it, but within noise)"}, []string{"164 KiB"}},
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

func TestCompareErrors(t *testing.T) {
	if err := Compare(io.Discard, nil); err == nil {
		t.Error("Compare with no reports: no error")
	}
	if err := Compare(io.Discard, []report.Run{{Name: "x.json", Report: nil}}); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("Compare with a nil report: error = %v, want it to name x.json", err)
	}
}
