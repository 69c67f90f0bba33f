package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
)

// maxHostsShown keeps a many-node host list to one readable line.
const maxHostsShown = 8

// mpiLine describes the job layout in one line.
func mpiLine(m *MPI) string {
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

// rankSummary is one size's spread across ranks, each figure the median
// over rounds, and the rank that was slowest most often.
type rankSummary struct {
	size                int64
	aggregate           float64
	min, median, max    float64
	slowest, slowRounds int
	rounds              int
}

// rankSummaries matches MPI.PerRank to the rows of one direction by mode
// and size; sizes with no per-rank data are left out.
func rankSummaries(m *MPI, rows []iobench.SizeResult) []rankSummary {
	var out []rankSummary
	for _, row := range rows {
		var runs []RankRun
		for _, rr := range m.PerRank {
			if rr.Mode == string(row.Mode) && rr.WriteSize == row.WriteSize {
				runs = append(runs, rr)
			}
		}
		if len(runs) > 0 {
			out = append(out, summarizeRanks(row, runs))
		}
	}
	return out
}

func summarizeRanks(row iobench.SizeResult, runs []RankRun) rankSummary {
	field := func(get func(RankRun) float64) float64 {
		xs := make([]float64, len(runs))
		for i, r := range runs {
			xs[i] = get(r)
		}
		return knee.Median(xs)
	}
	s := rankSummary{
		size: row.WriteSize, aggregate: row.MiBPerSec, rounds: len(runs),
		min:    field(func(r RankRun) float64 { return r.MinMiBPerSec }),
		median: field(func(r RankRun) float64 { return r.MedianMiBPerSec }),
		max:    field(func(r RankRun) float64 { return r.MaxMiBPerSec }),
	}
	s.slowest, s.slowRounds = mostOften(runs)
	return s
}

// mostOften is the rank slowest in the most rounds (the lowest such rank
// on ties): one bad node shows up in every round, noise does not.
func mostOften(runs []RankRun) (rank, count int) {
	counts := map[int]int{}
	for _, r := range runs {
		counts[r.SlowestRank]++
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if counts[k] > count {
			rank, count = k, counts[k]
		}
	}
	return rank, count
}

func rankHead() []string {
	return []string{"size", "bytes", "aggregate MiB/s", "rank min", "rank median", "rank max", "slowest rank"}
}

func (s rankSummary) cells() []string {
	return []string{
		sizeName(s.size), itoa(s.size), fmt.Sprintf("%.1f", s.aggregate),
		fmt.Sprintf("%.1f", s.min), fmt.Sprintf("%.1f", s.median), fmt.Sprintf("%.1f", s.max),
		fmt.Sprintf("%d (%d of %d rounds)", s.slowest, s.slowRounds, s.rounds),
	}
}

const rankCaption = "per rank (MiB/s of single ranks, median over rounds):"

func (p *printer) textRanks(r *Report, rows []iobench.SizeResult) {
	sums := rankSummaries(r.MPI, rows)
	if len(sums) == 0 {
		return
	}
	p.f("\n%s\n", rankCaption)
	lines := []string{strings.Join(rankHead(), "\t") + "\t"}
	for _, s := range sums {
		lines = append(lines, strings.Join(s.cells(), "\t")+"\t")
	}
	p.WriteString(tabulate(lines))
}
