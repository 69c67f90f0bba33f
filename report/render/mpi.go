package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
)

// maxHostsShown keeps a many-node host list to one readable line.
const maxHostsShown = 8

// mpiLine describes the job layout in one line.
func mpiLine(m *report.MPI) string {
	hosts := m.Hosts
	more := ""
	if len(hosts) > maxHostsShown {
		more = fmt.Sprintf(", ... (%d more)", len(hosts)-maxHostsShown)
		hosts = hosts[:maxHostsShown]
	}
	layout := "one file per rank"
	if m.SharedFile {
		layout = "one shared file, disjoint segments"
	}
	split := "--count/--size split across ranks"
	if m.CountPerRank {
		split = "--count/--size per rank"
	}
	return fmt.Sprintf("%d ranks on %d nodes (%s%s); %s; %s; results are aggregates: all ranks' bytes over the span from the first start to the last end",
		m.Ranks, m.Nodes, strings.Join(hosts, ", "), more, layout, split)
}

// spreadSummary is one size's spread across writers (ranks or jobs),
// each figure the median over rounds, and the writer that was slowest
// most often.
type spreadSummary struct {
	size                int64
	aggregate           float64
	min, median, max    float64
	slowest, slowRounds int
	rounds              int
}

// spreadSummaries matches the spreads to the rows of one direction by
// mode and size; sizes without a spread are left out.
func spreadSummaries(spreads []report.WriterRun, rows []record.SizeResult) []spreadSummary {
	var out []spreadSummary
	for _, row := range rows {
		var runs []report.WriterRun
		for _, rr := range spreads {
			if rr.Mode == string(row.Mode) && rr.WriteSize == row.WriteSize && rr.Variant == row.Variant {
				runs = append(runs, rr)
			}
		}
		if len(runs) > 0 {
			out = append(out, summarizeSpread(row, runs))
		}
	}
	return out
}

func summarizeSpread(row record.SizeResult, runs []report.WriterRun) spreadSummary {
	field := func(get func(report.WriterRun) float64) float64 {
		xs := make([]float64, len(runs))
		for i, r := range runs {
			xs[i] = get(r)
		}
		return knee.Median(xs)
	}
	s := spreadSummary{
		size: row.WriteSize, aggregate: row.MiBPerSec, rounds: len(runs),
		min:    field(func(r report.WriterRun) float64 { return r.MinMiBPerSec }),
		median: field(func(r report.WriterRun) float64 { return r.MedianMiBPerSec }),
		max:    field(func(r report.WriterRun) float64 { return r.MaxMiBPerSec }),
	}
	s.slowest, s.slowRounds = mostOften(runs)
	return s
}

// mostOften is the writer slowest in the most rounds (the lowest such
// writer on ties): one bad node shows up in every round, noise does not.
func mostOften(runs []report.WriterRun) (writer, count int) {
	counts := map[int]int{}
	for _, r := range runs {
		counts[r.Slowest]++
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if counts[k] > count {
			writer, count = k, counts[k]
		}
	}
	return writer, count
}

func rankHead() []string {
	return []string{"size", "bytes", "aggregate MiB/s", "rank min", "rank median", "rank max", "slowest rank"}
}

func (s spreadSummary) cells() []string {
	return []string{
		sizeName(s.size), itoa(s.size), fmt.Sprintf("%.1f", s.aggregate),
		fmt.Sprintf("%.1f", s.min), fmt.Sprintf("%.1f", s.median), fmt.Sprintf("%.1f", s.max),
		fmt.Sprintf("%d (%d of %d rounds)", s.slowest, s.slowRounds, s.rounds),
	}
}

const rankCaption = "per rank (MiB/s of single ranks, median over rounds):"

func (p *printer) textRanks(r *report.Report, rows []record.SizeResult) {
	p.textSpread(rankCaption, rankHead(), spreadSummaries(r.MPI.PerRank, rows))
}

// mpiPairs are the header lines of a sweep under MPI, label and text:
// the job, how the data moved through MPI-IO, and how the read runs kept
// a cache from serving them: all known before the first run. The hints in
// effect are a result, shown after the measurements (hintsLine).
func mpiPairs(r *report.Report) [][2]string {
	if r.MPI == nil {
		return nil
	}
	pairs := [][2]string{{"mpi", mpiLine(r.MPI)}}
	if m := r.MPI.MPIIO; m != nil {
		pairs = append(pairs, [2]string{"mpi-io", mpiioLine(m)})
	}
	if r.Config.Mode != record.ModeWrite {
		pairs = append(pairs, [2]string{"reads", readsLine(r)})
	}
	return pairs
}

// mpiioLine says how the data moved through MPI-IO.
func mpiioLine(m *report.MPIIO) string {
	calls := "MPI_File_write_at and MPI_File_read_at (independent)"
	if m.Collective {
		calls = "MPI_File_write_at_all and MPI_File_read_at_all (collective)"
	}
	line := calls + ", files opened on " + m.Comm
	if m.Library != "" {
		line += "; " + m.Library
	}
	return line
}

// hintsLine is the hints requested and those in effect.
func hintsLine(m *report.MPIIO) string {
	req := make([]string, len(m.HintsRequested))
	for i, h := range m.HintsRequested {
		req[i] = h.String() + " (" + h.Source + ")"
	}
	line := "requested " + orNone(req)
	if m.HintsInEffect == nil {
		return line + "; in effect: unknown (no data file opened)"
	}
	got := make([]string, len(m.HintsInEffect))
	for i, h := range m.HintsInEffect {
		got[i] = h.String()
	}
	line += "; in effect per MPI_File_get_info: " + orNone(got)
	if len(m.HintsNotInEffect) > 0 {
		line += "; NOT in effect as requested: " + strings.Join(m.HintsNotInEffect, ", ")
	}
	if m.HintsEchoed {
		line += " (echoed as given: proves nothing)"
	}
	return line
}

func orNone(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ", ")
}

// readsLine says how read runs under MPI keep a cache from serving them.
func readsLine(r *report.Report) string {
	drop := "cached pages dropped before each read run (" + string(r.Config.Drop) + ")"
	m := r.MPI
	if m.ReadShift == 0 || m.ReadShift%max(m.Ranks, 1) == 0 {
		return "each rank reads the file it wrote; " + drop
	}
	return fmt.Sprintf("rank r reads the file of rank (r+%d) mod %d (--read-shift %d), written by another rank, so its own client cached none of it; also %s",
		m.ReadShift, m.Ranks, m.ReadShift, drop)
}
