package render

import (
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/verdict"
)

// compareRuns are n reports of rows write sizes each, a saturating curve
// of three runs a size, with their knees.
func compareRuns(n, rows int) []report.Run {
	runs := make([]report.Run, n)
	for i := range runs {
		rep := &report.Report{Config: report.Config{Settings: record.Settings{Mode: record.ModeWrite}, KneeFraction: knee.DefaultFraction}}
		for j := range rows {
			size := int64(1024 * (j + 1))
			y := 1000 * (1 - math.Exp(-float64(size)/float64(64*rows))) * (1 + 0.1*float64(i))
			row := record.SizeResult{Mode: record.ModeWrite, WriteSize: size, MiBPerSec: y}
			for r := range 3 {
				row.Samples = append(row.Samples, record.Sample{Run: record.Run{Mode: record.ModeWrite, WriteSize: size, Round: r + 1},
					Seconds: 1, Bytes: int64(y * (1 + 0.01*float64(r-1)) * record.MiB)})
			}
			rep.Results = append(rep.Results, row)
		}
		rep.Knee = knee.EstimateKnee(verdict.Runs(rep.Results, record.ModeWrite), knee.DefaultFraction)
		runs[i] = report.Run{Name: fmt.Sprintf("r%d.json", i), Report: rep}
	}
	return runs
}

// BenchmarkCompare: the table grows with the rows, not with their square.
func BenchmarkCompare(b *testing.B) {
	for _, rows := range []int{20000, 200000} {
		runs := compareRuns(2, rows)
		for _, f := range []struct {
			name string
			runs RunsReporter
		}{{"text", Compare}, {"markdown", CompareMarkdown}} {
			b.Run(fmt.Sprintf("%s-%d", f.name, rows), func(b *testing.B) {
				for b.Loop() {
					if err := f.runs(io.Discard, runs); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
