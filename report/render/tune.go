package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
)

// TuneText is tune's report for people: the verdict, each arm's times
// and ratio beside app's estimate, the confirmation, how to apply the
// winner, and what was done to files.
func TuneText(w io.Writer, r *report.TuneReport) error {
	var p printer
	p.F("%s\n", wrapped(tuneHeadline(r), 100, "  "))
	p.F("\n%s\n\n", wrapped("verdict: "+r.Verdict, 100, "  "))
	p.F("%-38s %4s %8s %13s %6s %13s %8s\n", "setting", "runs", "median s", "95% interval s", "ratio", "ratio interval", "app est.")
	for _, a := range r.Arms {
		p.F("%s\n", armRow(a))
	}
	if c := r.Confirm; c != nil {
		p.F("\n%s\n", wrapped("confirm: "+confirmWords(c), 100, "  "))
	}
	p.F("\n")
	for _, a := range r.Arms {
		if why := armNote(a); why != "" {
			p.F("%s\n", wrapped(why, 100, "    "))
		}
	}
	if len(r.Apply) > 0 {
		p.F("\nhow to apply %s:\n", r.Winner)
		for _, l := range r.Apply {
			p.F("  %s\n", l)
		}
	}
	for _, l := range tuneFileLines(r.Files) {
		p.F("%s\n", wrapped(l, 100, "  "))
	}
	for _, l := range append(append([]string{}, r.Cannot...), r.Notes...) {
		p.F("%s\n", wrapped("note: "+l, 100, "  "))
	}
	return p.FlushTo(w)
}

func tuneHeadline(r *report.TuneReport) string {
	s := fmt.Sprintf("iobench tune: %s in %s, %d setting(s) against the unchanged program; alpha %.3g, seed %d, %s of at most %s expected (--time-budget %s)",
		strings.Join(r.Argv, " "), r.Dir, len(r.Arms)-1, r.Alpha, r.Seed, secondsWords(r.Seconds), secondsWords(r.ExpectedSeconds), secondsWords(r.TimeBudget))
	if r.Stopped != "" {
		s += "; stopped: " + r.Stopped
	}
	return s
}

// armRow is one arm's line of the table.
func armRow(a report.TuneArm) string {
	interval := "-"
	if a.High > 0 {
		interval = fmt.Sprintf("%.3f-%.3f", a.Low, a.High)
	}
	ratio, rint := "-", "-"
	if v := a.Screen; v != nil && v.Blocks > 0 {
		ratio = fmt.Sprintf("x%.2f", v.Ratio)
		rint = ratioInterval(v)
	}
	est := "-"
	if a.Estimate != nil {
		est = fmt.Sprintf("x%.2f", a.Estimate.Ratio)
	}
	median := "-"
	if a.Runs > 0 {
		median = fmt.Sprintf("%.3f", a.Median)
	}
	return fmt.Sprintf("%-38s %4d %8s %13s %6s %13s %8s", truncate(a.Name, 38), a.Runs, median, interval, ratio, rint, est)
}

func ratioInterval(v *report.TuneVerdict) string {
	if !v.Bounded {
		return "unbounded"
	}
	return fmt.Sprintf("%.2f-%.2f", v.Low, v.High)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// armNote says what an arm's traced run showed and why it was left out.
func armNote(a report.TuneArm) string {
	var parts []string
	if a.Effect != "" {
		parts = append(parts, a.Effect)
	}
	if a.Excluded != "" {
		parts = append(parts, "not timed further: "+a.Excluded)
	}
	if v := a.Screen; v != nil && v.Blocks > 0 {
		parts = append(parts, "screening: "+decisionWords(v))
	}
	if len(parts) == 0 {
		return ""
	}
	return a.Name + ": " + strings.Join(parts, "; ")
}

func decisionWords(v *report.TuneVerdict) string {
	if !v.Decided {
		return fmt.Sprintf("no difference established in %d blocks (alpha %.3g)", v.Blocks, v.Alpha)
	}
	return fmt.Sprintf("%s, established in %d blocks (alpha %.3g)", v.Direction, v.Blocks, v.Alpha)
}

func confirmWords(c *report.TuneVerdict) string {
	return fmt.Sprintf("%s against the baseline in %d fresh blocks: x%.3f (%s), %s", c.Arm, c.Blocks, c.Ratio, ratioInterval(c), decisionWords(c))
}

// tuneFileLines say what tune did to the program's files.
func tuneFileLines(f report.TuneFiles) []string {
	var out []string
	add := func(what string, paths []string) {
		if len(paths) > 0 {
			out = append(out, what+": "+strings.Join(paths, ", "))
		}
	}
	add("\nfiles the program creates, removed before each run (the last baseline run's are kept)", f.Created)
	add("files it appends to, cut back to their first size before each run", f.Appended)
	add("files it truncates or updates in place, saved before its first run and put back before each", f.Restored)
	add("files outside the working directory it updates in place, saved after app's traced run and put back to that before each (so after tune they are as two runs leave them)", f.SavedLate)
	add("files it truncates that tune holds no copy of (outside the working directory, or over --max-saved), rewritten by every run", f.Rewritten)
	add("files it wrote only through a descriptor it inherited (a shell's > out), left alone: tune's runs send that output to /dev/null", f.Inherited)
	add("outputs compared by checksum with the baseline's", f.Checked)
	return out
}

// TuneMarkdown is tune's report for a bug report or a ticket.
func TuneMarkdown(w io.Writer, r *report.TuneReport) error {
	var p printer
	p.F("## %s\n", tuneHeadline(r))
	if len(r.Command) > 0 {
		p.F("\n`%s`\n", page.ShellJoin(r.Command))
	}
	p.F("\n%s\n\n", page.Sentence(r.Verdict))
	p.F("| setting | runs | median s | 95%% interval s | ratio | ratio interval | app's estimate |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, a := range r.Arms {
		f := strings.Fields(armRow(report.TuneArm{Name: "x", Runs: a.Runs, Median: a.Median, Low: a.Low, High: a.High, Screen: a.Screen, Estimate: a.Estimate}))
		p.F("| %s | %s |\n", mdEscapePipes(a.Name), strings.Join(f[1:], " | "))
	}
	if c := r.Confirm; c != nil {
		p.F("\n%s\n", page.Sentence("Confirm: "+confirmWords(c)))
	}
	for _, a := range r.Arms {
		if why := armNote(a); why != "" {
			p.F("\n- %s\n", mdEscapePipes(why))
		}
	}
	if len(r.Apply) > 0 {
		p.F("\n### How to apply %s\n\n", r.Winner)
		p.Fenced("sh", r.Apply)
	}
	for _, l := range tuneFileLines(r.Files) {
		p.F("\n- %s\n", strings.TrimSpace(l))
	}
	for _, l := range append(append([]string{}, r.Cannot...), r.Notes...) {
		p.F("\n- note: %s\n", l)
	}
	return p.FlushTo(w)
}

// TuneJSON is the whole TuneReport.
func TuneJSON(w io.Writer, r *report.TuneReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
