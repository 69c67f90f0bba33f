package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/verdict"
)

// runtimeName is the library a runtime's figures are of.
func runtimeName(rt libcheck.Runtime) string {
	if rt == libcheck.Gfortran {
		return "libgfortran"
	}
	return "C stdio"
}

// RuntimeText writes the runtime report for people, its verdict first.
func RuntimeText(w io.Writer, r *report.RuntimeReport) error {
	var p printer
	p.F("%s: %s writes through %s\n\n", toolTitle(r.Tool), r.Runtime, runtimeName(r.Runtime))
	for _, l := range runtimeVerdictLines(r) {
		p.F("%s\n", l)
	}
	p.F("\n")
	p.runtimeHeader(r, "")
	p.F("\n")
	p.table(runtimeTable(r, "\t", "\t"))
	p.runtimeNotes(r, "")
	if len(r.Apply) > 0 {
		p.textApply(asSweepReport(r))
	}
	return p.flushText(w)
}

// RuntimeMarkdown writes the runtime report for a bug report or a wiki.
func RuntimeMarkdown(w io.Writer, r *report.RuntimeReport) error {
	var p printer
	p.F("## %s: %s writes through %s\n", toolTitle(r.Tool), r.Runtime, runtimeName(r.Runtime))
	p.mdVerdict(runtimeVerdictLines(r))
	p.F("\n")
	p.runtimeHeader(r, "- ")
	p.F("\n")
	p.mdLines(runtimeTable(r, " | ", " |"))
	p.runtimeNotes(r, "- ")
	if len(r.Apply) > 0 {
		p.mdApply(asSweepReport(r))
	}
	return p.FlushTo(w)
}

// runtimeHeader is the runtime check's facts: the writer, the file
// system, the data, the buffers, the timing and the sweep.
func (p *printer) runtimeHeader(r *report.RuntimeReport, bullet string) {
	c := r.Config
	p.writerLines(r, bullet)
	p.F("%sdata:       %d float64 = %d B (%s) per run; records layout: %s records\n", bullet, c.Elements, c.TotalBytes,
		humanize.IBytes(uint64(c.TotalBytes)), sizeName(c.RecordBytes))
	var bufs []string
	for _, b := range c.Buffers {
		s := sizeName(b)
		if b == c.DefaultBuffer {
			s += " (default)"
		}
		bufs = append(bufs, s)
	}
	p.F("%sbuffers:    %s; byte order %s\n", bullet, strings.Join(bufs, ", "), strings.Join(c.Converts, ", "))
	if c.Profile != "" {
		p.F("%sprofile:    %s (%s)\n", bullet, c.Profile, c.ProfileWhy)
	}
	p.timingLines(r, bullet, fmt.Sprintf("adaptive rounds (--repeat auto: at least %d of every case, then the undecided recommended cases with their defaults, within %s)",
		record.MinAutoRounds, runtimeBudgetWords(c.TimeBudgetSeconds)))
}

// writerLines are the first facts of a runtime or library check: the
// writer, the directory and the file system.
func (p *printer) writerLines(r *report.RuntimeReport, bullet string) {
	fs := r.FS
	p.F("%swriter:     %s\n", bullet, r.Compiler)
	if fs.ResolvedDir != "" {
		p.F("%sdir:        %s\n", bullet, fs.ResolvedDir)
	}
	if fs.Type != "" {
		p.F("%sfs:         %s, mounted at %s from %s; st_blksize %d\n", bullet, fs.Type, fs.MountPoint, fs.Device, fs.IOBlockSize)
	}
}

// timingLines are the last facts of a runtime or library check: the
// rounds (auto, the words for --repeat auto), fsync and the flush, what
// adaptive rounds did, and the write(2) sweep.
func (p *printer) timingLines(r *report.RuntimeReport, bullet, auto string) {
	c := r.Config
	fsync := "no fsync"
	if c.Fsync {
		fsync = "fsync before close inside the timing"
	}
	rounds := fmt.Sprintf("%d rounds", c.Rounds)
	if c.RepeatAuto {
		rounds = auto
	}
	p.F("%stiming:     %s, cases shuffled in each (seed %d); %s; flush before each run: %s\n", bullet, rounds, c.Seed, fsync, c.Sync)
	if r.Adaptive != nil {
		p.F("%srounds:     %s\n", bullet, RuntimeAdaptiveLine(r.Adaptive))
	}
	if sw := r.Sweep; sw != nil {
		p.F("%swrite(2):   %s\n", bullet, sweepLine(sw))
	}
}

// mdLines writes a runtime or library table's lines (cells joined by
// " | ", ended by " |") as a Markdown table, the rule after the head.
func (p *printer) mdLines(lines []string) {
	for i, l := range lines {
		p.F("| %s\n", l)
		if i == 0 {
			p.F("|%s\n", strings.Repeat("---|", strings.Count(l, " |")))
		}
	}
}

// tenths is a duration of seconds for the short runtime rounds: to a
// tenth of a second below 10 s.
func tenths(s float64) string {
	d := time.Duration(s * float64(time.Second))
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return shortDuration(d.Round(time.Second))
}

// runtimeBudgetWords is the time budget of adaptive rounds as planned.
func runtimeBudgetWords(seconds float64) string {
	if seconds > 0 {
		return budgetWords(report.Config{TimeBudget: seconds})
	}
	return fmt.Sprintf("a time budget of %d x the first round", libcheck.DefaultBudgetRounds)
}

// RuntimeAdaptiveLine says what a runtime's adaptive rounds did and why
// they stopped, in the words of the sweep's AdaptiveLine.
func RuntimeAdaptiveLine(a *libcheck.Adaptive) string {
	var per []string // runs of equal rounds, as "6 (x61)"
	for i := 0; i < len(a.CasesPerRound); {
		n, k := a.CasesPerRound[i], 1
		for i+k < len(a.CasesPerRound) && a.CasesPerRound[i+k] == n {
			k++
		}
		if k < 4 {
			per = append(per, slices.Repeat([]string{strconv.Itoa(n)}, k)...)
		} else {
			per = append(per, fmt.Sprintf("%d (x%d)", n, k))
		}
		i += k
	}
	line := adaptiveLine(&record.Adaptive{Rounds: a.Rounds, FirstRoundSeconds: a.FirstRoundSeconds, BudgetSeconds: a.BudgetSeconds,
		BudgetFromFlag: a.BudgetFromFlag, SpentSeconds: a.SpentSeconds, Stop: a.Stop, NextRoundSeconds: a.NextRoundSeconds},
		adaptiveWords{what: strings.Join(per, ", ") + " cases", established: "every recommended case is decided",
			interrupted: "the rounds were interrupted", budgetRounds: libcheck.DefaultBudgetRounds, secs: tenths})
	var open []string
	for _, u := range a.Undecided {
		var what []string
		if u.Gain {
			what = append(what, "gain")
		}
		if u.Agreement {
			what = append(what, "agreement")
		}
		open = append(open, fmt.Sprintf("%s %s %s (%s)", u.Layout, u.Convert, sizeName(u.BufferBytes), strings.Join(what, ", ")))
	}
	if len(open) > 0 {
		line += "; undecided: " + strings.Join(open, ", ")
	}
	return line
}

func sweepLine(sw *libcheck.Sweep) string {
	if sw.KneeBytes == 0 {
		return fmt.Sprintf("%s, %d sizes; no knee", sw.Source, len(sw.Points))
	}
	est := "established"
	if !sw.KneeEstablished {
		est = "not established"
	}
	line := fmt.Sprintf("%s, %d sizes; knee %s (%s)", sw.Source, len(sw.Points), sizeName(sw.KneeBytes), est)
	if sw.RecommendedBytes != sw.KneeBytes {
		line += fmt.Sprintf(", write(2) calls aimed at %s", sizeName(sw.RecommendedBytes))
	}
	return line
}

// runtimeTable is the table's lines, cells joined by sep and ended by
// end: the header, then a row per case.
func runtimeTable(r *report.RuntimeReport, sep, end string) []string {
	head := []string{"layout", "convert", "buffer", "MiB/s", "interval", "calls", "B/call", "predicted", "gain", "gain interval", "write(2) MiB/s", "write(2) gain", "agreement"}
	lines := []string{strings.Join(head, sep) + end}
	for _, c := range r.Summary.Cases {
		buf := sizeName(c.BufferBytes)
		if c.Default {
			buf += " (default)"
		}
		calls, per := "-", "-"
		if c.WriteCalls >= 0 {
			calls, per = itoa(c.WriteCalls), fmt.Sprintf("%.0f", c.MeanCallBytes)
		}
		pred := itoa(c.Predicted.Count)
		if !c.CallsAsPredicted && c.WriteCalls >= 0 {
			pred += " !"
		}
		gain, gci := "-", "-"
		if c.Gain != nil {
			gain, gci = fmt.Sprintf("x%.2f", c.Gain.Ratio), fmt.Sprintf("%.2f-%.2f", c.Gain.Low, c.Gain.High)
		}
		smib, sgain, agree := "-", "-", "-"
		if sp := c.Sweep; sp != nil {
			smib = fmt.Sprintf("%.1f", sp.MiBPerSec)
			if sp.From != libcheck.FromMeasured {
				smib += " ~"
			}
			if !c.Default {
				sgain = fmt.Sprintf("x%.2f", sp.Gain)
			}
			agree = agreementWord(sp)
		}
		cells := []string{string(c.Layout), c.Convert, buf, fmt.Sprintf("%.1f", c.MiBPerSec), fmt.Sprintf("%.1f-%.1f", c.CILow, c.CIHigh),
			calls, per, pred, gain, gci, smib, sgain, agree}
		lines = append(lines, strings.Join(cells, sep)+end)
	}
	return lines
}

func agreementWord(sp *libcheck.SweepPrediction) string {
	switch sp.Agreement {
	case libcheck.AgreeInterval:
		return "agree"
	case libcheck.AgreeClose:
		return fmt.Sprintf("agree (%+.0f%%)", 100*sp.DiffersBy)
	case libcheck.Differ:
		return fmt.Sprintf("differ (%+.0f%%)", 100*sp.DiffersBy)
	}
	return "-"
}

func (p *printer) runtimeNotes(r *report.RuntimeReport, bullet string) {
	name := runtimeName(r.Runtime)
	p.F("\n%sMeasured through %s: MiB/s (median of the runs, %s interval), calls and B/call (write(2) calls the writer counted in /proc/self/io), gain (over the default buffer, same layout and byte order).\n",
		bullet, name, confidenceWord(r.Summary.Cases))
	p.F("%sInferred from write(2): predicted (calls from %s's buffering rule), write(2) MiB/s (the sweep at the call size the rule gives; ~ read between or beyond the sizes it ran), write(2) gain (the same for the default's calls). Agreement: the predicted gain lies in the measured interval, or within %.0f%% of the measured gain.\n",
		bullet, name, 100*libcheck.AgreeTolerance)
	switch {
	case len(r.Summary.Cases) == 0:
	case r.Summary.CallsAsPredicted:
		p.F("%swrite(2) calls: every run made exactly the calls the buffering rule predicts.\n", bullet)
	default:
		p.F("%swrite(2) calls: rows marked ! made other calls than the buffering rule predicts.\n", bullet)
	}
	if len(r.Summary.Advice) > 0 {
		p.F("\n%sThe buffer each case needs for write(2) calls of at least the sweep's recommended size, and why:\n", bullet)
		for _, a := range r.Summary.Advice {
			p.F("%s  %s, %s: %s\n", bullet, a.Layout, a.Convert, ruleText(a, r.Config.DefaultBuffer))
		}
	}
	p.endLines(r, bullet)
}

// endLines are the warnings of a runtime or library check, and why it
// is incomplete.
func (p *printer) endLines(r *report.RuntimeReport, bullet string) {
	for _, w := range r.Warnings {
		p.F("%swarning: %s\n", bullet, w)
	}
	if r.Incomplete {
		p.F("%sINCOMPLETE: %s\n", bullet, r.Error)
	}
}

func confidenceWord(cases []libcheck.CaseSummary) string {
	lo := 1.0
	for _, c := range cases {
		lo = min(lo, c.CIConfidence)
	}
	if len(cases) == 0 || lo >= knee.IntervalConfidence {
		return "95%"
	}
	return fmt.Sprintf("at least %.0f%%", 100*lo)
}

// ruleText is the buffer one case needs and the buffering rule that says
// so, with how the write(2) sweep's prediction held; what to do about it
// is the verdict's.
func ruleText(a libcheck.Advice, def int64) string {
	switch a.Verdict {
	case libcheck.VerdictAny:
		return "any buffer: " + a.Rule
	case libcheck.VerdictNoKnee:
		return "no advice: " + a.Rule
	}
	s := fmt.Sprintf("a buffer of %s: %s", sizeName(a.BufferBytes), a.Rule)
	if a.KeepDefault {
		s = fmt.Sprintf("the default (%s) is at least the %s this needs: %s", sizeName(def), sizeName(a.BufferBytes), a.Rule)
	}
	if sp := a.Sweep; a.Measured && sp != nil && sp.Agreement != "" {
		s += fmt.Sprintf("; the write(2) sweep predicted x%.2f: %s", sp.Gain, agreementSentence(sp))
	}
	return s
}

func agreementSentence(sp *libcheck.SweepPrediction) string {
	switch sp.Agreement {
	case libcheck.AgreeInterval:
		return "they agree (within the measured interval)"
	case libcheck.AgreeClose:
		return fmt.Sprintf("they agree within %.0f%% (%+.0f%%)", 100*libcheck.AgreeTolerance, 100*sp.DiffersBy)
	}
	dir := "above"
	if sp.DiffersBy < 0 {
		dir = "below"
	}
	return fmt.Sprintf("they do not agree: the measured gain is %.0f%% %s the prediction", 100*math.Abs(sp.DiffersBy), dir)
}

// RuntimeJSON writes the runtime report as one indented JSON document.
func RuntimeJSON(w io.Writer, r *report.RuntimeReport) error {
	out := *r
	emptyLists(&out)
	return encodeIndented(w, &out)
}

// emptyLists makes a report's nil warnings and samples empty, so that
// JSON writes them as [] and not null.
func emptyLists(r *report.RuntimeReport) {
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	if r.Samples == nil {
		r.Samples = []libcheck.Sample{}
	}
}

var runtimeCSVHeader = []string{
	"runtime", "layout", "convert", "buffer_bytes", "default", "runs", "mib_per_s", "ci_low_mib_per_s", "ci_high_mib_per_s", "ci_confidence", "cv",
	"write_calls", "mean_call_bytes", "predicted_calls", "calls_as_predicted", "gain", "gain_ci_low", "gain_ci_high", "gain_p_value",
	"sweep_call_bytes", "sweep_mib_per_s", "sweep_from", "sweep_gain", "sweep_gain_ci_low", "sweep_gain_ci_high", "agreement", "differs_by",
	"fs_type", "total_bytes", "record_bytes", "fsync", "incomplete",
}

// RuntimeCSV writes one row per case, with a header.
func RuntimeCSV(w io.Writer, r *report.RuntimeReport) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(runtimeCSVHeader)
	for _, c := range r.Summary.Cases {
		row := []string{string(r.Runtime), string(c.Layout), c.Convert, itoa(c.BufferBytes), strconv.FormatBool(c.Default), strconv.Itoa(c.Runs),
			ftoa(c.MiBPerSec), ftoa(c.CILow), ftoa(c.CIHigh), ftoa(c.CIConfidence), ftoa(c.CV),
			itoa(c.WriteCalls), ftoa(c.MeanCallBytes), itoa(c.Predicted.Count), strconv.FormatBool(c.CallsAsPredicted)}
		if g := c.Gain; g != nil {
			row = append(row, ftoa(g.Ratio), ftoa(g.Low), ftoa(g.High), ftoa(g.P))
		} else {
			row = append(row, "", "", "", "")
		}
		if sp := c.Sweep; sp != nil {
			row = append(row, itoa(sp.CallBytes), ftoa(sp.MiBPerSec), sp.From, ftoa(sp.Gain), ftoa(sp.GainLow), ftoa(sp.GainHigh), sp.Agreement, ftoa(sp.DiffersBy))
		} else {
			row = append(row, "", "", "", "", "", "", "", "")
		}
		row = append(row, r.FS.Type, itoa(r.Config.TotalBytes), itoa(r.Config.RecordBytes), strconv.FormatBool(r.Config.Fsync), strconv.FormatBool(r.Incomplete))
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// asSweepReport is the part of a sweep report the how-to-apply printers
// read, so that a runtime report prints its block the same way.
func asSweepReport(r *report.RuntimeReport) *report.Report {
	rec := &advice.Recommendation{Basis: advice.BasisKnee, Apply: r.Apply}
	if r.Sweep != nil {
		rec.BufferSize, rec.KneeEstablished = r.Sweep.RecommendedBytes, r.Sweep.KneeEstablished
	}
	return &report.Report{Header: report.Header{FS: r.FS}, Summary: verdict.Summary{Recommendation: rec, Verdict: verdict.Verdict{Advice: true}}}
}
