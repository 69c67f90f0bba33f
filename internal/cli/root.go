package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/profile"
	"github.com/iobench/iobench/report"
)

const version = "0.1.0"

// run is the whole command, testable without a process: arguments in,
// output to the writers given, an error out.
func run(ctx context.Context, e *env, args []string) error {
	app := newApp(e)
	app.Metadata = map[string]any{"args": args} // the command line as given, for reports
	if err := checkWords(app, args); err != nil {
		return err
	}
	if err := repeatedFlag(app, args); err != nil {
		return err
	}
	return app.RunContext(ctx, flagsFirst(args, app.Commands))
}

// flagsFirst moves flags written after the file names in front of them,
// since urfave/cli stops parsing flags at the first argument; then
// `iobench plot a.json -o c.svg` works as users expect. "--" ends flags.
// Which commands take files, and which of their flags take a value, comes
// from the commands' own definitions.
func flagsFirst(args []string, commands []*cli.Command) []string {
	if len(args) < 3 {
		return args
	}
	takesValue, ok := fileCommandFlags(commands, args[1])
	if !ok {
		return args
	}
	var flags, files []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			files = append(files, rest[i+1:]...)
			i = len(rest)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			if takesValue[a] && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
		default:
			files = append(files, a)
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	if len(files) > 0 {
		out = append(append(out, "--"), files...)
	}
	return out
}

// fileCommandFlags finds the command called name if it takes file names
// (its ArgsUsage says FILE), and spells every flag of it that takes a
// value as a user may: "-o", "--output", "-output".
func fileCommandFlags(commands []*cli.Command, name string) (map[string]bool, bool) {
	for _, cmd := range commands {
		if !cmd.HasName(name) || !strings.HasPrefix(cmd.ArgsUsage, "FILE") {
			continue
		}
		takesValue := map[string]bool{}
		for _, f := range cmd.Flags {
			if _, isBool := f.(*cli.BoolFlag); isBool {
				continue
			}
			for _, n := range f.Names() {
				takesValue["-"+n], takesValue["--"+n] = true, true
			}
		}
		return takesValue, true
	}
	return nil, false
}

// printVersion is --version: version, VCS revision and Go version, the
// three things a bug report needs.
func printVersion(c *cli.Context) {
	t := toolInfo()
	rev := t.Revision
	if rev == "" {
		rev = "unknown (built outside a git checkout, or with -buildvcs=false)"
	} else if buildSetting("vcs.modified") == "true" {
		rev += " (with uncommitted changes)"
	}
	fmt.Fprintf(c.App.Writer, "iobench %s\nrevision: %s\ngo: %s\n", t.Version, rev, t.GoVersion)
}

const sweepExamples = `Writes the data set once per write size (1 KiB to 64 MiB by default) and reports MiB/s per size,
the knee where throughput levels off, and the buffer size to use. Sizes take binary units: 4K = 4KiB = 4096 bytes.

   iobench sweep --dir /gpfs/x                               # profile chosen from the file system type
   iobench sweep --dir /gpfs/x --dry-run                     # the plan, without I/O
   iobench sweep --dir . --size 256MiB --sizes 4K,64K,1M     # a quick look
   iobench sweep --dir /gpfs/x --convert big-endian          # what -fconvert=big-endian costs
   iobench sweep --dir /gpfs/x --format json -o gpfs.json    # for analyze, plot and compare
   mpirun -np 64 bin/iobench-mpi sweep --dir /gpfs/x --shared-file`

func newApp(e *env) *cli.App {
	cli.VersionPrinter = printVersion
	onUsage := func(c *cli.Context, err error, _ bool) error {
		var flags []cli.Flag
		if c != nil && c.Command != nil {
			flags = c.Command.Flags
		}
		if c != nil && len(flags) == 0 {
			flags = c.App.Flags
		}
		if c != nil {
			err = unknownFlag(err, c)
		}
		return asUsage(inFlagTerms(err, flags))
	}
	return withHelp(&cli.App{
		Name:                 "iobench",
		Usage:                "measure write throughput by write(2) size, find the knee, recommend a buffer size",
		Version:              version,
		Writer:               e.stdout,
		ErrWriter:            e.stderr,
		Description:          sweepExamples,
		Flags:                sweepFlags(),
		Action:               e.sweepAction,
		OnUsageError:         onUsage,
		ExitErrHandler:       func(*cli.Context, error) {},
		EnableBashCompletion: true,
		Commands: []*cli.Command{
			{Name: "sweep", Usage: "run the write-size sweep (the default command)", Description: sweepExamples, Flags: sweepFlags(), Action: e.sweepAction, OnUsageError: onUsage},
			{Name: "analyze", Usage: "knee and recommendation from saved results (iobench JSON/CSV, pr91030-bench output)", Description: "iobench analyze gpfs.json\n./a.out | iobench analyze -          # the reference program's output, corrected\niobench analyze run.csv --format markdown -o run.md", ArgsUsage: "FILE... (- reads stdin)", Flags: analyzeFlags(), Action: analyzeAction, OnUsageError: onUsage},
			{Name: "plot", Usage: "draw saved results (iobench JSON/CSV, pr91030-bench output) as curves", Description: "iobench plot gpfs.json ext4.json -o curves.svg\niobench plot run.csv --format png -o - > run.png", ArgsUsage: "FILE... (- reads stdin)", Flags: plotFlags(), Action: plotAction, OnUsageError: onUsage},
			{Name: "compare", Usage: "one table of saved results (iobench JSON/CSV, pr91030-bench output), with ratios against the first", Description: "iobench compare native.json big-endian.json\niobench compare a.json b.json --format markdown -o compare.md", ArgsUsage: "FILE... (- reads stdin)", Flags: compareFlags(), Action: compareAction, OnUsageError: onUsage},
			{Name: "profiles", Usage: "list the --profile presets and what each sets", Action: profilesAction, OnUsageError: onUsage},
			{Name: "info", Usage: "print file system facts for --dir; writes nothing", Flags: infoFlags(), Action: infoAction, OnUsageError: onUsage},
			e.runtimeCommand(onUsage),
			e.appCommand(onUsage),
			e.tuneCommand(onUsage),
			e.cleanCommand(onUsage),
			completionCommand(onUsage),
			manCommand(onUsage),
		},
	})
}

// toolInfo names this build, with its VCS revision when Go recorded one.
func toolInfo() report.Tool {
	return report.Tool{Name: "iobench", Version: version, GoVersion: runtime.Version(), Revision: buildSetting("vcs.revision")}
}

// buildSetting is one setting Go recorded in the binary, "" if none.
func buildSetting(key string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == key {
				return s.Value
			}
		}
	}
	return ""
}

func profilesAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	if err := profile.Describe(c.App.Writer, flagOf); err != nil {
		return err
	}
	_, err := fmt.Fprintln(c.App.Writer, "Flags given on the command line always win over a profile.")
	return err
}
