package render

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/report"
)

// programLines are what `app -- PROG` saw of the program: its outcome,
// times with their basis, libraries, flush mode, what made its call
// sizes and where the curve came from.
func programLines(p *report.AppProgram) []string {
	out := []string{fmt.Sprintf("program: %s (%s)", strings.Join(p.Argv, " "), p.Outcome)}
	if p.Exe != "" && (len(p.Argv) == 0 || p.Exe != p.Argv[0]) {
		out = append(out, "wrote through: "+p.Exe)
	}
	out = append(out, "wall time: "+wallWords(p))
	if p.Ranks != nil {
		out = append(out, "ranks: "+ranksWords(p.Ranks))
	}
	if p.Traced {
		out = append(out, fmt.Sprintf("write time: %s by strace's -T, which adds the tracer's cost to every call: reported, not compared", secondsWords(p.TracedWriteSeconds)))
	} else {
		out = append(out, "writes: not traced ("+p.TraceWhy+")")
	}
	for _, l := range p.Libraries {
		out = append(out, "library: "+libraryWords(l))
	}
	out = append(out, fmt.Sprintf("flush: %s (%s)", p.Flush, p.FlushWhy))
	for _, b := range p.Behaviours {
		out = append(out, fmt.Sprintf("calls: %s: %s, by %s: %s", b.Path, advice.RuntimeTitle(b.Runtime), b.Knob, b.Why))
	}
	if c := p.Curve; c != nil {
		out = append(out, "curve: "+programCurveWords(c))
	}
	if rp := p.RuntimePrice; rp != nil {
		out = append(out, "through the runtime: "+runtimePriceWords(rp))
	}
	for _, n := range p.Notes {
		out = append(out, "note: "+n)
	}
	return out
}

// ranksWords says how many of a launcher's ranks the trace holds.
func ranksWords(r *report.AppRanks) string {
	s := fmt.Sprintf("traced %d of %d ranks (strace inside the launcher: %s itself is not traced)", r.Traced, r.Asked, r.Launcher)
	switch {
	case r.Asked == 0:
		return fmt.Sprintf("traced %d ranks (strace inside the launcher: %s itself is not traced); the command line does not say how many it starts, so ranks left untraced cannot be counted", r.Traced, r.Launcher)
	case r.Missing() > 0:
		return s + fmt.Sprintf("; %d left no trace: they ran on nodes that cannot see the working directory or lack strace, and their writes are not in this report", r.Missing())
	}
	return s
}

func wallWords(p *report.AppProgram) string {
	switch {
	case p.UntracedSeconds > 0 && p.Traced:
		return fmt.Sprintf("%s untraced, from a second run (traced: %s)", secondsWords(p.UntracedSeconds), secondsWords(p.TracedSeconds))
	case p.UntracedSeconds > 0:
		return secondsWords(p.UntracedSeconds) + " untraced"
	}
	return fmt.Sprintf("%s traced, the tracer's cost included (%s)", secondsWords(p.TracedSeconds), p.UntracedWhy)
}

func libraryWords(l report.AppLibrary) string {
	s := l.Kind
	if l.Version != "" {
		s += " " + l.Version
	}
	return s + " (" + l.Evidence + ")"
}

func programCurveWords(c *report.AppProgramCurve) string {
	s := c.Source
	if c.Dir != "" {
		s += " in " + c.Dir
	}
	if c.FileBytes > 0 {
		s += fmt.Sprintf(", %s per run in %s", bytesWords(c.FileBytes), secondsWords(c.Seconds))
	}
	if c.Matches {
		return s + ", flushing as the program does (" + c.Flush + ")"
	}
	return s + ", flushing with " + c.Flush + ", not as the program does: not comparable"
}

// programWords holds the estimate against the program's own wall time,
// like with like: both on this machine, the curve flushing as the
// program does, the time untraced.
func programWords(r *report.AppReport) string {
	p, e := r.Program, r.Estimate
	if p == nil || e == nil || e.EstimatedCalls == 0 {
		return ""
	}
	wall, basis := p.UntracedSeconds, "untraced"
	if wall == 0 {
		wall, basis = p.TracedSeconds, "traced, so the tracer's cost inflates it"
	}
	head := fmt.Sprintf("the program ran %s (%s)", secondsWords(wall), basis)
	if p.Curve != nil && !p.Curve.Comparable {
		return head + "; the curve does not flush as the program does, so the estimate is not held against that time."
	}
	if wall <= 0 {
		return ""
	}
	s := fmt.Sprintf("%s; its writes are an estimated %.0f%% of it, and the recommended size would save an estimated %s (%.0f%% of the run)",
		head, 100*e.SecondsNow/wall, secondsWords(e.SavingSeconds), 100*e.SavingSeconds/wall)
	if rp := p.RuntimePrice; rp != nil {
		s += fmt.Sprintf(" on the write(2) curve, %s (%.0f%%) through %s's own writer", secondsWords(rp.SavingSeconds), 100*rp.SavingSeconds/wall, advice.RuntimeTitle(rp.Runtime))
	}
	if e.SecondsNow > wall {
		s += "; the estimate is more than the whole run: the program's writes went faster than the curve's, so take it as an upper bound"
	}
	return s + ". iobench tune -- PROG measures the saving on the program."
}

// untracedProgram says whether the report is of a program run without
// the tracer: its input holds no writes to list.
func untracedProgram(r *report.AppReport) bool { return r.Program != nil && !r.Program.Traced }

// runtimePriceWords says what the runtime's writer measured at the two
// buffers and what that saves on the program's bytes.
func runtimePriceWords(rp *report.AppRuntimePrice) string {
	timing := func(t report.AppPriceTiming) string {
		return fmt.Sprintf("%s (%s-%s) with a %s buffer", secondsWords(t.Seconds), secondsWords(t.Low), secondsWords(t.High), bytesWords(t.BufferBytes))
	}
	s := fmt.Sprintf("%s's writer, %d-byte records (%s), %s per run flushing as the program does (%s), %d runs each: %s, %s; on the program's %s that saves %s (%s to %s)",
		advice.RuntimeTitle(rp.Runtime), rp.RecordBytes, rp.RecordNote, bytesWords(rp.RunBytes), rp.Flush, rp.Now.Runs,
		timing(rp.Now), timing(rp.Advised), bytesWords(rp.Bytes), secondsWords(rp.SavingSeconds), secondsWords(rp.SavingLow), secondsWords(rp.SavingHigh))
	if !rp.Settled() {
		s += "; not settled (the interval holds no change), so the estimate stays the curve's"
	}
	return s
}
