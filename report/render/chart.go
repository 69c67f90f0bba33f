package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/units"
)

// chartRows is the height of the terminal chart: each row is a tenth of
// the highest median.
const chartRows = 10

// chart draws the median curve as columns of '#', one per size from the
// smallest to the largest, so the shape shows wherever the text report is
// pasted. It is ASCII rather than block characters because plain-text bug
// trackers and some terminals mangle those. The lines carry no trailing
// blanks.
func chart(rows []record.SizeResult, k knee.Result) []string {
	top := 0.0
	for _, r := range rows {
		top = max(top, r.MiBPerSec)
	}
	if top <= 0 || len(rows) == 0 {
		return []string{"(no throughput to chart)"}
	}
	labels := map[int]string{chartRows: fmt.Sprintf("%.0f", top), chartRows / 2: fmt.Sprintf("%.0f", top/2)}
	width := len(labels[chartRows])
	lines := []string{"MiB/s"}
	for level := chartRows; level >= 1; level-- {
		lines = append(lines, fmt.Sprintf("%*s |%s", width, labels[level], chartRow(rows, top, level)))
	}
	lines = append(lines, fmt.Sprintf("%*s +%s", width, "0", strings.Repeat("--", len(rows))))
	if i := kneeColumn(rows, k); i >= 0 {
		lines = append(lines, fmt.Sprintf("%*s   %s^ knee (%s)", width, "", strings.Repeat("  ", i), units.FormatSize(k.WriteSize)))
	}
	lines = append(lines, fmt.Sprintf("%*s  one column per size, %s to %s", width, "",
		sizeName(rows[0].WriteSize), sizeName(rows[len(rows)-1].WriteSize)))
	return lines
}

// chartRow is one row of the chart: '#' where a column reaches level, and
// '.' on the bottom row for a size too slow to fill a cell, so that no
// measured size looks missing.
func chartRow(rows []record.SizeResult, top float64, level int) string {
	var b strings.Builder
	for _, r := range rows {
		h := int(math.Round(r.MiBPerSec / top * chartRows))
		c := " "
		switch {
		case h >= level:
			c = "#"
		case level == 1 && r.MiBPerSec > 0:
			c = "."
		}
		b.WriteString(" " + c)
	}
	return strings.TrimRight(b.String(), " ")
}

func kneeColumn(rows []record.SizeResult, k knee.Result) int {
	if !KneeShown(k) {
		return -1
	}
	for i, r := range rows {
		if r.WriteSize == k.WriteSize {
			return i
		}
	}
	return -1
}
