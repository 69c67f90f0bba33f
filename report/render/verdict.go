package render

import (
	"cmp"
	"fmt"
	"io"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/units"
	"github.com/iobench/iobench/verdict"
)

// TextBrief writes only the verdict: what to set, per runtime.
func TextBrief(w io.Writer, r *report.Report) error {
	var p printer
	for _, l := range sweepVerdictLines(r) {
		p.F("%s\n", l)
	}
	return p.flushText(w)
}

// RuntimeBrief writes only a runtime check's verdict.
func RuntimeBrief(w io.Writer, r *report.RuntimeReport) error {
	var p printer
	for _, l := range runtimeVerdictLines(r) {
		p.F("%s\n", l)
	}
	return p.flushText(w)
}

// sweepVerdictLines are the verdict of a sweep: the state of the run when
// it stopped early, the size for a program's own calls, then a line per
// runtime default. Each share of the plateau it quotes is the table's.
func sweepVerdictLines(r *report.Report) []string {
	v := r.Verdict
	var out []string
	if v.Incomplete {
		out = append(out, incompleteLine(r))
	}
	if !v.Advice {
		return append(out, "verdict: "+noAdviceWords(r))
	}
	rows := verdict.ModeRows(firstView(r).Results, r.Config.PrimaryMode())
	f := tableFacts(r.Knee.Result, rows)
	if v.DefaultsEnough {
		return append(out, "verdict"+basisNote(r)+": "+enoughWords(r, f))
	}
	out = append(out, "verdict"+basisNote(r)+": "+writesWords(r, f))
	for _, d := range v.Defaults {
		out = append(out, "  "+defaultLabel(d)+": "+defaultWords(d, f))
	}
	return out
}

// firstView is the report the verdict is of: an interleaved sweep's first
// variant.
func firstView(r *report.Report) *report.Report {
	if len(r.Variants) > 0 {
		return r.VariantReport(0)
	}
	return r
}

// basisNote names the variant the verdict comes from, when there are
// several.
func basisNote(r *report.Report) string {
	if len(r.Variants) < 2 {
		return ""
	}
	return fmt.Sprintf(" (of the first variant, %s)", r.Variants[0].Name)
}

// incompleteLine says first that the run stopped early, and why.
func incompleteLine(r *report.Report) string {
	v := r.Verdict
	why := cmp.Or(r.Error, "it stopped early")
	if v.SizesRun < v.SizesPlanned {
		return fmt.Sprintf("INCOMPLETE: %s; %d of %d sizes were measured", why, v.SizesRun, v.SizesPlanned)
	}
	return fmt.Sprintf("INCOMPLETE: %s; every size was measured, in fewer rounds than planned", why)
}

// noAdviceWords says why the verdict advises nothing.
func noAdviceWords(r *report.Report) string {
	if r.Verdict.NoAdvice == verdict.NoAdviceSizesMissing {
		return "no advice: the sizes not measured could move the knee; run the sweep again in full"
	}
	return "no write size to advise: " + cmp.Or(r.Knee.Reason, "no knee was found")
}

// enoughWords is the one line of a verdict that can tell nothing apart:
// the defaults are enough, and why.
func enoughWords(r *report.Report, f facts) string {
	lo, hi := f.sizes[0], f.sizes[len(f.sizes)-1]
	return fmt.Sprintf("the defaults are enough: no size from %s to %s is measurably below %s of the %.1f MiB/s plateau, nor any default measurably slower (noise CV %.1f%%, %s)",
		units.FormatSize(lo), units.FormatSize(hi), f.bandPct(), r.Verdict.Writes.PlateauMiBPerSec, 100*r.Knee.NoiseCV, advice.RoundsWord(r.Knee.Rounds))
}

// writesWords is the size from which calls reach the plateau, and how
// sure that is.
func writesWords(r *report.Report, f facts) string {
	w := r.Verdict.Writes
	calls := "write(2) calls"
	if r.Config.PrimaryMode() == record.ModeRead {
		calls = "read(2) calls"
	}
	if w.RecommendedFrom == verdict.FromSafe {
		return safeFirstWords(w, f, calls)
	}
	var s string
	switch w.Shape {
	case knee.ShapeFlat:
		s = fmt.Sprintf("any size of %s from %s reaches the %.1f MiB/s plateau: size does not matter here", calls, units.FormatSize(w.WriteSize), w.PlateauMiBPerSec)
	case knee.ShapeDeclines:
		s = fmt.Sprintf("%s of %s (%d bytes) up to %s: %s; larger ones are slower", calls, units.FormatSize(w.WriteSize),
			w.WriteSize, units.FormatSize(w.DeclinesAbove), f.kneeShare())
	default:
		s = fmt.Sprintf("%s of at least %s (%d bytes): %s", calls, units.FormatSize(w.WriteSize), w.WriteSize, f.kneeShare())
	}
	return s + "; " + writesSureWords(r)
}

// safeFirstWords leads with the measured safe size when the knee is not
// established: the advice rests on it, the knee's guess comes after.
func safeFirstWords(w *verdict.WritesVerdict, f facts, calls string) string {
	s := fmt.Sprintf("%s of at least %s (%d bytes): %s of the %.1f MiB/s plateau", calls, units.FormatSize(w.SafeSize), w.SafeSize, f.pct(w.SafeSize), w.PlateauMiBPerSec)
	if w.DeclinesAbove > 0 {
		s = fmt.Sprintf("%s of %s (%d bytes) up to %s: %s of the %.1f MiB/s plateau", calls, units.FormatSize(w.SafeSize), w.SafeSize,
			units.FormatSize(w.DeclinesAbove), f.pct(w.SafeSize), w.PlateauMiBPerSec)
	}
	s += fmt.Sprintf(", the smallest size measured not worse than it (at least %.0f%%)", 100*w.SafeShareLow)
	if w.CIHigh > w.CILow {
		return s + fmt.Sprintf("; the knee, %s, is not established: likely between %s and %s",
			units.FormatSize(w.WriteSize), units.FormatSize(w.CILow), units.FormatSize(w.CIHigh))
	}
	return s + fmt.Sprintf("; the knee, %s, is not established", units.FormatSize(w.WriteSize))
}

// writesSureWords says whether the knee is established, and where it may
// be when it is not.
func writesSureWords(r *report.Report) string {
	w, k := r.Verdict.Writes, r.Knee
	switch {
	case w.Established:
		return fmt.Sprintf("established after %s (noise CV %.1f%%)", advice.RoundsWord(k.Rounds), 100*k.NoiseCV)
	case w.CILow > 0 && w.CIHigh > w.CILow:
		return fmt.Sprintf("not established: likely between %s and %s; %s",
			units.FormatSize(w.CILow), units.FormatSize(w.CIHigh), safeWords(w))
	}
	return "not established (the knee line below says why)"
}

// safeWords says that no size is yet measured not worse than the plateau
// (a safe one leads the verdict instead).
func safeWords(w *verdict.WritesVerdict) string {
	if w.SafeSize == 0 {
		return "no size is yet measured not worse than the plateau (more rounds would tell)"
	}
	return fmt.Sprintf("%s (%d bytes) is the smallest size measured not worse than the plateau: %.0f%% of it, at least %.0f%%",
		units.FormatSize(w.SafeSize), w.SafeSize, 100*w.SafeShare, 100*w.SafeShareLow)
}

// defaultLabel names a runtime's buffer.
func defaultLabel(d verdict.DefaultVerdict) string {
	name := advice.RuntimeTitle(d.Runtime)
	if d.Case != "" {
		return name + ", " + d.Case
	}
	return name
}

// defaultWords is what to do with one default and why: what it measured
// (from write(2) calls of its size), the gain of the recommended size
// over it with its interval, and whether that is established.
func defaultWords(d verdict.DefaultVerdict, f facts) string {
	s := actionWords(d)
	if d.DefaultMiBPerSec > 0 {
		s += fmt.Sprintf(": %s measured %s of the plateau", units.FormatSize(d.Default), f.pct(d.Default))
	}
	if (d.Basis == verdict.BasisAboveKnee || d.Basis == verdict.BasisAboveSafe) && d.DefaultMiBPerSec > 0 && f.share[d.Default] < f.k.Fraction {
		s += fmt.Sprintf(", below %s but not measurably so", f.bandPct())
	}
	if g := d.Gain; g != nil && d.Basis != verdict.BasisAboveKnee && d.Basis != verdict.BasisAboveSafe && d.Basis != verdict.BasisDip {
		s += fmt.Sprintf("; %s would gain %s, inferred from write(2) calls", bufferWords(d, f), gainWords(g))
	}
	if d.Basis == verdict.BasisNotRun && len(f.sizes) > 0 {
		return s + fmt.Sprintf("; %s was not measured (the sweep ran %s to %s): not established",
			units.FormatSize(d.Default), units.FormatSize(f.sizes[0]), units.FormatSize(f.sizes[len(f.sizes)-1]))
	}
	return s + "; " + basisWords(d, f.k)
}

// bufferWords names the buffer a default is judged against, with the
// table's share of the plateau when it was chosen by measurement.
func bufferWords(d verdict.DefaultVerdict, f facts) string {
	if d.BufferShare > 0 {
		return fmt.Sprintf("%s (measured %s of the plateau)", units.FormatSize(d.Buffer), f.pct(d.Buffer))
	}
	return units.FormatSize(d.Buffer)
}

// actionWords is what to set, or to keep the default.
func actionWords(d verdict.DefaultVerdict) string {
	switch {
	case d.Basis == verdict.BasisAny:
		return "any buffer"
	case d.Set > 0:
		return settingWords(d.Runtime, d.Case, d.Set)
	case d.Established:
		return fmt.Sprintf("keep the default (%s)", units.FormatSize(d.Default))
	}
	return fmt.Sprintf("keep the default (%s) for now", units.FormatSize(d.Default))
}

// settingWords is how a runtime's buffer is set to n bytes.
func settingWords(rt, kind string, n int64) string {
	switch {
	case rt == advice.RuntimeStdio:
		return advice.StdioSetvbuf(n)
	case kind == "formatted":
		return fmt.Sprintf("export GFORTRAN_FORMATTED_BUFFER_SIZE=%d", n)
	}
	return fmt.Sprintf("export GFORTRAN_UNFORMATTED_BUFFER_SIZE=%d", n)
}

// gainWords is a gain and its interval: "x1.33 (0.98-1.61)".
func gainWords(g *knee.Gain) string {
	if g.Low > 0 && g.High > 0 && (g.Low != g.Ratio || g.High != g.Ratio) {
		return fmt.Sprintf("x%.2f (%.2f-%.2f)", g.Ratio, g.Low, g.High)
	}
	return fmt.Sprintf("x%.2f", g.Ratio)
}

// pWords is a U test's p-value as a report quotes it.
func pWords(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.3g", p)
}

// basisWords says what the verdict rests on and whether it is
// established, in the statistics' own terms.
func basisWords(d verdict.DefaultVerdict, k knee.Result) string {
	band := 1 / cmp.Or(k.Fraction, knee.DefaultFraction)
	g := d.Gain
	switch d.Basis {
	case verdict.BasisGain:
		return fmt.Sprintf("%s and the interval clears x%.2f: established", pWords(g.P), band)
	case verdict.BasisBand:
		return fmt.Sprintf("the interval stays within x%.2f: established", band)
	case verdict.BasisSlower:
		return fmt.Sprintf("slower, %s: established", pWords(g.P))
	case verdict.BasisAboveKnee:
		return aboveKneeWords(d, k)
	case verdict.BasisAboveSafe:
		return fmt.Sprintf("it is at or above %s, the smallest size measured not worse than the plateau: established with it", units.FormatSize(d.Buffer))
	case verdict.BasisDip:
		if d.BufferShare > 0 {
			return fmt.Sprintf("it is at or above %s, measured not worse than the plateau, yet the plateau is %s faster, %s: not established",
				units.FormatSize(d.Buffer), gainWords(g), pWords(g.P))
		}
		return fmt.Sprintf("it is at or above the %s knee, yet the plateau is %s faster, %s: not established",
			units.FormatSize(k.WriteSize), gainWords(g), pWords(g.P))
	case verdict.BasisFewRuns:
		return fmt.Sprintf("%s of %s and %s on the plateau are too few (%d each): not established",
			runsWord(g.Runs), units.FormatSize(d.Default), runsWord(g.PlateauRuns), knee.MinEstablishRuns)
	case verdict.BasisPValue:
		if least := minUTestP(g.Runs, g.PlateauRuns); least >= knee.GainAlpha {
			return fmt.Sprintf("%s, the least %d and %d runs can give: not established", pWords(g.P), g.Runs, g.PlateauRuns)
		}
		return pWords(g.P) + ": not established"
	case verdict.BasisInterval:
		return fmt.Sprintf("%s, but the interval reaches x%.2f, within the band: not established", pWords(g.P), g.Low)
	case verdict.BasisNotRun:
		return fmt.Sprintf("%s was not measured: not established", units.FormatSize(d.Default))
	case verdict.BasisAny:
		return "the buffer does not change the write(2) calls"
	}
	return "no knee to aim at"
}

// aboveKneeWords: a default at or above the knee is kept, as sure as the
// knee is.
func aboveKneeWords(d verdict.DefaultVerdict, k knee.Result) string {
	s := fmt.Sprintf("it is at or above the %s knee", units.FormatSize(d.Buffer))
	if k.WriteSize > 0 {
		s = fmt.Sprintf("it is at or above the %s knee", units.FormatSize(k.WriteSize))
	}
	if d.Established {
		return s + ": established with the knee"
	}
	return s + ": not established, as the knee is not"
}

func runsWord(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// runtimeVerdictLines are a runtime check's verdict: per layout and byte
// order what to set, with the gain measured through the runtime.
func runtimeVerdictLines(r *report.RuntimeReport) []string {
	v := r.Verdict
	if v == nil {
		return nil
	}
	var out []string
	if r.Incomplete {
		out = append(out, fmt.Sprintf("INCOMPLETE: %s; %d of %d cases were measured", cmp.Or(r.Error, "it stopped early"), v.SizesRun, v.SizesPlanned))
	}
	head := fmt.Sprintf("verdict, from the gains measured through %s:", runtimeName(r.Runtime))
	if !v.Advice {
		head = "verdict: no advice: the write(2) sweep found no knee to aim at"
	}
	out = append(out, head)
	for _, d := range v.Defaults {
		out = append(out, "  "+d.Case+": "+runtimeDefaultWords(d, sweepFraction(r.Sweep)))
	}
	return out
}

// sweepFraction is the knee fraction of a runtime check's sweep.
func sweepFraction(sw *libcheck.Sweep) float64 {
	if sw == nil || sw.Fraction <= 0 || sw.Fraction > 1 {
		return knee.DefaultFraction
	}
	return sw.Fraction
}

// runtimeDefaultWords is one layout and byte order's verdict.
func runtimeDefaultWords(d verdict.DefaultVerdict, fraction float64) string {
	s := actionWords(d)
	switch {
	case d.Basis == verdict.BasisAny:
		return s + ": one write(2) of the whole array, whatever the buffer: established"
	case d.Basis == verdict.BasisAboveKnee:
		return fmt.Sprintf("%s: it is at least the %s this needs; %s", s, units.FormatSize(d.Buffer), map[bool]string{true: "established", false: "not established, as the knee is not"}[d.Established])
	case d.Basis == verdict.BasisNotRun && d.Gain != nil:
		return fmt.Sprintf("%s: %s was not measured through the runtime (add it to --buffers); the write(2) sweep predicts %s: not established",
			s, units.FormatSize(d.Buffer), gainWords(d.Gain))
	case d.Basis == verdict.BasisNotRun || d.Gain == nil:
		return fmt.Sprintf("%s: %s was not measured through the runtime (add it to --buffers): not established", s, units.FormatSize(d.Buffer))
	}
	return fmt.Sprintf("%s: %s measured %s over the default (%s); %s", s, units.FormatSize(d.Buffer), gainWords(d.Gain),
		units.FormatSize(d.Default), basisWords(d, knee.Result{Fraction: fraction}))
}
