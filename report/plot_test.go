package report

import (
	"bytes"
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
)

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
	runs := []Run{{"ext4.json", fixedReport()}, {"gpfs.json", gpfsReport()}, {"mpi.json", mpiReport()}}
	var b bytes.Buffer
	if err := Plot(&b, "svg", runs); err != nil {
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
	if err := Plot(&b, "png", []Run{{"ext4.json", fixedReport()}}); err != nil {
		t.Fatal(err)
	}
	img, format, err := image.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := image.Rect(0, 0, 8*PlotDPI, 5*PlotDPI)
	if format != "png" || img.Bounds() != want {
		t.Errorf("decoded a %s of %v, want a png of %v", format, img.Bounds(), want)
	}
}

func TestPlotErrors(t *testing.T) {
	runs := []Run{{"ext4.json", fixedReport()}}
	if err := Plot(io.Discard, "pdf", runs); !errors.Is(err, ErrUnknownPlotFormat) || !strings.Contains(err.Error(), `"pdf"`) {
		t.Errorf(`Plot(pdf) error = %v, want ErrUnknownPlotFormat quoting "pdf"`, err)
	}
	if err := Plot(io.Discard, "svg", nil); err == nil {
		t.Error("Plot with no reports: no error")
	}
	empty := fixedReport()
	empty.Results = nil
	if err := Plot(io.Discard, "svg", []Run{{"empty.json", empty}}); err == nil {
		t.Error("Plot of a report without results: no error")
	}
}

func TestPlotFile(t *testing.T) {
	dir := t.TempDir()
	runs := []Run{{"ext4.json", fixedReport()}}
	for _, name := range []string{"curves.svg", "curves.PNG"} {
		path := filepath.Join(dir, name)
		if err := PlotFile(path, "", runs); err != nil {
			t.Fatalf("PlotFile(%s): %v", name, err)
		}
		if err := PlotFile(path, "", runs); err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("PlotFile(%s) again: error = %v, want a refusal to overwrite", name, err)
		}
	}
	err := PlotFile(filepath.Join(dir, "curves.pdf"), "", runs)
	if !errors.Is(err, ErrUnknownPlotFormat) || !strings.Contains(err.Error(), "--output") || !strings.Contains(err.Error(), "curves.pdf") {
		t.Errorf("PlotFile(curves.pdf) error = %v, want ErrUnknownPlotFormat naming --output and the file", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files in the directory, want the 2 plots and no temporary files", len(entries))
	}
}

// Knees at the same size (here two identical reports) get their labels on
// separate lines, not printed over each other.
func TestKneeLabelsDoNotOverlap(t *testing.T) {
	var b bytes.Buffer
	if err := Plot(&b, "svg", []Run{{"a.json", fixedReport()}, {"b.json", fixedReport()}}); err != nil {
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
