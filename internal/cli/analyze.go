package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

func analyzeFlags() []cli.Flag {
	return []cli.Flag{
		formatFlag(report.CmdAnalyze, "text", "output format: %s"),
		outputFlag("write the result to this new file (never overwritten) instead of stdout"),
		&cli.Float64Flag{Name: "knee-fraction", Value: knee.DefaultFraction, Usage: "share of the plateau the knee must reach"},
		forFlag(),
	}
}

// analyzeAction reports knee and recommendation for saved results: iobench
// JSON or CSV, or the reference program's text output.
func analyzeAction(c *cli.Context) error {
	if !c.Args().Present() {
		return usagef("analyze: name at least one file (iobench JSON or CSV, or pr91030-bench output; - for stdin)")
	}
	format, err := lookupFormat(report.CmdAnalyze, c.String("format"))
	if err != nil {
		return err
	}
	if err := checkFraction(c.Float64("knee-fraction")); err != nil {
		return asUsage(err)
	}
	if _, err := forFromFlags(c); err != nil {
		return err
	}
	return toOutput(c, func(w io.Writer) error {
		for _, path := range c.Args().Slice() {
			if err := analyzeOne(c, w, path, format.Report); err != nil {
				return err
			}
		}
		return nil
	})
}

func outputFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: usage}
}

// toOutput renders to --output, a new file written atomically, or to
// stdout when it is unset or "-".
func toOutput(c *cli.Context, render func(io.Writer) error) error {
	path := c.String("output")
	if path == "" || path == "-" {
		return render(c.App.Writer)
	}
	if err := checkNewOutput(path); err != nil {
		return err
	}
	return outputError(report.WriteNew(path, render))
}

// loadInput is the one reader of analyze, plot and compare: a bounded,
// validated parse of iobench JSON or CSV or the reference program's
// output, summarized as a sweep is, so every command sees the same rows,
// knee and warnings.
func loadInput(c *cli.Context, path string) (*analyze.Input, error) {
	in, err := analyze.ParseFile(path)
	if err != nil {
		return nil, err
	}
	rep := in.Report
	if c.IsSet("knee-fraction") || rep.Config.KneeFraction == 0 {
		rep.Config.KneeFraction = c.Float64("knee-fraction")
	}
	if rep.Config.KneeFraction == 0 {
		rep.Config.KneeFraction = knee.DefaultFraction
	}
	rep.ApplyFor, _ = forFromFlags(c) // checked by the command; plot and compare have no --for
	rep.SetResult(in.Result())
	for _, n := range in.Notes {
		rep.Warnings = append(rep.Warnings, in.Name+": "+n)
	}
	return in, nil
}

func analyzeOne(c *cli.Context, w io.Writer, path string, reporter render.Reporter) error {
	in, err := loadInput(c, path)
	if err != nil {
		return err
	}
	rep := in.Report
	if c.String("format") == "text" {
		if err := originalTable(w, in); err != nil {
			return err
		}
	}
	return reporter(w, rep)
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
