package render

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/verdict"
)

// sectionTitle heads one direction's table: "write", or with a variant
// "write, convert=big-endian".
func sectionTitle(r *report.Report, mode record.Mode) string {
	if r.Variant == "" {
		return string(mode)
	}
	return string(mode) + ", " + r.Variant
}

// variantsLine lists the variants in the header.
func variantsLine(c report.Config) string {
	names := make([]string, len(c.Variants))
	for i, v := range c.Variants {
		names[i] = v.Name
	}
	return fmt.Sprintf("%s, interleaved in one plan (each round runs every variant at every size, in one %s order); ratios are to %s, the first",
		strings.Join(names, "; "), cmp.Or(c.Order, "ascending"), names[0])
}

// ratioRows are the ratios of one direction, by size and then variant.
func ratioRows(r *report.Report, mode record.Mode) (sizes []int64, at map[int64]map[string]verdict.VariantRatio) {
	at = map[int64]map[string]verdict.VariantRatio{}
	for _, vr := range r.Ratios {
		if vr.Mode != mode {
			continue
		}
		if at[vr.WriteSize] == nil {
			at[vr.WriteSize] = map[string]verdict.VariantRatio{}
		}
		at[vr.WriteSize][vr.Variant] = vr
	}
	return sortedKeys(at), at
}

func ratioHead(r *report.Report) []string {
	head := []string{"size", "bytes"}
	for _, v := range r.Variants[1:] {
		head = append(head, v.Name+" / "+r.Variants[0].Name, "interval", "p")
	}
	return head
}

func ratioCells(r *report.Report, size int64, at map[string]verdict.VariantRatio) []string {
	cells := []string{sizeName(size), itoa(size)}
	for _, v := range r.Variants[1:] {
		vr, ok := at[v.Name]
		if !ok {
			cells = append(cells, "-", "-", "-")
			continue
		}
		cells = append(cells, ratioMark(vr), intervalText(vr), pText(vr))
	}
	return cells
}

func ratioMark(vr verdict.VariantRatio) string {
	s := ratio(vr.Ratio)
	if vr.Differs {
		s += " *"
	}
	return s
}

func intervalText(vr verdict.VariantRatio) string {
	if vr.CIConfidence <= 0 {
		return "- (1 run)"
	}
	return fmt.Sprintf("%s-%s (%.0f%%)", strings.TrimSuffix(ratio(vr.CILow), "x"), ratio(vr.CIHigh), 100*vr.CIConfidence)
}

func pText(vr verdict.VariantRatio) string {
	if vr.CIConfidence <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", vr.P)
}

const ratioNote = "ratio of medians; interval from both medians' confidence intervals (benchmath), at the confidence shown; p: Mann-Whitney U test; * measurably different (p < 0.05, interval excludes 1.00x)"

// ratioVerdicts sum each later variant up in one line: at how many sizes
// it is measurably slower or faster, and the range of its ratios.
func ratioVerdicts(r *report.Report, mode record.Mode) []string {
	var out []string
	for _, v := range r.Variants[1:] {
		var n, slower, faster int
		fewest := math.MaxInt
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, vr := range r.Ratios {
			if vr.Mode != mode || vr.Variant != v.Name || vr.Ratio <= 0 {
				continue
			}
			n++
			fewest = min(fewest, vr.Runs, vr.FirstRuns)
			lo, hi = min(lo, vr.Ratio), max(hi, vr.Ratio)
			switch {
			case vr.Differs && vr.Ratio < 1:
				slower++
			case vr.Differs:
				faster++
			}
		}
		if n == 0 {
			continue
		}
		line := fmt.Sprintf("%s: %s to %s of %s; measurably slower at %d and faster at %d of %d sizes",
			v.Name, ratio(lo), ratio(hi), r.Variants[0].Name, slower, faster, n)
		if p := minUTestP(fewest, fewest); p >= knee.GainAlpha {
			line += fmt.Sprintf(" (with %d runs of each the U test cannot go below p = %.2f: run 4 or more rounds to test the ratios)", fewest, p)
		}
		out = append(out, line)
	}
	return out
}

// minUTestP is the smallest two-sided p-value the Mann-Whitney U test can
// give samples of m and n runs: 2 / C(m+n, n).
func minUTestP(m, n int) float64 {
	if m < 1 || n < 1 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n; i++ {
		c = c * float64(m+i) / float64(i)
	}
	return min(1, 2/c)
}

func (p *printer) textRatios(r *report.Report, mode record.Mode) {
	sizes, at := ratioRows(r, mode)
	if len(sizes) == 0 {
		return
	}
	p.F("\n%s, each variant over %s (%s):\n", mode, r.Variants[0].Name, ratioNote)
	lines := []string{strings.Join(ratioHead(r), "\t") + "\t"}
	for _, size := range sizes {
		lines = append(lines, strings.Join(ratioCells(r, size, at[size]), "\t")+"\t")
	}
	p.table(lines)
	for _, l := range ratioVerdicts(r, mode) {
		p.F("%s\n", l)
	}
}

func (p *printer) mdRatios(r *report.Report, mode record.Mode) {
	sizes, at := ratioRows(r, mode)
	if len(sizes) == 0 {
		return
	}
	p.F("\nRatios, %s, each variant over %s (%s):\n\n", mode, r.Variants[0].Name, ratioNote)
	var body [][]string
	for _, size := range sizes {
		body = append(body, ratioCells(r, size, at[size]))
	}
	p.mdTable(ratioHead(r), body)
	p.F("\n")
	for _, l := range ratioVerdicts(r, mode) {
		p.F("- %s\n", l)
	}
}

// recommendationBasis says which variant a recommendation comes from.
func recommendationBasis(r *report.Report) string {
	if len(r.Variants) < 2 {
		return ""
	}
	return fmt.Sprintf("the recommendation is from the first variant, %s", r.Variants[0].Name)
}
