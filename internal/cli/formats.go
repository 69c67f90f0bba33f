package cli

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

// formatFlag is cmd's --format, its help listing the formats render's
// registry gives cmd: usage holds one %s for the list. value is the
// default, "" for none.
func formatFlag(cmd report.Command, value, usage string) cli.Flag {
	return &cli.StringFlag{Name: "format", Value: value, Usage: fmt.Sprintf(usage, orList(render.Names(cmd)))}
}

// orList is "svg or png" for two names and "text, json, csv" for more,
// as the help has always listed them.
func orList(names []string) string {
	if len(names) == 2 {
		return names[0] + " or " + names[1]
	}
	return strings.Join(names, ", ")
}

// lookupFormat is cmd's format named by --format, or a usage error that
// names the flag, which render does not know.
func lookupFormat(cmd report.Command, name string) (render.Format, error) {
	f, err := render.Lookup(cmd, name)
	if err != nil {
		return f, usagef("--format: %w", err)
	}
	return f, nil
}

// outputError names --output in an error of report's file writing, which
// names only the file.
func outputError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("--output: %w", err)
}
