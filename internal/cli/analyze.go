package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

// analyzeOpts are analyze's flags, read once.
type analyzeOpts struct {
	format, output, applyFor opt[string]
	kneeFraction             opt[float64]
}

func analyzeRows() []optRow[analyzeOpts] {
	return []optRow[analyzeOpts]{
		formatRow(report.CmdAnalyze, "text", "output format: %s", func(o *analyzeOpts) *opt[string] { return &o.format }),
		outputRow("write the result to this new file (never overwritten) instead of stdout", func(o *analyzeOpts) *opt[string] { return &o.output }),
		kneeFractionRow(func(o *analyzeOpts) *opt[float64] { return &o.kneeFraction }),
		forRow(func(o *analyzeOpts) *opt[string] { return &o.applyFor }),
	}
}

func analyzeFlags() []cli.Flag { return rowFlags(analyzeRows()) }

// analyzeAction reports knee and recommendation for saved results: iobench
// JSON or CSV, or the reference program's text output.
func analyzeAction(c *cli.Context) error {
	var o analyzeOpts
	if err := readRows(c, analyzeRows(), &o); err != nil {
		return err
	}
	if !c.Args().Present() {
		return usagef("analyze: name at least one file (iobench JSON or CSV, or pr91030-bench output; - for stdin)")
	}
	format, err := lookupFormat(report.CmdAnalyze, o.format.v)
	if err != nil {
		return err
	}
	if err := (iobench.Config{KneeFraction: o.kneeFraction.v}).KneeFractionError(); err != nil {
		return asUsage(err)
	}
	lo := loadOpts{kneeFraction: o.kneeFraction}
	if lo.applyFor, err = parseFor(o.applyFor); err != nil {
		return err
	}
	return toOutput(c.App.Writer, o.output.v, func(w io.Writer) error {
		for _, path := range c.Args().Slice() {
			if err := analyzeOne(w, path, lo, format); err != nil {
				return err
			}
		}
		return nil
	})
}

func outputFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: usage}
}

// toOutput renders to path, --output, a new file written atomically, or
// to stdout when it is unset or "-".
func toOutput(stdout io.Writer, path string, render func(io.Writer) error) error {
	if path == "" || path == "-" {
		return render(stdout)
	}
	if err := checkNewOutput(path); err != nil {
		return err
	}
	return outputError(report.WriteNew(path, render))
}

// loadOpts are the flags of the command that a saved result is read
// with: --knee-fraction and --for, where the command has them.
type loadOpts struct {
	kneeFraction opt[float64]
	applyFor     []string
}

// loadInput is the one reader of analyze, plot and compare: a bounded,
// validated parse of iobench JSON or CSV or the reference program's
// output, summarized as a sweep is, so every command sees the same rows,
// knee and warnings.
func loadInput(path string, o loadOpts) (*analyze.Input, error) {
	in, err := analyze.ParseFile(path)
	if err != nil {
		return nil, err
	}
	rep := in.Report
	if o.kneeFraction.set || rep.Config.KneeFraction == 0 {
		rep.Config.KneeFraction = o.kneeFraction.v
	}
	if rep.Config.KneeFraction == 0 {
		rep.Config.KneeFraction = knee.DefaultFraction
	}
	rep.ApplyFor = o.applyFor
	rep.SetResult(in.Result())
	for _, n := range in.Notes {
		rep.Warnings = append(rep.Warnings, in.Name+": "+n)
	}
	return in, nil
}

func analyzeOne(w io.Writer, path string, o loadOpts, format render.Format) error {
	in, err := loadInput(path, o)
	if err != nil {
		return err
	}
	rep := in.Report
	if format.Name == "text" {
		if err := originalTable(w, in); err != nil {
			return err
		}
	}
	return format.Report(w, rep)
}

// originalTable shows the reference program's own figures beside the
// corrected ones, so a reader can match them with what was pasted.
func originalTable(w io.Writer, in *analyze.Input) error {
	if len(in.Original) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "%s: pr91030-bench output; bs counts doubles and its MiB/s is Mi-doubles/s\n%10s %14s %14s %14s\n",
		in.Name, "bs", "printed MiB/s", "write bytes", "true MiB/s"); err != nil {
		return err
	}
	for _, o := range in.Original {
		if _, err := fmt.Fprintf(w, "%10d %14.2f %14d %14.2f\n", o.BS, o.MiBPerSec, o.WriteSize, o.TrueMiBPerSec); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}
