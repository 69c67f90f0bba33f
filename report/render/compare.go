package render

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/verdict"
)

// Compare writes a side-by-side table of several reports: one row per
// write size, a column of median MiB/s per report and, for each report
// after the first, its ratio to the first. Then each report's knee, and
// the settings in which the reports differ, since a comparison across
// different settings measures the settings as much as the file systems.
// A report of an interleaved sweep counts as one report per variant.
func Compare(w io.Writer, runs []report.Run) error { return compare(w, runs, textCompare) }

// CompareMarkdown is Compare as Markdown tables, for a bug report.
func CompareMarkdown(w io.Writer, runs []report.Run) error { return compare(w, runs, mdCompare) }

// compareStyle is what the text and the Markdown comparison write
// differently; compare writes the rest once for both.
type compareStyle struct {
	title    string // format of the first line, of the number of reports
	run      string // format of a report's line: label, name, description
	mode     string // format of a mode's heading
	column   string // after the label in the head of a median column
	knee     string // format of a report's knee line: label, knee
	table    func(p *printer, head []string, rows [][]string)
	settings bool // the settings that differ, after the tables
}

var textCompare = compareStyle{
	title: "compare: %d reports\n", run: "  %s  %s: %s\n", mode: "\n%s, median MiB/s:\n", knee: "  %s  %s\n", settings: true,
	table: func(p *printer, head []string, rows [][]string) {
		lines := []string{strings.Join(head, "\t") + "\t"}
		for _, row := range rows {
			lines = append(lines, strings.Join(row, "\t")+"\t")
		}
		p.WriteString(tabulate(lines))
	},
}

var mdCompare = compareStyle{
	title: "## iobench compare: %d reports\n\n", run: "- **%s** `%s`: %s\n", mode: "\n### %s, median MiB/s\n\n", column: " MiB/s", knee: "- **%s** %s\n",
	table: func(p *printer, head []string, rows [][]string) {
		p.F("| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---:|", len(head)))
		for _, row := range rows {
			p.F("| %s |\n", strings.Join(row, " | "))
		}
	},
}

func compare(w io.Writer, runs []report.Run, s compareStyle) error {
	if err := report.CheckRuns(runs); err != nil {
		return err
	}
	runs = report.ExpandVariants(runs)
	var p printer
	p.F(s.title, len(runs))
	for i, run := range runs {
		p.F(s.run, runLabel(i), run.Name, runDescription(run.Report))
	}
	for _, mode := range []record.Mode{record.ModeWrite, record.ModeRead} {
		p.compareMode(runs, mode, s)
	}
	if s.settings {
		p.compareConfig(runs)
	}
	return p.FlushTo(w)
}

// runLabel names the i-th report in tables: A, B, ..., Z, then R27, ...
func runLabel(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("R%d", i+1)
}

// runDescription says what a run measured, where and when, leaving out
// what the report does not know.
func runDescription(r *report.Report) string {
	parts := []string{SettingsLabel(r)}
	if r.Host.Hostname != "" {
		parts[0] += " on " + r.Host.Hostname
	}
	if k := strings.TrimSpace(r.Host.Kernel); k != "" {
		parts = append(parts, k)
	}
	if !r.StartTime.IsZero() {
		parts = append(parts, "started "+r.StartTime.UTC().Format("2006-01-02 15:04 UTC"))
	}
	return strings.Join(parts, ", ")
}

func (p *printer) compareMode(runs []report.Run, mode record.Mode, s compareStyle) {
	table := medianRows(runs, mode)
	if len(table) == 0 {
		return
	}
	p.F(s.mode, mode)
	head := []string{"size", "bytes"}
	for i := range runs {
		head = append(head, runLabel(i)+s.column)
	}
	for i := 1; i < len(runs); i++ {
		head = append(head, runLabel(i)+"/"+runLabel(0))
	}
	rows := make([][]string, len(table))
	for i, row := range table {
		rows[i] = compareRow(row)
	}
	s.table(p, head, rows)
	p.F("\n")
	for i, run := range runs {
		if rows := verdict.ModeRows(run.Report.Results, mode); len(rows) > 0 {
			p.F(s.knee, runLabel(i), KneeLine(run.Report.KneeFor(mode), rows))
		}
	}
}

// medianRow is one size's median MiB/s in each report, NaN where a report
// did not measure it.
type medianRow struct {
	size int64
	mib  []float64
}

// compareRow is the table row: the size, each report's median and each
// later report's ratio to the first.
func compareRow(row medianRow) []string {
	cells := []string{sizeName(row.size), itoa(row.size)}
	for _, v := range row.mib {
		cells = append(cells, "-")
		if !math.IsNaN(v) {
			cells[len(cells)-1] = strconv.FormatFloat(v, 'f', 1, 64)
		}
	}
	first := row.mib[0]
	for _, v := range row.mib[1:] {
		if !math.IsNaN(v) && first > 0 {
			cells = append(cells, ratio(v/first))
		} else {
			cells = append(cells, "-")
		}
	}
	return cells
}

// medianRows lines the reports' medians of mode up by size: a row for
// every size any of them measured, ascending. Each report's sizes are
// sorted once and merged, so the table costs what its rows do.
func medianRows(runs []report.Run, mode record.Mode) []medianRow {
	meds := make([][]sizeMedian, len(runs))
	for i, run := range runs {
		meds[i] = mediansOf(run.Report.Results, mode)
	}
	var table []medianRow
	next := make([]int, len(meds)) // each report's first size not yet in the table
	for {
		size, found := int64(math.MaxInt64), false
		for i, m := range meds {
			if next[i] < len(m) && m[next[i]].size <= size {
				size, found = m[next[i]].size, true
			}
		}
		if !found {
			return table
		}
		row := medianRow{size: size, mib: make([]float64, len(meds))}
		for i, m := range meds {
			row.mib[i] = math.NaN()
			if next[i] < len(m) && m[next[i]].size == size {
				row.mib[i] = m[next[i]].mib
				next[i]++
			}
		}
		table = append(table, row)
	}
}

// sizeMedian is a size and its median MiB/s.
type sizeMedian struct {
	size int64
	mib  float64
}

// mediansOf is the median of each size of mode in rows, by size; a size's
// first row counts.
func mediansOf(rows []record.SizeResult, mode record.Mode) []sizeMedian {
	var out []sizeMedian
	for _, row := range rows {
		if row.Mode == mode {
			out = append(out, sizeMedian{row.WriteSize, row.MiBPerSec})
		}
	}
	slices.SortStableFunc(out, func(a, b sizeMedian) int { return cmp.Compare(a.size, b.size) })
	return slices.CompactFunc(out, func(a, b sizeMedian) bool { return a.size == b.size })
}

// configFields are the settings that change what a sweep measures.
var configFields = []struct {
	name string
	get  func(*report.Report) string
}{
	{"fs type", func(r *report.Report) string { return r.FS.Type }},
	{"f_bsize", func(r *report.Report) string { return itoa(r.FS.BlockSize) }},
	{"st_blksize", func(r *report.Report) string { return itoa(r.FS.IOBlockSize) }},
	{"mode", func(r *report.Report) string { return string(r.Config.Mode) }},
	{"convert", func(r *report.Report) string { return r.Config.Convert }},
	{"fsync", func(r *report.Report) string { return fmt.Sprint(r.Config.Fsync) }},
	{"direct", func(r *report.Report) string { return fmt.Sprint(r.Config.Direct) }},
	{"sync", func(r *report.Report) string { return string(r.Config.Sync) }},
	{"source", func(r *report.Report) string { return string(r.Config.Source) }},
	{"element type", func(r *report.Report) string { return r.Config.ElementType }},
	{"stride", func(r *report.Report) string { return fmt.Sprint(r.Config.Stride) }},
	{"count", func(r *report.Report) string { return itoa(r.Config.Count) }},
	{"total bytes", func(r *report.Report) string { return itoa(r.Config.TotalBytes) }},
	{"repeat", func(r *report.Report) string { return fmt.Sprint(r.Config.Repeat) }},
	{"knee fraction", func(r *report.Report) string { return fmt.Sprint(r.Config.KneeFraction) }},
}

// orUnknown shows a fact a report lacks (results of another tool) as such.
func orUnknown(v string) string {
	if v == "" || v == "0" {
		return "unknown"
	}
	return v
}

func (p *printer) compareConfig(runs []report.Run) {
	var lines []string
	for _, f := range configFields {
		vals := make([]string, len(runs))
		differ := false
		for i, run := range runs {
			vals[i] = runLabel(i) + " " + orUnknown(f.get(run.Report))
			differ = differ || f.get(run.Report) != f.get(runs[0].Report)
		}
		if differ {
			lines = append(lines, fmt.Sprintf("  %-14s %s", f.name+":", strings.Join(vals, ", ")))
		}
	}
	if len(lines) == 0 {
		p.F("\nsettings: the same in every report\n")
		return
	}
	p.F("\nsettings differ, so the ratios measure them as well as the file systems:\n%s\n", strings.Join(lines, "\n"))
}

// ratio keeps two significant digits for small ratios, which "%.2f"
// would round to 0.00x or 0.01x.
func ratio(x float64) string {
	if x < 0.1 {
		return fmt.Sprintf("%.3fx", x)
	}
	return fmt.Sprintf("%.2fx", x)
}

// SettingsLabel names a report by what was measured: "ext4 native",
// "gpfs big-endian fsync".
func SettingsLabel(r *report.Report) string {
	c := r.Config
	parts := []string{cmp.Or(r.FS.Type, "unknown fs"), c.Convert}
	if r.Tool.Name != "" && r.Tool.Name != "iobench" {
		parts[0] = r.Tool.Name // results of another program: name it
	}
	if c.Fsync {
		parts = append(parts, "fsync")
	}
	if c.Direct {
		parts = append(parts, "O_DIRECT")
	}
	if c.ElementType != "" && c.ElementType != "float64" {
		parts = append(parts, c.ElementType)
	}
	if c.Stride > 1 {
		parts = append(parts, fmt.Sprintf("stride %d", c.Stride))
	}
	if c.Source != "" && c.Source != record.SourceArray {
		parts = append(parts, string(c.Source))
	}
	parts = append(parts, ioLabel(c)...)
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " ")
}

// ioLabel names the I/O options that change what a run measures, so
// that compare tells runs with them apart.
func ioLabel(c report.Config) []string {
	var parts []string
	if c.Flush != "" && c.Flush != string(record.FlushFsync) && c.Flush != string(record.FlushNone) {
		parts = append(parts, c.Flush)
	}
	if c.OpenSync != "" {
		parts = append(parts, "O_"+strings.ToUpper(string(c.OpenSync)))
	}
	if c.Data != "" && c.Data != string(record.DataRamp) {
		parts = append(parts, c.Data+" data")
	}
	if c.TimeLimit > 0 {
		parts = append(parts, fmt.Sprintf("time limit %gs", c.TimeLimit))
	}
	if c.Preallocate {
		parts = append(parts, "preallocated")
	}
	if c.Overwrite {
		parts = append(parts, "overwrite")
	}
	if c.Jobs > 1 {
		parts = append(parts, fmt.Sprintf("%d jobs", c.Jobs))
	}
	return parts
}
