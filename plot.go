package main

import (
	"errors"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/report"
)

func plotFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "new .svg or .png file (required)"},
	}
}

// readRuns loads the JSON reports named on the command line.
func readRuns(c *cli.Context) ([]report.Run, error) {
	if c.NArg() == 0 {
		return nil, usagef("%s: give one or more reports written with --format json", c.Command.Name)
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
	runs, err := readRuns(c)
	if err != nil {
		return err
	}
	err = report.PlotFile(c.String("output"), runs)
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
	return report.Compare(c.App.Writer, runs)
}
