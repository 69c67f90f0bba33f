package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
	"github.com/iobench/iobench/units"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/workload"
)

// appFilesShown is how many files per input the text lists, most bytes
// first; the JSON lists them all.
const appFilesShown = 10

// appSizesShown is how many size classes a file's line names.
const appSizesShown = 4

// AppText is the report for people: the verdict and what to set first,
// then each input's modules and files.
func AppText(w io.Writer, r *report.AppReport) error {
	var p printer
	p.F("%s\n", wrapped(appHeadline(r), 100, ""))
	for _, w := range r.Warnings {
		if r.Program != nil {
			p.F("%s\n", wrapped("warning: "+w, 100, "  "))
		}
	}
	if r.Program != nil {
		p.F("\n")
		for i, l := range programLines(r.Program) {
			if i == 0 {
				p.F("%s\n", wrapped(l, 100, "  "))
			} else {
				p.F("  %s\n", wrapped(l, 98, "    "))
			}
		}
	}
	if r.Estimate != nil {
		p.textVerdict(r)
	} else {
		p.F("\n%s\n", wrapped(noCurveWords(r), 100, ""))
	}
	for _, in := range r.Inputs {
		if untracedProgram(r) {
			break // nothing was read of its writes: the program lines say why
		}
		p.textInput(in)
	}
	for _, w := range r.Warnings {
		if r.Program == nil { // a program's are on the first screen
			p.F("\n%s\n", wrapped("warning: "+w, 100, "  "))
		}
	}
	return p.FlushTo(w)
}

// appHeadline names the inputs and the curve.
func appHeadline(r *report.AppReport) string {
	inputs := fmt.Sprintf("%d input", len(r.Inputs))
	if len(r.Inputs) != 1 {
		inputs += "s"
	}
	if r.Curve == nil {
		return "iobench app: " + inputs + ", no curve"
	}
	return fmt.Sprintf("iobench app: %s against the curve of %s (%s)", inputs, r.Curve.Path, curveWords(r.Curve))
}

func curveWords(c *report.AppCurve) string {
	parts := []string{cmp.Or(c.FS.Type, "file system type unknown")}
	if c.FS.MountPoint != "" {
		parts[0] += " at " + c.FS.MountPoint
	}
	if c.MaxSize > 0 {
		parts = append(parts, "write sizes "+units.FormatSize(c.MinSize)+"-"+units.FormatSize(c.MaxSize))
	}
	switch {
	case c.Knee == 0:
		parts = append(parts, "no knee")
	case c.Established:
		parts = append(parts, "knee "+units.FormatSize(c.Knee)+", established")
	default:
		parts = append(parts, "knee "+units.FormatSize(c.Knee)+", not established")
	}
	return strings.Join(parts, ", ")
}

// noCurveWords says how to get the curve that gives the sizes a cost.
func noCurveWords(r *report.AppReport) string {
	if untracedProgram(r) {
		return "Without a trace there are no write(2) calls to price: with strace installed and allowed to trace (see the line above), app runs the program under it and measures a curve that matches it."
	}
	if r.Program != nil && r.Program.NoCurve != "" {
		return "There is nothing to price: " + r.Program.NoCurve
	}
	if r.Program != nil {
		return "There is nothing to price: " + strings.Join(r.Program.Notes, "; ")
	}
	dir := "<the directory the program wrote to>"
	if m := busiestMount(r); m != "" {
		dir = m
	}
	return fmt.Sprintf("The sizes alone, without a curve: to know what these writes cost, measure the file system "+
		"they went to (iobench sweep --dir %s --format json -o curve.json), then give it here with --curve curve.json.", page.ShellWord(dir))
}

// busiestMount is the mount that took the most bytes, "" if none is known.
func busiestMount(r *report.AppReport) string {
	bytes := map[string]int64{}
	for _, in := range r.Inputs {
		for _, f := range in.Files {
			if f.Mount != "" {
				bytes[f.Mount] += f.BytesWritten
			}
		}
	}
	best := ""
	for m, b := range bytes {
		if best == "" || b > bytes[best] || (b == bytes[best] && m < best) {
			best = m
		}
	}
	return best
}

// textVerdict is the answer: what the writes cost here, what they would
// cost at the recommended size, what Drishti's rule says of them, and
// what to set.
func (p *printer) textVerdict(r *report.AppReport) {
	p.F("\nwhat the writes cost here:\n")
	for _, l := range verdictLines(r) {
		p.F("  %s\n", wrapped(l, 98, "    "))
	}
	head, lines := setLines(r)
	lead := "what to set: "
	if strings.HasPrefix(head, "for ") {
		lead = "what to set, "
	}
	p.F("\n%s\n", wrapped(lead+head, 100, ""))
	for _, l := range lines {
		p.F("%s\n", l)
	}
}

// verdictLines are the verdict, a sentence each.
func verdictLines(r *report.AppReport) []string {
	e, c := r.Estimate, r.Curve
	var out []string
	switch {
	case e.EstimatedCalls+e.OutsideCalls == 0:
		out = append(out, "the inputs have no write calls: nothing to estimate.")
	case e.EstimatedCalls == 0:
		out = append(out, "no write call of the inputs has a size the curve measured, so none is estimated.")
	default:
		out = append(out, fmt.Sprintf("now: %s (%s) for %s in %d write(2) calls%s, at the curve's throughput of their sizes.",
			secondsWords(e.SecondsNow), rangeWords(e.SecondsNowLow, e.SecondsNowHigh), bytesWords(e.EstimatedBytes), e.EstimatedCalls, ofOneSize(r)))
		out = append(out, recommendedWords(e, c))
	}
	if e.OutsideCalls > 0 {
		out = append(out, fmt.Sprintf("%d write calls (%s) have sizes outside the curve's %s-%s and are not estimated; "+
			"sweep those sizes too (--min, --max or --sizes) to count them.",
			e.OutsideCalls, bytesWords(e.OutsideBytes), units.FormatSize(c.MinSize), units.FormatSize(c.MaxSize)))
	}
	if w := programWords(r); w != "" {
		out = append(out, w)
	} else if e.MeasuredWriteSeconds > 0 && e.EstimatedCalls > 0 {
		out = append(out, measuredWords(e))
	}
	if s := e.SmallWrites; s != nil && s.Flagged {
		out = append(out, smallWords(s, c))
	}
	return out
}

// ofOneSize is " of SIZE" when every estimated write(2) call has that
// one size, else "".
func ofOneSize(r *report.AppReport) string {
	var size int64
	for _, in := range r.Inputs {
		for _, f := range in.Files {
			if f.Estimate == nil {
				continue
			}
			for _, c := range f.Estimate.Classes {
				if c.Outside || c.Calls == 0 {
					continue
				}
				if c.Low != c.High || (size != 0 && c.Low != size) {
					return ""
				}
				size = c.Low
			}
		}
	}
	if size == 0 {
		return ""
	}
	return " of " + units.FormatSize(size)
}

// measuredWords holds the estimate against the time the logs measured.
func measuredWords(e *report.AppEstimate) string {
	if e.MeasuredBy == report.MeasuredByMixed {
		return fmt.Sprintf("the inputs measured %s in these writes, part of it by strace's -T, which adds the tracer's cost to every call: the estimate is not held against it.", secondsWords(e.MeasuredWriteSeconds))
	}
	if e.MeasuredBy != report.MeasuredByDarshan && e.MeasuredBy != "" {
		return fmt.Sprintf("strace's -T time of these writes is %s: the tracer adds its own cost to every call, so the estimate is not held against it (iobench app -- PROG times the program untraced).", secondsWords(e.MeasuredWriteSeconds))
	}
	head := fmt.Sprintf("Darshan measured %s in these writes (summed over ranks)", secondsWords(e.MeasuredWriteSeconds))
	a := e.AccountsFor
	switch {
	case a >= 2:
		return fmt.Sprintf("%s; the estimate is %.1fx that: where the program ran, its writes went faster than on the curve's file system (another file system, or a cache the curve's flush kept out).", head, a)
	case a <= 0.5:
		return fmt.Sprintf("%s; the estimate accounts for %.0f%% of it: the rest is not the cost of write sizes (waits on other ranks, metadata, a slower or busier file system).", head, 100*a)
	}
	return fmt.Sprintf("%s; the estimate accounts for %.0f%% of it.", head, 100*a)
}

// recommendedWords is the estimate at the recommended size, and whether
// it is a real gain: more than the knee's band even at its interval's low
// end.
func recommendedWords(e *report.AppEstimate, c *report.AppCurve) string {
	switch {
	case c.Recommended == 0:
		return "the curve has no knee, so there is no size to recommend and no saving to estimate."
	case atOrAbove(e) && c.Recommended <= c.MaxSize:
		return fmt.Sprintf("the write(2) calls are at or above the recommended %s already: nothing to save by their size.", units.FormatSize(c.Recommended))
	case realGain(e.GainLow, c):
		return fmt.Sprintf("in %s writes: %s (%s), %s less: %s.", units.FormatSize(c.Recommended),
			secondsWords(e.SecondsAtRecommended), rangeWords(e.SecondsAtRecLow, e.SecondsAtRecHigh), secondsWords(e.SavingSeconds), appGainWords(e.Gain, e.GainLow, e.GainHigh))
	}
	return fmt.Sprintf("in %s writes about the same, %s (%s): the write sizes are not what costs time here.",
		units.FormatSize(c.Recommended), secondsWords(e.SecondsAtRecommended), appGainWords(e.Gain, e.GainLow, e.GainHigh))
}

// atOrAbove: every estimated call is at or above the recommended size,
// so the estimate keeps each as it is.
func atOrAbove(e *report.AppEstimate) bool {
	return e.SecondsAtRecommended == e.SecondsNow && e.SecondsAtRecLow == e.SecondsNowLow && e.SecondsAtRecHigh == e.SecondsNowHigh
}

// realGain: faster by more than the knee's band, even at the low end.
func realGain(low float64, c *report.AppCurve) bool { return c.Fraction > 0 && low > 1/c.Fraction }

func smallWords(s *report.AppSmallWrites, c *report.AppCurve) string {
	head := fmt.Sprintf("Drishti would flag %d of %d write calls as small (below 1 MiB, 1 MiB included)", s.Calls, s.Of)
	if s.CurveAgrees {
		return fmt.Sprintf("%s; the curve agrees: they take %s here, %s in %s writes (%s).", head, secondsWords(s.SecondsNow),
			secondsWords(s.SecondsAtRecommended), units.FormatSize(c.Recommended), appGainWords(s.Gain, s.GainLow, s.GainHigh))
	}
	if s.SecondsNow == s.SecondsAtRecommended && c.Recommended <= c.MaxSize {
		return fmt.Sprintf("%s; the curve does not agree: they are at or above its recommended %s already (%s here).", head, units.FormatSize(c.Recommended), secondsWords(s.SecondsNow))
	}
	return fmt.Sprintf("%s; the curve does not agree: they take %s here and %s in %s writes (%s), within the knee's band.",
		head, secondsWords(s.SecondsNow), secondsWords(s.SecondsAtRecommended), units.FormatSize(c.Recommended), appGainWords(s.Gain, s.GainLow, s.GainHigh))
}

// setLines is what to set: the settings of the runtimes the inputs show,
// as shell lines after a sentence saying what shows them, or only the
// sentence when there is nothing to set.
func setLines(r *report.AppReport) (string, []string) {
	e, c := r.Estimate, r.Curve
	if len(e.Evidence) == 0 {
		if e.EstimatedCalls+e.OutsideCalls == 0 {
			return "nothing; the inputs show no write calls.", nil
		}
		if e.EstimatedCalls > 0 && realGain(e.GainLow, c) {
			return fmt.Sprintf("no I/O library shows in the inputs, so the program makes these write(2) calls itself: "+
				"buffer them to at least %s (%d bytes) a call.", units.FormatSize(c.Recommended), c.Recommended), nil
		}
		return "nothing; no I/O library shows in the inputs, and their write sizes cost no more than the recommended one.", nil
	}
	var why []string // runtimes that share a reason named together
	var titles []string
	for i, ev := range e.Evidence {
		titles = append(titles, advice.RuntimeTitle(ev.Runtime))
		if i+1 == len(e.Evidence) || e.Evidence[i+1].Why != ev.Why {
			why = append(why, strings.Join(titles, " and ")+": "+ev.Why)
			titles = nil
		}
	}
	head := "for what the inputs show (" + strings.Join(why, "; ") + ")"
	if len(e.Apply) == 0 {
		return head + ", nothing: the curve gives no recommendation to apply.", nil
	}
	return head + ":", page.ApplyLines(e.Apply, c.FS.ResolvedDir)
}

func secondsWords(s float64) string {
	switch {
	case s >= 100:
		return fmt.Sprintf("%.0f s", s)
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	}
	return fmt.Sprintf("%.3g s", s)
}

func rangeWords(lo, hi float64) string {
	return strings.TrimSuffix(secondsWords(lo), " s") + "-" + secondsWords(hi)
}

func appGainWords(g, lo, hi float64) string {
	if g == 0 {
		return "no gain estimated"
	}
	return fmt.Sprintf("x%.2f, %.2f-%.2f", g, lo, hi)
}

func bytesWords(n int64) string { return humanize.IBytes(uint64(n)) }

// textInput is one input: what it is, its modules' totals and its files.
func (p *printer) textInput(in report.AppInput) {
	p.F("\n%s\n", wrapped(inputWords(in), 100, "  "))
	for _, n := range in.Notes {
		p.F("  note: %s\n", wrapped(n, 92, "    "))
	}
	if len(in.Modules) == 0 {
		p.F("  no POSIX, MPI-IO or STDIO records\n")
		return
	}
	p.F("  module   records  files      writes  bytes written            write time s  write sizes (Darshan's bins)\n")
	for _, m := range in.Modules {
		p.F("  %-7s %8d %6d %11d  %-23s %13.3f  %s\n", m.Module, m.Records, m.Files, m.Writes,
			fmt.Sprintf("%s (%d)", bytesWords(m.BytesWritten), m.BytesWritten), m.WriteSeconds, histogramWords(m.Histogram))
	}
	files := slices.Clone(in.Files)
	slices.SortStableFunc(files, func(a, b report.AppFile) int { return cmp.Compare(b.BytesWritten, a.BytesWritten) })
	if len(files) > 0 {
		p.F("  files, most bytes first (write time as the log measured it, summed over ranks):\n")
	}
	for i, f := range files {
		if i == appFilesShown {
			p.F("  ... and %d more files (the JSON report lists them all)\n", len(files)-appFilesShown)
			break
		}
		p.F("    %s\n      %s\n", fileHead(f), wrapped(fileWords(f), 92, "      "))
	}
}

func inputWords(in report.AppInput) string {
	what := "strace trace"
	if in.Kind == workload.KindDarshan {
		what = fmt.Sprintf("Darshan log, format %s (%s)", in.DarshanVersion, in.Compression)
	}
	procs := fmt.Sprintf("%d processes", in.NProcs)
	if in.NProcs == 1 {
		procs = "1 process"
	}
	s := fmt.Sprintf("%s: %s, %s", in.Path, what, procs)
	if in.Exe != "" {
		s += ", " + in.Exe
	}
	if len(in.Partial) > 0 {
		s += fmt.Sprintf("; PARTIAL data in %s: its totals are lower bounds", strings.Join(in.Partial, ", "))
	}
	if len(in.Skipped) > 0 {
		s += "; not read: " + strings.Join(in.Skipped, ", ")
	}
	return s
}

// histogramWords is the non-empty bins, "100K_1M 2048, 1M_4M 3".
func histogramWords(h map[string]int64) string {
	if h == nil {
		return "none (the module keeps only the mean size)"
	}
	var parts []string
	for _, b := range workload.BinNames {
		if h[b] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", b, h[b]))
		}
	}
	if len(parts) == 0 {
		return "no writes"
	}
	return strings.Join(parts, ", ")
}

func fileHead(f report.AppFile) string {
	where := f.Module
	if f.Mount != "" {
		where += ", on " + f.Mount + " " + f.FSType
	}
	recs := fmt.Sprintf("%d records", f.Records)
	switch {
	case f.Shared && f.Records == 1:
		recs = "one record shared by all ranks"
	case f.Records == 1:
		recs = "1 record"
	}
	return fmt.Sprintf("%s (%s, %s)", f.Path, where, recs)
}

func fileWords(f report.AppFile) string {
	s := fmt.Sprintf("%d writes, %s; %s; measured %s", f.Writes, bytesWords(f.BytesWritten), sizesWords(f), secondsWords(f.WriteSeconds))
	if f.CollectiveWrites+f.IndependentWrites > 0 {
		s += fmt.Sprintf("; %d collective, %d independent", f.CollectiveWrites, f.IndependentWrites)
	}
	if e := f.Estimate; e != nil && e.EstimatedCalls > 0 {
		s += fmt.Sprintf("; here %s, at the recommended size %s (%s)", secondsWords(e.SecondsNow), secondsWords(e.SecondsAtRecommended), appGainWords(e.Gain, e.GainLow, e.GainHigh))
		if e.Basis == advice.BasisStdio && len(e.Classes) == 1 {
			s += fmt.Sprintf(", in the %d write(2) calls of %s that C stdio's buffer makes of it", e.Classes[0].Calls, sizeWord(e.Classes[0].Low))
		}
	}
	return s
}

// sizesWords names the classes with the most calls: "131072 B x 2048".
func sizesWords(f report.AppFile) string {
	if len(f.Sizes) == 0 {
		return fmt.Sprintf("mean %s a call (no size histogram)", sizeWord(f.MeanSize))
	}
	sizes := slices.Clone(f.Sizes)
	if e := f.Estimate; e != nil && e.Basis != advice.BasisStdio {
		sizes = slices.Clone(e.Classes) // the same sizes, with what the curve says of them
	}
	slices.SortStableFunc(sizes, func(a, b report.AppSizeClass) int { return cmp.Compare(b.Calls, a.Calls) })
	var parts []string
	for i, c := range sizes {
		if i == appSizesShown {
			parts = append(parts, fmt.Sprintf("%d more sizes", len(sizes)-appSizesShown))
			break
		}
		parts = append(parts, classWords(c))
	}
	return strings.Join(parts, ", ")
}

func classWords(c report.AppSizeClass) string {
	if c.Outside {
		return classRange(c) + " (outside the curve)"
	}
	return classRange(c)
}

func classRange(c report.AppSizeClass) string {
	s := fmt.Sprintf("%s x %d", sizeWord(c.Low), c.Calls)
	if c.Low != c.High {
		s = fmt.Sprintf("%s (%s-%s) x %d", c.Bin, sizeWord(c.Low), sizeWord(c.High), c.Calls)
	}
	return s
}

// sizeWord is an exact size in bytes, with its binary unit when whole.
func sizeWord(n int64) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%d B (%s)", n, units.FormatSize(n))
	}
	return fmt.Sprintf("%d B", n)
}

// wrapped is s broken into lines of at most width columns, as one string.
func wrapped(s string, width int, indent string) string {
	return strings.Join(wrap(s, width, indent), "\n")
}
