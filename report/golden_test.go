package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/golden"
)

// appFormats are the app renderers, which stay in this package, with
// their golden files here, until they move to report/render.
var appFormats = map[string]AppReporter{"text": AppText, "json": AppJSON, "markdown": AppMarkdown}

// TestAppGolden renders the app report in every app format against
// testdata/app-<format>.golden.
func TestAppGolden(t *testing.T) {
	for name, format := range appFormats {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := format(&b, appReport(t)); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "report", filepath.Join("testdata", "app-"+name+".golden"), b.Bytes())
		})
	}
}

// Every golden file here is one TestAppGolden checks.
func TestNoStrayGoldenFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name, isApp := strings.CutPrefix(strings.TrimSuffix(filepath.Base(f), ".golden"), "app-")
		if _, ok := appFormats[name]; !isApp || !ok {
			t.Errorf("%s is checked by no test; remove it", f)
		}
	}
}
