package main

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/report"
)

func plotFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Usage: "svg or png (default: from the --output extension; needed with -o -)"},
		outputFlag("new .svg or .png file, or - for stdout with --format (required)"),
	}
}

func compareFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "text", Usage: "text or markdown"},
		outputFlag("write the table to this new file (never overwritten) instead of stdout"),
	}
}

// readRuns loads the JSON reports named on the command line.
func readRuns(c *cli.Context) ([]report.Run, error) {
	if c.NArg() == 0 {
		return nil, usagef("%s: name one or more saved results (iobench JSON or CSV, or pr91030-bench output; - for stdin)", c.Command.Name)
	}
	var runs []report.Run
	for _, p := range c.Args().Slice() {
		in, err := loadInput(c, p)
		if err != nil {
			return nil, err
		}
		runs = append(runs, report.Run{Name: filepath.Base(in.Name), Report: in.Report})
	}
	return runs, nil
}

func plotAction(c *cli.Context) error {
	if c.String("output") == "" {
		return usagef("plot: --output: give a new .svg or .png file")
	}
	format := c.String("format")
	switch {
	case format != "" && !slices.Contains(report.PlotFormats, format):
		return usagef("--format: unknown plot format %q (valid: %s)", format, strings.Join(report.PlotFormats, ", "))
	case format == "" && c.String("output") == "-":
		return usagef("--format: give svg or png to write the plot to stdout (-o -)")
	}
	runs, err := readRuns(c)
	if err != nil {
		return err
	}
	if c.String("output") == "-" {
		err = report.Plot(c.App.Writer, c.String("format"), runs)
	} else if err = checkNewOutput(c.String("output")); err == nil {
		err = report.PlotFile(c.String("output"), c.String("format"), runs)
	}
	if errors.Is(err, report.ErrUnknownPlotFormat) {
		return asUsage(err)
	}
	return err
}

func compareAction(c *cli.Context) error {
	runs, err := readRuns(c)
	if err != nil {
		return err
	}
	compare := map[string]func(io.Writer, []report.Run) error{"text": report.Compare, "markdown": report.CompareMarkdown}[c.String("format")]
	if compare == nil {
		return usagef("--format: unknown format %q for compare (valid: text, markdown)", c.String("format"))
	}
	return toOutput(c, func(w io.Writer) error { return compare(w, runs) })
}
