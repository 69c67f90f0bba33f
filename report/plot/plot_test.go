package plot

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/testkit/golden"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

// fixture reads testdata/<name>.json, an ext4, gpfs or MPI sweep as
// render.JSON wrote the fixtures of report/internal/fixture.
func fixture(t *testing.T, name string) report.Run {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return report.Run{Name: name + ".json", Report: &r}
}

func fixtures(t *testing.T, names ...string) []report.Run {
	var runs []report.Run
	for _, n := range names {
		runs = append(runs, fixture(t, n))
	}
	return runs
}

// TestGolden draws every plot format of render's registry against
// testdata/plot-<format>.golden, so a new plot format fails here until
// Lookup writes it and its golden file exists (-update).
func TestGolden(t *testing.T) {
	runs := fixtures(t, "ext4", "gpfs", "mpi")
	for _, f := range render.Formats(report.CmdPlot) {
		t.Run(f.Name, func(t *testing.T) {
			write, err := Lookup(f.Name)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := write(&b, runs); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "report/plot", filepath.Join("testdata", "plot-"+f.Name+".golden"), b.Bytes())
		})
	}
}

// svgTexts returns the text of every <text> element of an SVG document.
func svgTexts(t *testing.T, svg []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return texts
		}
		if err != nil {
			t.Fatalf("the SVG does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
			if inText {
				texts = append(texts, "")
			}
		case xml.CharData:
			if inText {
				texts[len(texts)-1] += string(tok)
			}
		case xml.EndElement:
			inText = false
		}
	}
}

func TestPlotSVG(t *testing.T) {
	runs := fixtures(t, "ext4", "gpfs", "mpi")
	var b bytes.Buffer
	if err := SVG(&b, runs); err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, b.Bytes())
	want := []string{
		// legend: one entry per report and direction, named by settings
		"ext4 native (ext4.json), write", "gpfs big-endian fsync, write",
		"ext4 native (mpi.json), write", "ext4 native (mpi.json), read", "knee (plateau rule)",
		// size ticks, log2, in binary units
		"1 KiB", "4 KiB", "1 MiB", "64 MiB",
		// knees and block sizes
		"knee 2 MiB", "knee 256 KiB", "f_bsize 4 KiB (ext4)", "f_bsize 16 MiB (gpfs)",
		// axes
		"write size (bytes per write(2))", "throughput (MiB/s, 2^20 B/s)",
	}
	for _, w := range want {
		if !slices.Contains(texts, w) {
			t.Errorf("the SVG has no text %q; it has:\n%s", w, strings.Join(texts, "\n"))
		}
	}
	// gpfs is still rising: no knee label for it.
	for _, txt := range texts {
		if strings.HasPrefix(txt, "knee ") && txt != "knee 2 MiB" && txt != "knee 256 KiB" && txt != "knee (plateau rule)" {
			t.Errorf("unexpected knee label %q", txt)
		}
	}
}

func TestPlotPNG(t *testing.T) {
	var b bytes.Buffer
	if err := PNG(&b, fixtures(t, "ext4")); err != nil {
		t.Fatal(err)
	}
	img, format, err := image.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := image.Rect(0, 0, 8*DPI, 5*DPI)
	if format != "png" || img.Bounds() != want {
		t.Errorf("decoded a %s of %v, want a png of %v", format, img.Bounds(), want)
	}
}

func TestPlotErrors(t *testing.T) {
	_, err := Lookup("pdf")
	var unknown *render.UnknownFormatError
	if !errors.As(err, &unknown) || unknown.Format != "pdf" || !slices.Equal(unknown.Valid, render.Names(report.CmdPlot)) {
		t.Errorf(`Lookup("pdf") error = %#v, want an *render.UnknownFormatError listing the plot formats`, err)
	}
	if err := SVG(io.Discard, nil); err == nil {
		t.Error("SVG with no reports: no error")
	}
	empty := fixture(t, "ext4")
	empty.Report.Results = nil
	if err := SVG(io.Discard, []report.Run{empty}); err == nil {
		t.Error("SVG of a report without results: no error")
	}
}

var errFull = errors.New("disk full")

// failWriter accepts budget bytes, then fails every write.
type failWriter struct{ budget int }

func (w *failWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.budget)
	w.budget -= n
	if n < len(p) {
		return n, errFull
	}
	return n, nil
}

// Every plot format returns a failed write, first byte or middle.
func TestWriteErrors(t *testing.T) {
	runs := fixtures(t, "ext4")
	for _, name := range render.Names(report.CmdPlot) {
		write, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var full bytes.Buffer
		if err := write(&full, runs); err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int{0, full.Len() / 2, full.Len() - 1} {
			if err := write(&failWriter{budget: budget}, runs); !errors.Is(err, errFull) {
				t.Errorf("%s, failing after %d bytes: error = %v, want %v", name, budget, err, errFull)
			}
		}
	}
}

// Knees at the same size (here two identical reports) get their labels on
// separate lines, not printed over each other.
func TestKneeLabelsDoNotOverlap(t *testing.T) {
	var b bytes.Buffer
	if err := SVG(&b, []report.Run{{Name: "a.json", Report: fixture(t, "ext4").Report}, {Name: "b.json", Report: fixture(t, "ext4").Report}}); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&b)
	var places []string
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "text" {
			var text string
			if next, err := dec.Token(); err == nil {
				if cd, ok := next.(xml.CharData); ok {
					text = string(cd)
				}
			}
			if strings.HasPrefix(text, "knee ") && !strings.HasPrefix(text, "knee (") { // not the legend
				places = append(places, attrs(el, "x", "y", "transform"))
			}
		}
	}
	if len(places) != 2 || places[0] == places[1] {
		t.Errorf("knee labels at %q: want two, at different places", places)
	}
}

// attrs is the named attributes of an element, in one string.
func attrs(el xml.StartElement, names ...string) string {
	var out []string
	for _, a := range el.Attr {
		if slices.Contains(names, a.Name.Local) {
			out = append(out, a.Name.Local+"="+a.Value)
		}
	}
	return strings.Join(out, " ")
}
