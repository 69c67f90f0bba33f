package render

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
	"github.com/iobench/iobench/units"
)

// printer is a page with the renderers' own methods.
type printer struct{ page.Page }

// sizeName is a write size for people: exact binary units when the size is
// a whole number of them ("64 KiB", as units.FormatSize writes in its
// sentences), else rounded ("7.8 KiB"); tables carry the exact bytes too.
func sizeName(n int64) string {
	if n > 0 && n%1024 != 0 {
		if n < 1024 {
			return fmt.Sprintf("%d B", n)
		}
		return humanize.IBytes(uint64(n))
	}
	return units.FormatSize(n)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', 9, 64) }

// plateauShare is a row's median as a share of the knee's plateau, 0 when
// there is no plateau to compare with.
func plateauShare(row record.SizeResult, k knee.Result) float64 {
	if k.PlateauMiBPerSec <= 0 {
		return 0
	}
	return row.MiBPerSec / k.PlateauMiBPerSec
}

// columns decides which table columns a report needs, for the text and
// Markdown tables alike.
type columns struct {
	elemSize int64 // > 0: an elements column (the gfortran profile)
	repeated bool  // min-max and CV make sense
	runs     bool  // sizes ran different numbers of times (adaptive rounds)
	convert  bool  // the in-memory pack speed was measured
}

func tableColumns(r *report.Report, rows []record.SizeResult) columns {
	c := columns{repeated: r.Config.Repeat > 1, runs: unevenRuns(rows), convert: hasConvert(rows)}
	if elementsColumn(r.Config) {
		c.elemSize = r.Config.ElementSize
	}
	return c
}

func unevenRuns(rows []record.SizeResult) bool {
	for _, r := range rows {
		if len(r.Samples) != len(rows[0].Samples) {
			return true
		}
	}
	return false
}

func hasConvert(rows []record.SizeResult) bool {
	for _, r := range rows {
		if r.ConvertMiBPerSec > 0 {
			return true
		}
	}
	return false
}

func (c columns) head() []string {
	h := []string{"size", "bytes"}
	if c.elemSize > 0 {
		h = append(h, "elements")
	}
	h = append(h, "MiB/s")
	if c.runs {
		h = append(h, "runs")
	}
	if c.repeated {
		h = append(h, "min-max MiB/s", "CV")
	}
	h = append(h, "calls", "µs/call", "calls/s", "% plateau")
	if c.convert {
		h = append(h, "pack MiB/s")
	}
	return h
}

func (c columns) cells(row record.SizeResult, k knee.Result) []string {
	cells := []string{sizeName(row.WriteSize), itoa(row.WriteSize)}
	if c.elemSize > 0 {
		cells = append(cells, itoa(row.WriteSize/c.elemSize))
	}
	cells = append(cells, fmt.Sprintf("%.1f", row.MiBPerSec))
	if c.runs {
		cells = append(cells, strconv.Itoa(len(row.Samples)))
	}
	switch {
	case c.repeated && len(row.Samples) < 2:
		cells = append(cells, "-", "-") // one run has no spread
	case c.repeated:
		cv := fmt.Sprintf("%.1f%%", 100*row.CV)
		if row.WideSpread {
			cv += " !"
		}
		cells = append(cells, fmt.Sprintf("%.1f-%.1f", row.MinMiBPerSec, row.MaxMiBPerSec), cv)
	}
	us := callMicros(row)
	share := "-" // no plateau (fewer than 3 sizes): no share to show
	if k.PlateauMiBPerSec > 0 {
		share = sharePct(plateauShare(row, k), k.Fraction)
	}
	cells = append(cells, itoa(row.WriteCalls), fmt.Sprintf("%.2f", us), fmt.Sprintf("%.0f", 1e6/us), share)
	if c.convert {
		cells = append(cells, fmt.Sprintf("%.0f", row.ConvertMiBPerSec))
	}
	return cells
}

// callMicros is the time of one call of the row's size at its median
// throughput, in µs: what a runtime developer weighs a buffer against.
func callMicros(row record.SizeResult) float64 {
	if row.MiBPerSec <= 0 {
		return math.Inf(1)
	}
	return float64(row.WriteSize) / (row.MiBPerSec * record.MiB) * 1e6
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K { return slices.Sorted(maps.Keys(m)) }

// tabulate right-aligns the tab-terminated cells of lines, as every text
// table is, and trims the blanks tabwriter leaves at line ends.
func tabulate(lines []string) string {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, l := range lines {
		fmt.Fprintln(tw, l)
	}
	tw.Flush() // into a bytes.Buffer: cannot fail
	out := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(out, "\n") + "\n"
}
