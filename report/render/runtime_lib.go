package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/report"
)

// LibraryReporter writes a library runtime report (mpiio, hdf5) in one
// format.
type LibraryReporter func(w io.Writer, r *report.LibraryReport) error

// libraryTitle is the library a report's figures are of.
func libraryTitle(r *report.LibraryReport) string {
	name := map[libcheck.Runtime]string{libcheck.MPIIO: "MPI-IO", libcheck.HDF5: "HDF5"}[r.Runtime]
	if v := r.Library.Version; v != "" {
		name += " (" + v + ")"
	}
	return name
}

// LibraryText writes the library report for people.
func LibraryText(w io.Writer, r *report.LibraryReport) error {
	var p printer
	p.F("%s: %s writes through %s\n", toolTitle(r.Tool), r.Runtime, libraryTitle(r))
	p.libraryHeader(r, "")
	p.F("\n%s", tabulate(libraryTable(r, "\t", "\t")))
	p.libraryNotes(r, "")
	if len(r.Apply) > 0 {
		p.textApply(asSweepReport(&r.RuntimeReport))
	}
	return p.FlushTo(w)
}

// LibraryMarkdown writes the library report for a bug report or a wiki.
func LibraryMarkdown(w io.Writer, r *report.LibraryReport) error {
	var p printer
	p.F("## %s: %s writes through %s\n\n", toolTitle(r.Tool), r.Runtime, libraryTitle(r))
	p.libraryHeader(r, "- ")
	p.F("\n")
	p.mdLines(libraryTable(r, " | ", " |"))
	p.libraryNotes(r, "- ")
	if len(r.Apply) > 0 {
		p.mdApply(asSweepReport(&r.RuntimeReport))
	}
	return p.FlushTo(w)
}

// LibraryJSON writes the library report as one indented JSON document.
func LibraryJSON(w io.Writer, r *report.LibraryReport) error {
	out := *r
	emptyLists(&out.RuntimeReport)
	return encodeIndented(w, &out)
}

// ranStrided: the MPI-IO check ran strided (and packed) memory.
func ranStrided(r *report.LibraryReport) bool {
	return slices.ContainsFunc(r.Summary.Cases, func(c libcheck.CaseSummary) bool { return c.Memory != libcheck.MemoryContiguous })
}

// windowSource says what memory the window source of an MPI-IO check
// holds: one call's elements, at their stride where strided or packed
// cases ran.
func windowSource(r *report.LibraryReport) string {
	lp := r.Library
	mem := sizeName(lp.CallBytes)
	if lp.Stride > 1 && ranStrided(r) {
		mem += fmt.Sprintf("; %s in the strided and packed cases", sizeName(lp.CallBytes*int64(lp.Stride)))
	}
	return fmt.Sprintf("a window of one call's data per rank (%s), written again by every call, as IOR writes its one buffer", mem)
}

func (p *printer) libraryHeader(r *report.LibraryReport, bullet string) {
	c, lp := r.Config, r.Library
	p.writerLines(&r.RuntimeReport, bullet)
	if r.Runtime == libcheck.MPIIO {
		strided := ""
		if ranStrided(r) {
			strided = fmt.Sprintf("; strided memory: every %s %s (MPI_Type_vector)", ordinal(lp.Stride), lp.Type)
		}
		p.F("%sdata:       %s per rank on %d ranks (%d node(s)), in MPI-IO calls of %s%s\n", bullet,
			humanize.IBytes(uint64(c.TotalBytes)), lp.Ranks, lp.Hosts, sizeName(lp.CallBytes), strided)
		if lp.Source == libcheck.SourceWindow {
			p.F("%ssource:     %s\n", bullet, windowSource(r))
		}
		if lp.Launch != "" {
			p.F("%slaunch:     %s\n", bullet, lp.Launch)
		}
	} else {
		p.F("%sdata:       a 1-D dataset of %d float64 = %s per run; records: H5Dwrite of %s hyperslabs; chunks of %s\n", bullet,
			c.Elements, humanize.IBytes(uint64(c.TotalBytes)), sizeName(c.RecordBytes), sizeName(lp.ChunkBytes))
	}
	if c.Profile != "" {
		p.F("%sprofile:    %s\n", bullet, c.Profile)
	}
	p.timingLines(&r.RuntimeReport, bullet, "adaptive rounds (--repeat auto), within "+runtimeBudgetWords(c.TimeBudgetSeconds))
}

// ordinal is "2nd", "3rd", "10th".
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		suffix = map[int]string{1: "st", 2: "nd", 3: "rd"}[n%10]
		if suffix == "" {
			suffix = "th"
		}
	}
	return strconv.Itoa(n) + suffix
}

// libraryTable is the table's lines, cells joined by sep and ended by
// end: the header, then a row per case.
func libraryTable(r *report.LibraryReport, sep, end string) []string {
	head := []string{"case", "setting", "MiB/s", "interval", "calls", "B/call", "predicted", "rule", "gain", "gain interval", "write(2) gain", "agreement"}
	lines := []string{strings.Join(head, sep) + end}
	for _, c := range r.Summary.Cases {
		calls, per := "-", "-"
		if c.WriteCalls >= 0 {
			calls, per = itoa(c.WriteCalls), fmt.Sprintf("%.0f", c.MeanCallBytes)
		}
		gain, gci, sgain, agree := "-", "-", "-", "-"
		if g := c.Gain; g != nil {
			gain, gci = fmt.Sprintf("x%.2f", g.Ratio), fmt.Sprintf("%.2f-%.2f", g.Low, g.High)
		}
		if sp := c.Sweep; sp != nil {
			if !c.Default {
				sgain = fmt.Sprintf("x%.2f", sp.Gain)
			}
			agree = agreementWord(sp)
		}
		cells := []string{libcheck.CaseName(c.Case), libcheck.SettingName(c.Case), fmt.Sprintf("%.1f", c.MiBPerSec), fmt.Sprintf("%.1f-%.1f", c.CILow, c.CIHigh),
			calls, per, predictedCell(c), ruleID(c), gain, gci, sgain, agree}
		lines = append(lines, strings.Join(cells, sep)+end)
	}
	return lines
}

// predictedCell is the rule's calls: the data's, plus the library's own
// (a range where they vary); ! when a run made others.
func predictedCell(c libcheck.CaseSummary) string {
	if c.NoRule != "" {
		return "?"
	}
	s := itoa(c.Predicted.Count)
	if o := c.PredictedOverhead; o != nil && o.Max > 0 {
		s += "+" + itoa(o.Min)
		if o.Max != o.Min {
			s += ".." + itoa(o.Max)
		}
	}
	if !c.CallsAsPredicted && c.WriteCalls >= 0 {
		s += " !"
	}
	return s
}

// ruleID is the rule's short name: "R5", "O3", "H1".
func ruleID(c libcheck.CaseSummary) string {
	id, _, _ := strings.Cut(c.Rule, " ")
	if id == "" {
		return "-"
	}
	return id
}

func (p *printer) libraryNotes(r *report.LibraryReport, bullet string) {
	rate, calls, own := "", "", "HDF5's metadata"
	if r.Runtime == libcheck.MPIIO {
		rate, calls, own = "; all ranks' bytes over the time from the first rank's open to the last rank's close", ", summed over ranks", "OMPIO's at open, a range where ranks race"
	}
	p.F("\n%sMeasured through %s: MiB/s (median of the runs, %s interval%s), calls and B/call (write(2) calls the writer counted in /proc/self/io%s), gain (over the case's default).\n",
		bullet, libraryTitle(r), confidenceWord(r.Summary.Cases), rate, calls)
	p.F("%sInferred: predicted (the data's calls by the rule named, + the library's own calls: %s), write(2) gain (the sweep at the call sizes the rule gives). The rules and their sources: docs/runtime-checks.md.\n", bullet, own)
	p.callsVerdict(r, bullet)
	for _, pc := range r.Summary.Pack {
		p.F("%s%s\n", bullet, packLine(pc, r.Library))
	}
	for _, a := range r.Summary.Advice {
		p.F("%s%s, %s: %s; %s\n", bullet, libcheck.CaseName(*a.Case), libcheck.SettingName(*a.Case), adviceWord(a), a.Rule)
	}
	for _, n := range r.Library.Notes {
		p.F("%snot run: %s\n", bullet, n)
	}
	p.endLines(&r.RuntimeReport, bullet)
}

// callsVerdict says whether every case made its rule's calls, and for
// each that did not, which rule and by how much.
func (p *printer) callsVerdict(r *report.LibraryReport, bullet string) {
	if len(r.Summary.Cases) == 0 {
		return
	}
	if r.Summary.CallsAsPredicted {
		p.F("%swrite(2) calls: every run of every case made exactly the calls its rule predicts.\n", bullet)
		return
	}
	for _, c := range r.Summary.Cases {
		switch {
		case c.CallsAsPredicted || c.WriteCalls < 0:
		case c.NoRule != "":
			p.F("%swrite(2) calls: %s, %s: %s\n", bullet, libcheck.CaseName(c.Case), libcheck.SettingName(c.Case), c.NoRule)
		default:
			data := c.WriteCalls - c.OverheadCalls
			p.F("%swrite(2) calls: %s, %s: rule %s does not hold: %d calls for the data (median), predicted %d (%+.0f%%); %d of the library's own, predicted %s\n",
				bullet, libcheck.CaseName(c.Case), libcheck.SettingName(c.Case), ruleID(c), data, c.Predicted.Count,
				100*(float64(data)/float64(max(1, c.Predicted.Count))-1), c.OverheadCalls, overheadWords(c.PredictedOverhead))
		}
	}
}

func overheadWords(o *libcheck.CallRange) string {
	if o == nil {
		return "-"
	}
	if o.Min == o.Max {
		return itoa(o.Min)
	}
	return itoa(o.Min) + ".." + itoa(o.Max)
}

// packLine says what gathering strided memory cost in one MPI-IO case.
func packLine(pc libcheck.PackCost, lp report.LibraryConfig) string {
	mode := "independent"
	if pc.Collective {
		mode = "collective"
	}
	lib := "no measurable cost"
	if pc.LibraryGBps > 0 {
		lib = fmt.Sprintf("%.2f GB/s a rank, %.0f%% of its write time", pc.LibraryGBps, 100*pc.LibraryShare)
	}
	cached := ""
	if lp.Source == libcheck.SourceWindow {
		cached = "; both gathered from the window, hot in the CPU cache, where a program's arrays are not"
	}
	return fmt.Sprintf("pack cost, %s %s %s, every %s %s at calls of %s: the library's %s (x%.1f the contiguous write's time); iobench's packer (a typed loop) %.2f GB/s, %.0f%% of its write time%s",
		pc.Component, pc.Layout, mode, ordinal(lp.Stride), lp.Type, sizeName(lp.CallBytes), lib, pc.Slowdown, pc.PackerGBps, 100*pc.PackerShare, cached)
}

// adviceWord is what a library setting's measured gain says.
func adviceWord(a libcheck.Advice) string {
	g := "no gain measured"
	if a.Gain != nil {
		g = fmt.Sprintf("x%.2f (%.2f-%.2f)", a.Gain.Ratio, a.Gain.Low, a.Gain.High)
	}
	switch {
	case a.Verdict == libcheck.VerdictSet:
		return "set it: " + g + ", a real gain; " + a.Setting
	case a.Gain != nil && a.Gain.Ratio < 1:
		return "keep the default: it measured slower, " + g
	case a.Verdict == libcheck.VerdictEnough:
		return "the default does as well: " + g
	}
	return "undecided: " + g
}

var libraryCSVHeader = []string{
	"runtime", "case", "setting", "component", "layout", "collective", "memory", "storage", "convert", "setting_name", "setting_bytes", "switch", "default",
	"runs", "mib_per_s", "ci_low_mib_per_s", "ci_high_mib_per_s", "write_calls", "overhead_calls", "predicted_calls", "predicted_overhead_min",
	"predicted_overhead_max", "calls_as_predicted", "rule", "gain", "gain_ci_low", "gain_ci_high", "pack_ns", "fs_type", "total_bytes", "incomplete",
}

// LibraryCSV writes one row per case, with a header.
func LibraryCSV(w io.Writer, r *report.LibraryReport) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(libraryCSVHeader)
	for _, c := range r.Summary.Cases {
		lo, hi := int64(0), int64(0)
		if o := c.PredictedOverhead; o != nil {
			lo, hi = o.Min, o.Max
		}
		row := []string{string(r.Runtime), libcheck.CaseName(c.Case), libcheck.SettingName(c.Case), c.Component, string(c.Layout), strconv.FormatBool(c.Collective),
			c.Memory, c.Storage, c.Convert, c.Setting, itoa(c.BufferBytes), c.Switch, strconv.FormatBool(c.Default),
			strconv.Itoa(c.Runs), ftoa(c.MiBPerSec), ftoa(c.CILow), ftoa(c.CIHigh), itoa(c.WriteCalls), itoa(c.OverheadCalls), itoa(c.Predicted.Count),
			itoa(lo), itoa(hi), strconv.FormatBool(c.CallsAsPredicted), c.Rule}
		if g := c.Gain; g != nil {
			row = append(row, ftoa(g.Ratio), ftoa(g.Low), ftoa(g.High))
		} else {
			row = append(row, "", "", "")
		}
		row = append(row, itoa(c.PackNanos), r.FS.Type, itoa(r.Config.TotalBytes), strconv.FormatBool(r.Incomplete))
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
