package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/plot"
	"github.com/iobench/iobench/report/render"
)

// runsOpts are the flags of plot and compare, read once.
type runsOpts struct{ format, output opt[string] }

func runsFormat(o *runsOpts) *opt[string] { return &o.format }
func runsOutput(o *runsOpts) *opt[string] { return &o.output }

func plotRows() []optRow[runsOpts] {
	return []optRow[runsOpts]{
		formatRow(report.CmdPlot, "", "%s (default: from the --output extension; needed with -o -)", runsFormat),
		outputRow(fmt.Sprintf("new %s file, or - for stdout with --format (required)", orList(plotExts())), runsOutput),
	}
}

func compareRows() []optRow[runsOpts] {
	return []optRow[runsOpts]{
		formatRow(report.CmdCompare, "text", "%s", runsFormat),
		outputRow("write the table to this new file (never overwritten) instead of stdout", runsOutput),
	}
}

func plotFlags() []cli.Flag    { return rowFlags(plotRows()) }
func compareFlags() []cli.Flag { return rowFlags(compareRows()) }

// readRuns loads the saved results named on the command line, as many at
// once as there are CPUs: each is parsed and summarized on its own. The
// first error in the order of the arguments is returned.
func readRuns(c *cli.Context) ([]report.Run, error) {
	paths := c.Args().Slice()
	switch {
	case len(paths) == 0:
		return nil, usagef("%s: name one or more saved results (iobench JSON or CSV, or pr91030-bench output; - for stdin)", c.Command.Name)
	case countOf(paths, "-") > 1:
		return nil, usagef("%s: - is named twice; standard input can be read once", c.Command.Name)
	}
	ins, errs := make([]*analyze.Input, len(paths)), make([]error, len(paths))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range paths {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			ins[i], errs[i] = loadInput(p, loadOpts{})
		})
	}
	wg.Wait()
	var runs []report.Run
	for i, in := range ins {
		if errs[i] != nil {
			return nil, errs[i]
		}
		runs = append(runs, report.Run{Name: filepath.Base(in.Name), Report: in.Report})
	}
	return runs, nil
}

func plotAction(c *cli.Context) error {
	var o runsOpts
	if err := readRows(c, plotRows(), &o); err != nil {
		return err
	}
	write, err := plotWriter(o.format.v, o.output.v)
	if err != nil {
		return err
	}
	runs, err := readRuns(c)
	if err != nil {
		return err
	}
	return toOutput(c.App.Writer, o.output.v, func(w io.Writer) error { return write(w, runs) })
}

func countOf(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// plotWriter draws the format --format names, else the one the extension
// of --output names, so that "-o curves.png" needs no --format.
func plotWriter(format, output string) (render.RunsReporter, error) {
	switch {
	case output == "":
		return nil, usagef("plot: --output: give a new %s file", orList(plotExts()))
	case format == "" && output == "-":
		return nil, usagef("--format: give %s to write the plot to stdout (-o -)", orList(render.Names(report.CmdPlot)))
	case format == "":
		return plotWriterFor(output)
	}
	f, err := lookupFormat(report.CmdPlot, format)
	if err != nil {
		return nil, err
	}
	return plot.Lookup(f.Name)
}

// plotWriterFor draws the format whose extension path has, in any case.
func plotWriterFor(path string) (render.RunsReporter, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	for _, f := range render.Formats(report.CmdPlot) {
		if f.Ext == ext {
			return plot.Lookup(f.Name)
		}
	}
	return nil, usagef("--output: %q: unknown plot format %q (valid: %s)", path, filepath.Ext(path), strings.Join(plotExts(), ", "))
}

// plotExts are the file name extensions of the plot formats: ".svg", ".png".
func plotExts() []string {
	var exts []string
	for _, f := range render.Formats(report.CmdPlot) {
		exts = append(exts, "."+f.Ext)
	}
	return exts
}

func compareAction(c *cli.Context) error {
	var o runsOpts
	if err := readRows(c, compareRows(), &o); err != nil {
		return err
	}
	format, err := lookupFormat(report.CmdCompare, o.format.v)
	if err != nil {
		return err
	}
	runs, err := readRuns(c)
	if err != nil {
		return err
	}
	return toOutput(c.App.Writer, o.output.v, func(w io.Writer) error { return format.Runs(w, runs) })
}
