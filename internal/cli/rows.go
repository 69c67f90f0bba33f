package cli

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/report"
)

// The rows more than one command has, each declared here once: a flag
// name means one thing in every command, its help apart.

// dirRow is --dir. def "" makes it required (the command says so when
// it is missing), else def is its default.
func dirRow[O any](usage, def string, at func(*O) *opt[string]) optRow[O] {
	f := &cli.StringFlag{Name: "dir", Value: def, Usage: usage}
	if def == "" {
		f.DefaultText = "none: required; --dir . for the current directory"
	}
	return row(f, at)
}

// formatRow is cmd's --format (formatFlag).
func formatRow[O any](cmd report.Command, value, usage string, at func(*O) *opt[string]) optRow[O] {
	return row(formatFlag(cmd, value, usage), at)
}

// outputRow is --output, -o.
func outputRow[O any](usage string, at func(*O) *opt[string]) optRow[O] {
	return row(outputFlag(usage), at)
}

// kneeFractionRow is --knee-fraction.
func kneeFractionRow[O any](at func(*O) *opt[float64]) optRow[O] {
	return row(&cli.Float64Flag{Name: "knee-fraction", Value: knee.DefaultFraction, Usage: "share of the plateau the knee must reach"}, at)
}

// forRow is --for (forFlag).
func forRow[O any](at func(*O) *opt[string]) optRow[O] { return row(forFlag(), at) }

// anonymizeRow is --anonymize.
func anonymizeRow[O any](at func(*O) *opt[bool]) optRow[O] {
	return row(&cli.BoolFlag{Name: "anonymize", Usage: "replace host name, user name and paths with stable placeholders in the report"}, at)
}

// seedRow is --seed: the seed of an order the command shuffles.
func seedRow[O any](usage, defaultText string, at func(*O) *opt[uint64]) optRow[O] {
	return row(&cli.Uint64Flag{Name: "seed", Usage: usage, DefaultText: defaultText}, at)
}

// dryRunRow is --dry-run: say what the command would do, and do none of it.
func dryRunRow[O any](usage string, at func(*O) *opt[bool]) optRow[O] {
	return row(&cli.BoolFlag{Name: "dry-run", Usage: usage}, at)
}

// curveRow is --curve: a measured curve to price a program's writes on.
func curveRow[O any](usage, defaultText string, at func(*O) *opt[string]) optRow[O] {
	return row(&cli.StringFlag{Name: "curve", Usage: usage, DefaultText: defaultText}, at)
}

// scratchRow is --scratch: where app and tune keep their own files of a
// program's run, instead of $TMPDIR, which the program inherits.
func scratchRow[O any](at func(*O) *opt[string]) optRow[O] {
	return row(&cli.StringFlag{Name: "scratch", Usage: "with -- PROG: the directory to keep iobench's own files of the run in (the trace, the writers it builds, tune's copy of your files), in a directory of its own that it removes; the program's TMPDIR stays as it is",
		DefaultText: "$TMPDIR, else /tmp"}, at)
}

// curveTimeRow is --curve-time: the quick curve's time, without --curve.
func curveTimeRow[O any](usage string, at func(*O) *opt[time.Duration]) optRow[O] {
	return row(&cli.DurationFlag{Name: "curve-time", Value: defaultCurveTime, Usage: usage}, at)
}

// fromRow is runtime's --from: a saved sweep to take the knee from.
func fromRow[O any](usage, defaultText string, at func(*O) *opt[string]) optRow[O] {
	return row(&cli.StringFlag{Name: "from", Usage: usage, DefaultText: defaultText}, at)
}

// recordRow is runtime's --record: the small records' size.
func recordRow[O any](usage string, at func(*O) *opt[string]) optRow[O] {
	return row(&cli.StringFlag{Name: "record", Value: "1KiB", Usage: usage}, at)
}

// sourceRow is --source: where each write's data comes from, the whole
// data in memory (array, the default) or a window of it written again.
func sourceRow[O any](usage string, at func(*O) *opt[string]) optRow[O] {
	return row(sourceFlag(usage), at)
}

// sourceFlag is --source's flag.
func sourceFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "source", Value: "array", Usage: usage}
}

// layoutsRow is runtime's --layouts: the library's ways to lay the
// writes out, a list.
func layoutsRow[O any](value, usage string, at func(*O) *opt[string]) optRow[O] {
	return row(&cli.StringFlag{Name: "layouts", Value: value, Usage: usage}, at)
}

// timeBudgetRow is --time-budget: the wall time a command's timed runs
// may take, parsed by parseTimeBudget.
func timeBudgetRow[O any](usage, value, defaultText string, at func(*O) *opt[string]) optRow[O] {
	return row(&cli.StringFlag{Name: "time-budget", Value: value, Usage: usage, DefaultText: defaultText}, at)
}

// seedUsage is the sweep's --seed, which runtime shares.
const seedUsage = "shuffle seed, recorded in the report"
