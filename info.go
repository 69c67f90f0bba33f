package main

import (
	"github.com/urfave/cli/v2"
	"time"

	"github.com/iobench/iobench/hostinfo"
	"github.com/iobench/iobench/report"
)

func infoFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "dir", Value: ".", Usage: "directory to describe"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"},
	}
}

// infoAction prints what statvfs and mountinfo say about --dir.
func infoAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	info, err := statDir(c.String("dir"))
	if err != nil {
		return err
	}
	rep := &report.Report{Tool: toolInfo(), Command: commandLine(c), StartTime: time.Now(), FS: info, Host: hostinfo.Read()}
	switch c.String("format") {
	case "text":
		return report.TextHeader(c.App.Writer, rep)
	case "json":
		return report.JSON(c.App.Writer, rep)
	}
	return usagef("--format: unknown format %q for info (valid: text, json)", c.String("format"))
}
