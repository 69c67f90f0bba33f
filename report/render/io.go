package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
)

// What the text and Markdown reports say about how the runs did their
// I/O: the data pattern, the flush and open flags, the runs a time limit
// cut short, and the per-call latency.

// dataWords names the data pattern: "ramp (element i holds i)".
func dataWords(c report.Config) string {
	switch record.DataPattern(c.Data) {
	case record.DataRandom:
		return fmt.Sprintf("random (incompressible; seed %d)", c.Seed)
	case record.DataZero:
		return "zero (all bytes 0)"
	case record.DataRamp:
		return "ramp (element i holds i)"
	}
	return c.Data
}

// writeTimingWords is what write runs do besides write(2), in the
// timing line: the flush, synchronous opens, preallocation, overwrite.
func writeTimingWords(c report.Config) []string {
	flush := c.Flush
	if flush == "" { // results of versions before --flush
		flush = map[bool]string{true: "fsync", false: "none"}[c.Fsync]
	}
	var parts []string
	if flush == string(record.FlushNone) {
		parts = append(parts, "no fsync")
	} else {
		parts = append(parts, flush+" inside the timing")
	}
	switch record.OpenSync(c.OpenSync) {
	case record.OpenDSync:
		parts = append(parts, "opened with O_DSYNC")
	case record.OpenSyncAll:
		parts = append(parts, "opened with O_SYNC")
	}
	switch {
	case c.Overwrite && c.Preallocate:
		parts = append(parts, "every run overwrites one file, fallocated and written in full before the first run")
	case c.Overwrite:
		parts = append(parts, "every run overwrites one file, written in full before the first run")
	case c.Preallocate:
		parts = append(parts, "each file fallocated to its full size before its run (untimed)")
	}
	return parts
}

// runBytes is what each run (an aggregate under MPI or --jobs) asks to
// move; 0 when a report does not say.
func runBytes(r *report.Report) int64 {
	all := r.Config.TotalBytes // one writer's
	if m := r.MPI; m != nil {
		all = m.RunBytes // 0 in an older report
		if all == 0 && m.CountPerRank {
			all = r.Config.TotalBytes * int64(m.Ranks)
		}
	}
	if r.Jobs != nil {
		all *= int64(r.Jobs.Jobs) // each job writes TotalBytes
	}
	return all
}

// TimeLimitLine says which sizes the time limit cut short and how much
// data their runs moved of the asked bytes per run (0: unknown); "" when
// it cut none.
func TimeLimitLine(c report.Config, asked int64, rows []record.SizeResult) string {
	var cut []string
	for _, row := range rows {
		if row.TimeLimitedRuns == 0 {
			continue
		}
		lo, hi := int64(math.MaxInt64), int64(0)
		for _, s := range row.Samples {
			if s.TimeLimited {
				lo, hi = min(lo, s.Bytes), max(hi, s.Bytes)
			}
		}
		moved := humanize.IBytes(uint64(lo))
		if hi != lo {
			moved += "-" + humanize.IBytes(uint64(hi))
		}
		of := ""
		if asked > 0 {
			of = " of " + humanize.IBytes(uint64(asked))
		}
		cut = append(cut, fmt.Sprintf("%s (%d of %d runs, which moved %s%s)", sizeName(row.WriteSize), row.TimeLimitedRuns, len(row.Samples), moved, of))
	}
	if len(cut) == 0 {
		return ""
	}
	limit := ""
	if c.TimeLimit > 0 {
		limit = " " + formatSeconds(c.TimeLimit)
	}
	return fmt.Sprintf("time limit%s cut runs short at %s; MiB/s is the data each moved over its time", limit, strings.Join(cut, ", "))
}

// latencyHead and latencyCells are the latency table, one row per size.
func latencyHead() []string {
	return []string{"size", "p50 µs", "p90 µs", "p99 µs", "max µs", "max ≤ µs", "calls timed"}
}

func latencyCells(row record.SizeResult) []string {
	l := row.Latency
	timed := fmt.Sprintf("%d of %d", l.TimedCalls, l.Calls)
	bound := "-" // results of a version that did not bound it
	if l.MaxBound > 0 {
		bound = micros(l.MaxBound)
	}
	return []string{sizeName(row.WriteSize), micros(l.P50), micros(l.P90), micros(l.P99), micros(l.Max), bound, timed}
}

// micros writes µs with three significant digits, at least one decimal.
func micros(us float64) string {
	switch {
	case us >= 1000:
		return fmt.Sprintf("%.0f", us)
	case us >= 100:
		return fmt.Sprintf("%.1f", us)
	case us >= 10:
		return fmt.Sprintf("%.2f", us)
	}
	return fmt.Sprintf("%.3f", us)
}

// latencyRows are the rows that measured latency.
func latencyRows(rows []record.SizeResult) []record.SizeResult {
	var out []record.SizeResult
	for _, r := range rows {
		if r.Latency != nil {
			out = append(out, r)
		}
	}
	return out
}

// latencyCaption heads the latency table.
func latencyCaption(c report.Config, rows []record.SizeResult) string {
	call := "write(2)"
	if rows[0].Mode == record.ModeRead {
		call = "read(2)"
	}
	clock := ""
	if ns := 1e3 * rows[0].Latency.Clock / 2; ns > 0 { // Clock is two reads; a figure holds about one
		clock = fmt.Sprintf("; each figure includes about one clock read, %.0f ns", ns)
	}
	if c.LatencyAll {
		return fmt.Sprintf("latency per %s call, µs (every call timed, so max is the slowest call%s)", call, clock)
	}
	return fmt.Sprintf("latency per %s call, µs (quantiles of a random sample of the calls, as many as keep the clock's cost near %.1f%% of each run%s; "+
		"max is the slowest call timed, and no call took longer than max ≤, the longest stretch of untimed calls with the work between them; --latency-all times every call)",
		call, 100*record.LatencyOverhead, clock)
}

func (p *printer) textIO(r *report.Report, rows []record.SizeResult) {
	if line := TimeLimitLine(r.Config, runBytes(r), rows); line != "" {
		p.F("%s\n", line)
	}
	lat := latencyRows(rows)
	if len(lat) == 0 {
		return
	}
	p.F("\n%s:\n", latencyCaption(r.Config, lat))
	lines := []string{strings.Join(latencyHead(), "\t") + "\t"}
	for _, row := range lat {
		lines = append(lines, strings.Join(latencyCells(row), "\t")+"\t")
	}
	p.table(lines)
}

func (p *printer) mdIO(r *report.Report, rows []record.SizeResult) {
	if line := TimeLimitLine(r.Config, runBytes(r), rows); line != "" {
		p.F("\n%s.\n", page.Sentence(line))
	}
	lat := latencyRows(rows)
	if len(lat) == 0 {
		return
	}
	p.F("\n%s:\n\n", page.Sentence(latencyCaption(r.Config, lat)))
	var body [][]string
	for _, row := range lat {
		body = append(body, latencyCells(row))
	}
	p.mdTable(latencyHead(), body)
}
