package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/verdict"
)

// Text writes the report with its answer first: a short header, the
// verdict, then the file system facts, the results table, the knee and
// the details. Prose wraps to textWidth columns; tables do not.
func Text(w io.Writer, r *report.Report) error {
	return textOf(w, r, (*printer).textLead, (*printer).textRest)
}

// TextLead is the short header, printed before any run so a user sees at
// once what is being measured.
func TextLead(w io.Writer, r *report.Report) error { return textOf(w, r, (*printer).textLead) }

// TextRest is everything after the short header: the verdict, the facts,
// the tables, the knee and the details.
func TextRest(w io.Writer, r *report.Report) error { return textOf(w, r, (*printer).textRest) }

// TextHeader is what statvfs and the plan say: the info command's report.
func TextHeader(w io.Writer, r *report.Report) error { return textOf(w, r, (*printer).textHeader) }

// textOf writes the parts of r, wrapped.
func textOf(w io.Writer, r *report.Report, parts ...func(*printer, *report.Report)) error {
	var p printer
	for _, part := range parts {
		part(&p, r)
	}
	return p.flushText(w)
}

// textLead is the title and one line on what is measured.
func (p *printer) textLead(r *report.Report) {
	p.F("%s: %s throughput by write(2) size\n", toolTitle(r.Tool), DirectionWord(r.Config.Mode))
	if line := measuredLine(r); line != "" {
		p.F("measured:   %s\n", line)
	}
}

// measuredLine is where and what a sweep measures, as far as known.
func measuredLine(r *report.Report) string {
	var parts []string
	if fs := r.FS; fs.Type != "" || fs.ResolvedDir != "" {
		parts = append(parts, strings.TrimSpace(cmp.Or(fs.Type, "a file system")+" at "+cmp.Or(fs.ResolvedDir, "?")))
	}
	if c := r.Config; c.TotalBytes > 0 {
		parts = append(parts, humanize.IBytes(uint64(c.TotalBytes))+" per run")
	}
	if sizes := r.Config.Sizes; len(sizes) > 0 {
		parts = append(parts, fmt.Sprintf("%d sizes from %s to %s", len(sizes), sizeName(slices.Min(sizes)), sizeName(slices.Max(sizes))))
	}
	return strings.Join(parts, ", ")
}

// textRest is the verdict, the facts and the body.
func (p *printer) textRest(r *report.Report) {
	p.F("\n")
	for _, l := range sweepVerdictLines(r) {
		p.F("%s\n", l)
	}
	p.F("\n")
	p.textFacts(r)
	p.textBody(r)
}

func (p *printer) textHeader(r *report.Report) {
	p.F("%s: %s throughput by write(2) size\n", toolTitle(r.Tool), DirectionWord(r.Config.Mode))
	p.textFacts(r)
}

// textFacts are the file system's facts and the plan.
func (p *printer) textFacts(r *report.Report) {
	fs := r.FS
	// Results read back by analyze may lack the facts of a live run.
	if fs.ResolvedDir != "" {
		p.F("dir:        %s%s\n", fs.ResolvedDir, symlinkNote(r))
	}
	if fs.MagicHex != "" {
		p.F("fs:         %s (f_type %s, %s), mounted at %s from %s\n", fs.Type, fs.MagicHex, fs.MagicName, fs.MountPoint, fs.Device)
		p.F("options:    %s\n", fs.MountOptions)
	} else if fs.Type != "" {
		p.F("fs:         %s\n", fs.Type)
	}
	p.F("blocks:     %s\n", blocksLine(fs.BlockSize, fs.FragmentSize, fs.IOBlockSize))
	if fs.TotalBytes > 0 {
		p.F("space:      %s available of %s\n", humanize.IBytes(fs.AvailBytes), humanize.IBytes(fs.TotalBytes))
	}
	c := r.Config
	if c.TotalBytes > 0 {
		p.F("data:       %s\n", dataLine(c))
		if c.Profile != "" {
			p.F("profile:    %s\n", profileLine(c))
		}
		p.F("conversion: %s byte order, stride %d\n", c.Convert, c.Stride)
		p.F("timing:     %s\n", timingLine(c))
		if len(c.Variants) > 0 {
			p.F("variants:   %s\n", variantsLine(c))
		}
		if c.Jobs > 1 {
			p.F("jobs:       %s\n", jobsLine(c, r.Jobs))
		}
	}
	for _, kv := range mpiPairs(r) {
		p.F("%-12s%s\n", kv[0]+":", kv[1])
	}
}

func dataLine(c report.Config) string {
	line := fmt.Sprintf("%d %s elements = %d B (%s) per run", c.Count, c.ElementType, c.TotalBytes, humanize.IBytes(uint64(c.TotalBytes)))
	if c.SourceBytes > 0 { // unknown for results read back from other tools
		line += fmt.Sprintf("; source %s (%s in memory)", c.Source, humanize.IBytes(uint64(c.SourceBytes)))
	}
	if c.Data != "" {
		line += "; data " + dataWords(c)
	}
	return line
}

// toolTitle names what measured: "iobench 0.1.0", or the other program
// whose output analyze read.
func toolTitle(t report.Tool) string {
	return strings.TrimSpace(t.Name + " " + t.Version)
}

// blocksLine lists the block sizes that are known (non-zero).
func blocksLine(bsize, frsize, blksize int64) string {
	var parts []string
	for _, b := range []struct {
		name string
		v    int64
	}{{"f_bsize", bsize}, {"f_frsize", frsize}, {"st_blksize", blksize}} {
		if b.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d B", b.name, b.v))
		}
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, ", ")
}

func elementsColumn(c report.Config) bool {
	return c.Profile == report.GfortranProfile && c.ElementSize > 0
}

func profileLine(c report.Config) string {
	s := c.Profile
	if c.ProfileWhy != "" {
		s += ": " + c.ProfileWhy
	}
	if elementsColumn(c) {
		s += fmt.Sprintf("; write sizes are defined in %s elements of %d B (the elements column)", c.ElementType, c.ElementSize)
	}
	return s
}

func symlinkNote(r *report.Report) string {
	if r.FS.DirIsSymlink {
		return fmt.Sprintf(" (--dir %s is a symlink)", r.FS.Dir)
	}
	return ""
}

func timingLine(c report.Config) string {
	parts := []string{"open..close on " + cmp.Or(c.Clock, "a monotonic clock")}
	if c.Mode != record.ModeRead {
		parts = append(parts, writeTimingWords(c)...)
	}
	if c.TimeLimit > 0 {
		parts = append(parts, fmt.Sprintf("each run stops after %s (--time-limit)", formatSeconds(c.TimeLimit)))
	}
	parts = append(parts, fmt.Sprintf("%s before each run (untimed)", c.Sync))
	rounds := "1 round"
	switch {
	case c.Auto:
		rounds = fmt.Sprintf("adaptive rounds (--repeat auto: at least %d, then the sizes that decide the knee until it is established, within %s)", record.MinAutoRounds, budgetWords(c))
	case c.Repeat != 1:
		rounds = advice.RoundsWord(c.Repeat)
	}
	parts = append(parts, fmt.Sprintf("%s, %s order", rounds, c.Order))
	if c.Order == record.Shuffled {
		parts[len(parts)-1] += fmt.Sprintf(" (seed %d)", c.Seed)
	}
	if c.Mode != record.ModeWrite {
		parts = append(parts, "reads after "+string(c.Drop)+" cache drop")
	}
	if c.Direct {
		parts = append(parts, "O_DIRECT")
	}
	return strings.Join(parts, "; ")
}

func (p *printer) textBody(r *report.Report) {
	p.F("warm-up:    %s\n", ranOrNot(r))
	if r.Adaptive != nil {
		p.F("rounds:     %s\n", AdaptiveLine(r.Adaptive))
	}
	for _, mode := range []record.Mode{record.ModeWrite, record.ModeRead} {
		for _, v := range r.Views() {
			p.textMode(v, mode)
		}
		p.textRatios(r, mode)
	}
	if r.MPI != nil && r.MPI.MPIIO != nil {
		p.F("\nmpi-io hints: %s\n", hintsLine(r.MPI.MPIIO))
	}
	p.textRecommendation(r)
	if v := r.Verified; v != nil {
		p.F("verified: %d files read back, %d %s elements (%d bytes) checked, all as written\n", v.Files, v.Elements, r.Config.ElementType, v.Bytes)
	}
	if r.KeptFile != "" {
		p.F("kept data file: %s\n", r.KeptFile)
	}
	for _, l := range r.LeftFiles {
		p.F("LEFT BEHIND: %s (could not remove it: %s)\n", l.Path, l.Err)
	}
	for _, warn := range r.AllWarnings() {
		p.F("warning: %s\n", warn)
	}
	if r.Incomplete {
		p.F("INCOMPLETE: %s\n", r.Error)
	}
}

// textMode is one direction of one report (or variant): its table, chart,
// knee and spread across ranks or jobs.
func (p *printer) textMode(r *report.Report, mode record.Mode) {
	rows := verdict.ModeRows(r.Results, mode)
	if len(rows) == 0 {
		return
	}
	est := r.KneeFor(mode)
	k := est.Result
	p.F("\n%s\n", sectionTitle(r, mode))
	p.textTable(r, rows, k)
	p.textIO(r, rows)
	p.F("\n")
	p.keep(chart(rows, k))
	p.F("\n%s\n", KneeLine(est, rows))
	if line := establishedLine(r, est); line != "" {
		p.F("%s\n", line)
	}
	if mode == r.Config.PrimaryMode() && r.KneeStability != nil {
		p.F("%s\n", StabilityLine(*r.KneeStability))
	}
	if r.MPI != nil {
		p.textRanks(r, rows)
	}
	p.textJobs(r, rows)
}

func ranOrNot(r *report.Report) string {
	if r.WarmupRan {
		return "one untimed pass at the largest size ran first"
	}
	return "none"
}

func (p *printer) textTable(r *report.Report, rows []record.SizeResult, k knee.Result) {
	cols := tableColumns(r, rows)
	lines := []string{strings.Join(cols.head(), "\t") + "\t"}
	for _, row := range rows {
		cells := cols.cells(row, k)
		line := strings.Join(cells, "\t") + "\t"
		if k.PlateauMiBPerSec > 0 {
			line += " " + bar(plateauShare(row, k)) + kneeMark(row, k)
		}
		lines = append(lines, line)
	}
	p.table(lines)
	if cols.repeated && anyWide(rows) {
		p.F("! CV above %.0f%%: this size's repeats disagree, so its median is unreliable\n", 100*knee.WideCV)
	}
}

func kneeMark(row record.SizeResult, k knee.Result) string {
	if KneeShown(k) && row.WriteSize == k.WriteSize {
		return " <- knee"
	}
	return ""
}

func anyWide(rows []record.SizeResult) bool {
	for _, r := range rows {
		if r.WideSpread {
			return true
		}
	}
	return false
}

const barWidth = 20

func bar(frac float64) string {
	n := int(frac*barWidth + 0.5)
	n = min(max(n, 0), barWidth)
	return strings.Repeat("#", n) + strings.Repeat(".", barWidth-n)
}
