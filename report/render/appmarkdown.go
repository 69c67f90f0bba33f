package render

import (
	"cmp"
	"encoding/json"
	"io"
	"slices"
	"strings"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
)

// AppMarkdown is the report for a bug report or a ticket: the verdict,
// what to set with why, then a table of each input's modules and files.
func AppMarkdown(w io.Writer, r *report.AppReport) error {
	var p printer
	p.F("## %s\n", appHeadline(r))
	if len(r.Command) > 0 {
		p.F("\n`%s`\n", page.ShellJoin(r.Command))
	}
	if r.Program != nil {
		p.F("\n")
		for _, l := range programLines(r.Program) {
			p.F("- %s\n", mdEscapePipes(l))
		}
	}
	if r.Estimate == nil {
		p.F("\n%s\n", noCurveWords(r))
	} else {
		p.F("\n### What the writes cost here\n\n")
		for _, l := range verdictLines(r) {
			p.F("- %s\n", page.Sentence(l))
		}
		head, lines := setLines(r)
		p.F("\n### What to set\n\n%s\n", page.Sentence(head))
		if len(lines) > 0 {
			p.F("\n")
			p.Fenced("sh", lines)
			p.F("\n")
			p.ApplyNotes(r.Estimate.Apply)
		}
	}
	for _, in := range r.Inputs {
		if untracedProgram(r) {
			break
		}
		p.mdInput(in)
	}
	for _, w := range r.Warnings {
		p.F("\n**Warning:** %s\n", w)
	}
	return p.FlushTo(w)
}

func (p *printer) mdInput(in report.AppInput) {
	p.F("\n### %s\n\n%s.\n", in.Path, inputWords(in))
	for _, n := range in.Notes {
		p.F("\n- note: %s\n", n)
	}
	if len(in.Modules) == 0 {
		p.F("\nNo POSIX, MPI-IO or STDIO records.\n")
		return
	}
	p.F("\n| module | records | files | writes | bytes written | write time s | write sizes (Darshan's bins) |\n|---|---:|---:|---:|---:|---:|---|\n")
	for _, m := range in.Modules {
		p.F("| %s | %d | %d | %d | %d | %.3f | %s |\n", m.Module, m.Records, m.Files, m.Writes, m.BytesWritten, m.WriteSeconds, histogramWords(m.Histogram))
	}
	if len(in.Files) == 0 {
		return
	}
	files := slices.Clone(in.Files)
	slices.SortStableFunc(files, func(a, b report.AppFile) int { return cmp.Compare(b.BytesWritten, a.BytesWritten) })
	p.F("\n| file | module | mount | writes | bytes | sizes | measured s | here s | at recommended s | gain |\n|---|---|---|---:|---:|---|---:|---:|---:|---|\n")
	for i, f := range files {
		if i == appFilesShown {
			p.F("\n%d more files: the JSON report lists them all.\n", len(files)-appFilesShown)
			break
		}
		here, at, gain := "", "", ""
		if e := f.Estimate; e != nil && e.EstimatedCalls > 0 {
			here, at, gain = secondsWords(e.SecondsNow), secondsWords(e.SecondsAtRecommended), appGainWords(e.Gain, e.GainLow, e.GainHigh)
		}
		p.F("| `%s` | %s | %s | %d | %d | %s | %.3f | %s | %s | %s |\n", f.Path, f.Module, strings.TrimSpace(f.Mount+" "+f.FSType),
			f.Writes, f.BytesWritten, mdEscapePipes(sizesWords(f)), f.WriteSeconds, here, at, gain)
	}
}

func mdEscapePipes(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// AppJSON is the report as one JSON document.
func AppJSON(w io.Writer, r *report.AppReport) error {
	var p printer
	enc := json.NewEncoder(&p)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	return p.FlushTo(w)
}
