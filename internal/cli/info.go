package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/report"
)

func infoFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "dir", Value: ".", Usage: "directory to describe"},
		formatFlag(report.CmdInfo, "text", "%s"),
	}
}

// infoAction prints what statvfs and mountinfo say about --dir.
func infoAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	format, err := lookupFormat(report.CmdInfo, c.String("format"))
	if err != nil {
		return err
	}
	info, err := statDir(c, c.String("dir"))
	if err != nil {
		return err
	}
	rep := &report.Report{Header: header(c, info)}
	return format.Report(c.App.Writer, rep)
}
