package render

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
	"github.com/iobench/iobench/units"
	"github.com/iobench/iobench/verdict"
)

// applyHeader introduces the block: what the values come from and
// whether they were measured, and where the reasons are; "" when there is
// no block and nothing to say about it.
func applyHeader(r *report.Report, reasons string) string {
	rec := r.Recommendation
	if rec == nil || !r.Verdict.Advice {
		return ""
	}
	if len(rec.Apply) == 0 {
		if !rec.Applicable() || len(r.ApplyFor) == 0 || r.Config.PrimaryMode() != record.ModeWrite {
			return ""
		}
		return fmt.Sprintf("how to apply it: nothing for %s on this file system (%s)", strings.Join(r.ApplyFor, ", "), cmp.Or(r.FS.Type, "type unknown"))
	}
	measured := 0
	for _, a := range rec.Apply {
		if a.Measured {
			measured++
		}
	}
	how := "every value inferred from write(2) calls, none measured through the runtime itself"
	if measured > 0 {
		how = "measured through the runtime where marked, the others inferred from write(2) calls"
	}
	if !rec.KneeEstablished {
		sure := "the knee is not established, so these are provisional; "
		if w := r.Verdict.Writes; w != nil && w.RecommendedFrom == verdict.FromSafe {
			sure = "the knee is not established; "
		}
		how = sure + how
	}
	if w := r.Verdict.Writes; w != nil && w.RecommendedFrom == verdict.FromSafe {
		return fmt.Sprintf("how to apply it, from %s, the smallest size measured not worse than the plateau (%s; %s):", units.FormatSize(w.Recommended), how, reasons)
	}
	return fmt.Sprintf("how to apply it, from the %s knee (%s; %s):", units.FormatSize(rec.BufferSize), how, reasons)
}

func (p *printer) textApply(r *report.Report) {
	head := applyHeader(r, "the JSON and Markdown reports say why each")
	if head == "" {
		return
	}
	p.F("\n%s\n", head)
	if len(r.Recommendation.Apply) > 0 {
		p.keep(shellLines(page.ApplyLines(r.Recommendation.Apply, r.FS.ResolvedDir), textWidth))
	}
	if r.Verified != nil || r.KeptFile != "" || len(r.LeftFiles) > 0 || len(r.AllWarnings()) > 0 || r.Incomplete {
		p.F("\n") // the block ends before the lines that follow it
	}
}

func (p *printer) mdApply(r *report.Report) {
	head := applyHeader(r, "why, below")
	if head == "" {
		return
	}
	p.F("\n%s\n", page.Sentence(head))
	as := r.Recommendation.Apply
	if len(as) == 0 {
		return
	}
	p.F("\n")
	p.Fenced("sh", page.ApplyLines(as, r.FS.ResolvedDir))
	p.F("\n")
	p.ApplyNotes(as)
}

// shellLines fits shell lines to width without breaking a command: the
// comment of a line too long goes on comment lines of its own above it.
func shellLines(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		code, comment, ok := strings.Cut(l, "  # ")
		if len(l) <= width || !ok || strings.HasPrefix(code, "#") {
			out = append(out, l)
			continue
		}
		out = append(out, wrap("# "+comment, width, "# ")...)
		out = append(out, strings.TrimRight(code, " "))
	}
	return out
}
