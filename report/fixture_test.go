package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/iobench/iobench/iobench"
)

// The app tests (app_test.go) are in this package until the app renderers
// move to report/render, and a package's own tests cannot import
// report/internal/fixture, which imports it. So they take the ext4 curve
// as `iobench app --curve ext4.json` does: from the sweep's JSON, which
// render's golden test keeps equal to fixture.Ext4, summarized again.

// fixtureStart is fixture.Start.
var fixtureStart = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fixedReport is fixture.Ext4, read back from its JSON.
func fixedReport() *Report {
	b, err := os.ReadFile(filepath.Join("render", "testdata", "sweep-json.golden"))
	if err != nil {
		panic(err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		panic(err)
	}
	res := &iobench.Result{WarmupRan: r.WarmupRan, KeptFile: r.KeptFile}
	for _, row := range r.Results {
		res.Samples = append(res.Samples, row.Samples...)
	}
	r.SetResult(res) // gives back what JSON leaves out: the apply rows' comments
	return &r
}
