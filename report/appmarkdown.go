package report

import (
	"cmp"
	"io"
	"slices"
	"strings"
)

// AppMarkdown is the report for a bug report or a ticket: the verdict,
// what to set with why, then a table of each input's modules and files.
func AppMarkdown(w io.Writer, r *AppReport) error {
	var p printer
	p.f("## %s\n", appHeadline(r))
	if len(r.Command) > 0 {
		p.f("\n`%s`\n", ShellJoin(r.Command))
	}
	if r.Estimate == nil {
		p.f("\n%s\n", noCurveWords(r))
	} else {
		p.f("\n### What the writes cost here\n\n")
		for _, l := range verdictLines(r) {
			p.f("- %s\n", mdSentence(l))
		}
		head, lines := setLines(r)
		p.f("\n### What to set\n\n%s\n", mdSentence(head))
		if len(lines) > 0 {
			p.f("\n")
			p.fenced("sh", lines)
			p.f("\n")
			p.mdApplyRuntimes(r.Estimate.Apply)
		}
	}
	for _, in := range r.Inputs {
		p.mdInput(in)
	}
	for _, w := range r.Warnings {
		p.f("\n**Warning:** %s\n", w)
	}
	return p.flushTo(w)
}

func (p *printer) mdInput(in AppInput) {
	p.f("\n### %s\n\n%s.\n", in.Path, inputWords(in))
	for _, n := range in.Notes {
		p.f("\n- note: %s\n", n)
	}
	if len(in.Modules) == 0 {
		p.f("\nNo POSIX, MPI-IO or STDIO records.\n")
		return
	}
	p.f("\n| module | records | files | writes | bytes written | write time s | write sizes (Darshan's bins) |\n|---|---:|---:|---:|---:|---:|---|\n")
	for _, m := range in.Modules {
		p.f("| %s | %d | %d | %d | %d | %.3f | %s |\n", m.Module, m.Records, m.Files, m.Writes, m.BytesWritten, m.WriteSeconds, histogramWords(m.Histogram))
	}
	if len(in.Files) == 0 {
		return
	}
	files := slices.Clone(in.Files)
	slices.SortStableFunc(files, func(a, b AppFile) int { return cmp.Compare(b.BytesWritten, a.BytesWritten) })
	p.f("\n| file | module | mount | writes | bytes | sizes | measured s | here s | at recommended s | gain |\n|---|---|---|---:|---:|---|---:|---:|---:|---|\n")
	for i, f := range files {
		if i == appFilesShown {
			p.f("\n%d more files: the JSON report lists them all.\n", len(files)-appFilesShown)
			break
		}
		here, at, gain := "", "", ""
		if e := f.Estimate; e != nil && e.EstimatedCalls > 0 {
			here, at, gain = secondsWords(e.SecondsNow), secondsWords(e.SecondsAtRecommended), gainWords(e.Gain, e.GainLow, e.GainHigh)
		}
		p.f("| `%s` | %s | %s | %d | %d | %s | %.3f | %s | %s | %s |\n", f.Path, f.Module, strings.TrimSpace(f.Mount+" "+f.FSType),
			f.Writes, f.BytesWritten, mdEscapePipes(sizesWords(f)), f.WriteSeconds, here, at, gain)
	}
}

func mdEscapePipes(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
