package render

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
	"github.com/iobench/iobench/verdict"
)

// Markdown writes the report for pasting into a bug report: the command,
// the environment, one table per direction, the knee, the advice and the
// warnings. Tables are padded to aligned columns and everything else is a
// fenced block or a plain sentence, so it reads the same where Markdown is
// not rendered (GCC Bugzilla) as where it is (GitHub).
func Markdown(w io.Writer, r *report.Report) error {
	var p printer
	p.F("### %s: %s throughput by write(2) size\n", toolTitle(r.Tool), DirectionWord(r.Config.Mode))
	p.mdVerdict(sweepVerdictLines(r))
	if len(r.Command) > 0 {
		p.F("\nCommand:\n\n")
		p.Fenced("sh", []string{page.ShellJoin(r.Command)})
	}
	p.F("\nEnvironment:\n\n")
	p.Fenced("text", alignPairs(envPairs(r)))
	for _, mode := range []record.Mode{record.ModeWrite, record.ModeRead} {
		for _, v := range r.Views() {
			if rows := verdict.ModeRows(v.Results, mode); len(rows) > 0 {
				p.mdResults(v, mode, rows)
			}
		}
		p.mdRatios(r, mode)
	}
	p.mdRecommendation(r)
	p.mdWarnings(r)
	return p.FlushTo(w)
}

// DirectionWord is what a sweep of mode measured: "write", "read" or
// "write and read".
func DirectionWord(mode record.Mode) string {
	switch mode {
	case record.ModeRead:
		return "read"
	case record.ModeBoth:
		return "write and read"
	}
	return "write"
}

// envPairs is the environment a bug triager asks for, as label and value.
// Facts a report does not hold (results read back from another tool) are
// left out rather than shown empty.
func envPairs(r *report.Report) [][2]string {
	h, fs := r.Host, r.FS
	var pairs [][2]string
	add := func(known bool, label, value string) {
		if known {
			pairs = append(pairs, [2]string{label, value})
		}
	}
	add(r.Tool.Name == "iobench", "iobench", toolLine(r.Tool))
	add(r.Tool.Name != "iobench", "results of", toolTitle(r.Tool))
	add(r.Tool.GoVersion != "" || h.GoVersion != "", "go", cmp.Or(r.Tool.GoVersion, h.GoVersion))
	add(h.Kernel != "", "kernel", strings.TrimSpace(h.Kernel+" "+h.Arch))
	add(h.CPUs > 0, "cpu", fmt.Sprintf("%s, %d cores usable", cmp.Or(h.CPUModel, "unknown model"), h.CPUs))
	add(h.MemTotalBytes > 0, "memory", fmt.Sprintf("%s total, %s available at start", humanize.IBytes(h.MemTotalBytes), humanize.IBytes(h.MemAvailableBytes)))
	add(h.Hostname != "", "host", h.Hostname)
	add(fs.MagicHex != "", "fs", fmt.Sprintf("%s (f_type %s, %s)", fs.Type, fs.MagicHex, fs.MagicName))
	add(fs.MagicHex == "" && fs.Type != "", "fs", fs.Type)
	add(true, "block sizes", blocksLine(fs.BlockSize, fs.FragmentSize, fs.IOBlockSize))
	add(fs.MountPoint != "", "mount", fmt.Sprintf("%s from %s", fs.MountPoint, fs.Device))
	add(fs.MountOptions != "", "mount options", mountOptions(r))
	add(fs.ResolvedDir != "", "dir", fs.ResolvedDir+symlinkNote(r))
	add(fs.TotalBytes > 0, "free space", fmt.Sprintf("%s available, %s free, of %s", humanize.IBytes(fs.AvailBytes), humanize.IBytes(fs.FreeBytes), humanize.IBytes(fs.TotalBytes)))
	add(!r.StartTime.IsZero(), "start", r.StartTime.UTC().Format(time.RFC3339))
	add(r.DurationSeconds > 0, "duration", formatSeconds(r.DurationSeconds))
	return append(pairs, planPairs(r)...)
}

func toolLine(t report.Tool) string {
	s := t.Version
	if t.Revision != "" {
		s += ", revision " + t.Revision
	}
	return s
}

func mountOptions(r *report.Report) string {
	if r.FS.SuperOptions == "" {
		return r.FS.MountOptions
	}
	return r.FS.MountOptions + " (superblock: " + r.FS.SuperOptions + ")"
}

func formatSeconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

// planPairs is how the sweep measured.
func planPairs(r *report.Report) [][2]string {
	c := r.Config
	var pairs [][2]string
	if c.TotalBytes > 0 {
		pairs = append(pairs, [2]string{"data", dataLine(c)})
		if c.Profile != "" {
			pairs = append(pairs, [2]string{"profile", profileLine(c)})
		}
		pairs = append(pairs,
			[2]string{"conversion", fmt.Sprintf("%s byte order, stride %d", c.Convert, c.Stride)},
			[2]string{"timing", timingLine(c)})
	}
	if len(c.Variants) > 0 {
		pairs = append(pairs, [2]string{"variants", variantsLine(c)})
	}
	if c.Jobs > 1 {
		pairs = append(pairs, [2]string{"jobs", jobsLine(c, r.Jobs)})
	}
	pairs = append(pairs, [2]string{"warm-up", ranOrNot(r)})
	pairs = append(pairs, mpiPairs(r)...)
	if r.MPI != nil && r.MPI.MPIIO != nil {
		pairs = append(pairs, [2]string{"mpi-io hints", hintsLine(r.MPI.MPIIO)})
	}
	if r.KeptFile != "" {
		pairs = append(pairs, [2]string{"kept file", r.KeptFile})
	}
	for _, l := range r.LeftFiles {
		pairs = append(pairs, [2]string{"left behind", l.Path + " (" + l.Err + ")"})
	}
	return pairs
}

// alignPairs lines values up after their labels.
func alignPairs(pairs [][2]string) []string {
	width := 0
	for _, kv := range pairs {
		width = max(width, len(kv[0]))
	}
	lines := make([]string, len(pairs))
	for i, kv := range pairs {
		lines[i] = strings.TrimRight(fmt.Sprintf("%-*s %s", width+1, kv[0]+":", kv[1]), " ")
	}
	return lines
}

func (p *printer) mdResults(r *report.Report, mode record.Mode, rows []record.SizeResult) {
	est := r.KneeFor(mode)
	k := est.Result
	p.F("\n%s:\n\n", resultsCaption(r, mode))
	cols := tableColumns(r, rows)
	head := append(cols.head(), "note")
	var body [][]string
	for _, row := range rows {
		body = append(body, append(cols.cells(row, k), rowNote(row, k)))
	}
	p.mdTable(head, body)
	p.mdIO(r, rows)
	if cols.repeated && anyWide(rows) {
		p.F("\n! CV above %.0f%%: this size's repeats disagree, so its median is unreliable.\n", 100*knee.WideCV)
	}
	p.F("\n%s\n", page.Sentence(KneeLine(est, rows)))
	if line := establishedLine(r, est); line != "" {
		p.F("\n%s\n", page.Sentence(line))
	}
	if mode == r.Config.PrimaryMode() && r.KneeStability != nil {
		p.F("\n%s\n", page.Sentence(StabilityLine(*r.KneeStability)))
	}
	if r.MPI != nil {
		p.mdRanks(r, rows)
	}
	p.mdJobs(r, rows)
}

func resultsCaption(r *report.Report, mode record.Mode) string {
	s := fmt.Sprintf("Results, %s (MiB/s = 2^20 bytes/s", sectionTitle(r, mode))
	if r.Config.Repeat > 1 {
		s += fmt.Sprintf(", median of %d rounds", r.Config.Repeat)
	}
	if elementsColumn(r.Config) {
		s += fmt.Sprintf("; sizes defined in %s elements", r.Config.ElementType)
	}
	return s + ")"
}

// rowNote marks the rows a reader looks for first.
func rowNote(row record.SizeResult, k knee.Result) string {
	var notes []string
	if KneeShown(k) && row.WriteSize == k.WriteSize {
		notes = append(notes, "knee")
	}
	if k.Shape == knee.ShapeDeclines && row.WriteSize == k.BestSize {
		notes = append(notes, "best")
	}
	if k.Shape == knee.ShapeDeclines && row.WriteSize > k.DeclinesAbove {
		notes = append(notes, "below plateau")
	}
	if row.WideSpread {
		notes = append(notes, "wide spread")
	}
	return strings.Join(notes, ", ")
}

func (p *printer) mdRanks(r *report.Report, rows []record.SizeResult) {
	p.mdSpread(rankCaption, rankHead(), spreadSummaries(r.MPI.PerRank, rows))
}

// mdVerdict writes the verdict lines as a paragraph and a list.
func (p *printer) mdVerdict(lines []string) {
	p.F("\n")
	for _, l := range lines {
		if item, ok := strings.CutPrefix(l, "  "); ok {
			p.F("- %s\n", item)
		} else {
			p.F("%s\n\n", page.Sentence(l))
		}
	}
}

func (p *printer) mdRecommendation(r *report.Report) {
	if r.Recommendation == nil {
		return
	}
	for _, n := range recommendationNotes(r) {
		p.F("\n%s: %s\n", page.Sentence(n[0]), n[1])
	}
	p.mdApply(r)
}

func (p *printer) mdWarnings(r *report.Report) {
	warnings := r.AllWarnings()
	if len(warnings) == 0 && !r.Incomplete {
		return
	}
	p.F("\nWarnings:\n\n")
	for _, w := range warnings {
		p.F("- %s\n", w)
	}
	if r.Incomplete {
		p.F("- INCOMPLETE: %s\n", r.Error)
	}
}

// mdTable writes a Markdown table with every column padded to its widest
// cell; numbers are right-aligned, the first and last columns left.
func (p *printer) mdTable(head []string, rows [][]string) {
	width := make([]int, len(head))
	for _, row := range append([][]string{head}, rows...) {
		for i, c := range row {
			width[i] = max(width[i], len(c), 3)
		}
	}
	left := func(i int) bool { return i == 0 || i == len(head)-1 && head[i] == "note" }
	line := func(cells []string) {
		out := make([]string, len(cells))
		for i, c := range cells {
			c = strings.ReplaceAll(c, "|", `\|`)
			if left(i) {
				out[i] = fmt.Sprintf("%-*s", width[i], c)
			} else {
				out[i] = fmt.Sprintf("%*s", width[i], c)
			}
		}
		p.F("| %s |\n", strings.Join(out, " | "))
	}
	line(head)
	rule := make([]string, len(head))
	for i := range head {
		rule[i] = strings.Repeat("-", width[i]-1) + ":"
		if left(i) {
			rule[i] = ":" + strings.Repeat("-", width[i]-1)
		}
	}
	p.F("| %s |\n", strings.Join(rule, " | "))
	for _, row := range rows {
		line(row)
	}
}
