package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/report"
)

// infoOpts are info's flags, read once.
type infoOpts struct{ dir, format opt[string] }

func infoRows() []optRow[infoOpts] {
	return []optRow[infoOpts]{
		dirRow("directory to describe", ".", func(o *infoOpts) *opt[string] { return &o.dir }),
		formatRow(report.CmdInfo, "text", "%s", func(o *infoOpts) *opt[string] { return &o.format }),
	}
}

func infoFlags() []cli.Flag { return rowFlags(infoRows()) }

// infoAction prints what statvfs and mountinfo say about --dir.
func infoAction(c *cli.Context) error {
	var o infoOpts
	if err := readRows(c, infoRows(), &o); err != nil {
		return err
	}
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	format, err := lookupFormat(report.CmdInfo, o.format.v)
	if err != nil {
		return err
	}
	info, err := statDir(c, o.dir.v)
	if err != nil {
		return err
	}
	rep := &report.Report{Header: header(c, info)}
	return format.Report(c.App.Writer, rep)
}
