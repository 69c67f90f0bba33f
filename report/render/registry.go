package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/iobench/iobench/report"
)

// Reporter writes a report in one format.
type Reporter func(w io.Writer, r *report.Report) error

// RunsReporter writes several reports in one format: a comparison or a
// plot.
type RunsReporter func(w io.Writer, runs []report.Run) error

// RuntimeReporter writes a runtime report in one format.
type RuntimeReporter func(w io.Writer, r *report.RuntimeReport) error

// Format is one output format of one command. Report is set for the
// commands that render one report (sweep, analyze, info), Runs for
// compare, Runtime for runtime, App for app. Plot's formats have none:
// package report/plot writes them, and render must not import it (it
// links gonum); they are listed here so that every command's names, help
// and checks come from one table.
type Format struct {
	Command report.Command
	Name    string
	Ext     string // file name extension, without the dot
	Report  Reporter
	Runs    RunsReporter
	Runtime RuntimeReporter     // for CmdRuntime: a RuntimeReport
	Library LibraryReporter     // for CmdRuntime of a library (mpiio, hdf5): a LibraryReport
	App     report.AppReporter  // for CmdApp: an AppReport
	Tune    report.TuneReporter // for CmdTune: a TuneReport
}

// formats is every format of every command, in the order help and
// errors list them. A new format is one line here, and its golden test
// fails until it has a golden file.
var formats = []Format{
	{Command: report.CmdSweep, Name: "text", Ext: "txt", Report: Text},
	{Command: report.CmdSweep, Name: "json", Ext: "json", Report: JSON},
	{Command: report.CmdSweep, Name: "csv", Ext: "csv", Report: CSV},
	{Command: report.CmdSweep, Name: "markdown", Ext: "md", Report: Markdown},
	{Command: report.CmdSweep, Name: "gobench", Ext: "txt", Report: Gobench},
	{Command: report.CmdAnalyze, Name: "text", Ext: "txt", Report: Text},
	{Command: report.CmdAnalyze, Name: "json", Ext: "json", Report: JSON},
	{Command: report.CmdAnalyze, Name: "csv", Ext: "csv", Report: CSV},
	{Command: report.CmdAnalyze, Name: "markdown", Ext: "md", Report: Markdown},
	{Command: report.CmdCompare, Name: "text", Ext: "txt", Runs: Compare},
	{Command: report.CmdCompare, Name: "markdown", Ext: "md", Runs: CompareMarkdown},
	{Command: report.CmdPlot, Name: "svg", Ext: "svg"},
	{Command: report.CmdPlot, Name: "png", Ext: "png"},
	{Command: report.CmdInfo, Name: "text", Ext: "txt", Report: TextHeader},
	{Command: report.CmdInfo, Name: "json", Ext: "json", Report: JSON},
	{Command: report.CmdRuntime, Name: "text", Ext: "txt", Runtime: RuntimeText, Library: LibraryText},
	{Command: report.CmdRuntime, Name: "json", Ext: "json", Runtime: RuntimeJSON, Library: LibraryJSON},
	{Command: report.CmdRuntime, Name: "csv", Ext: "csv", Runtime: RuntimeCSV, Library: LibraryCSV},
	{Command: report.CmdRuntime, Name: "markdown", Ext: "md", Runtime: RuntimeMarkdown, Library: LibraryMarkdown},
	{Command: report.CmdApp, Name: "text", Ext: "txt", App: AppText},
	{Command: report.CmdApp, Name: "json", Ext: "json", App: AppJSON},
	{Command: report.CmdApp, Name: "markdown", Ext: "md", App: AppMarkdown},
	{Command: report.CmdTune, Name: "text", Ext: "txt", Tune: TuneText},
	{Command: report.CmdTune, Name: "json", Ext: "json", Tune: TuneJSON},
	{Command: report.CmdTune, Name: "markdown", Ext: "md", Tune: TuneMarkdown},
}

// Formats returns the formats cmd offers, in order.
func Formats(cmd report.Command) []Format {
	var out []Format
	for _, f := range formats {
		if f.Command == cmd {
			out = append(out, f)
		}
	}
	return out
}

// Names returns the names of the formats cmd offers, in order.
func Names(cmd report.Command) []string {
	var out []string
	for _, f := range Formats(cmd) {
		out = append(out, f.Name)
	}
	return out
}

// Lookup returns cmd's format called name, or an *UnknownFormatError.
func Lookup(cmd report.Command, name string) (Format, error) {
	for _, f := range Formats(cmd) {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, &UnknownFormatError{Command: cmd, Format: name, Valid: Names(cmd)}
}

// UnknownFormatError is a format name that a command does not offer. It
// names no flag: the caller knows where the name came from.
type UnknownFormatError struct {
	Command report.Command
	Format  string
	Valid   []string
}

func (e *UnknownFormatError) Error() string {
	valid := strings.Join(e.Valid, ", ")
	switch e.Command {
	case report.CmdSweep: // the default command: naming it would puzzle whoever left it out
		return fmt.Sprintf("unknown format %q (valid: %s)", e.Format, valid)
	case report.CmdPlot:
		return fmt.Sprintf("unknown plot format %q (valid: %s)", e.Format, valid)
	}
	return fmt.Sprintf("unknown format %q for %s (valid: %s)", e.Format, e.Command, valid)
}
