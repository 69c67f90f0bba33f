package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/iobench"
)

func cleanCommand(onUsage cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:  "clean",
		Usage: "list and remove data files left by iobench runs that no longer exist (killed, or their node crashed)",
		Description: "Only files named as iobench names its data files, made on this host by a process that no longer\n" +
			"exists, are removed. Files of another host are listed and kept: run clean on that host.\n\n" +
			"   iobench clean --dir /gpfs/x --dry-run\n   iobench clean --dir /gpfs/x",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Value: ".", Usage: "directory to clean"},
			&cli.BoolFlag{Name: "dry-run", Usage: "list what would be removed; remove nothing"},
		},
		Action:       cleanAction,
		OnUsageError: onUsage,
	}
}

func cleanAction(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	dir := c.String("dir")
	if _, err := statDir(dir); err != nil {
		return err
	}
	found, err := iobench.FindLeftovers(dir)
	if err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	return clean(c.App.Writer, dir, found, c.Bool("dry-run"))
}

// clean removes (or, dry, lists) the leftovers of runs that are gone and
// names the ones it keeps, with why.
func clean(w io.Writer, dir string, found []iobench.Leftover, dry bool) error {
	if len(found) == 0 {
		fmt.Fprintf(w, "no iobench data files in %s\n", dir)
		return nil
	}
	var failed []string
	var freed int64
	for _, l := range found {
		verb := "keep  "
		switch {
		case l.State == iobench.RunGone && dry:
			verb = "would remove"
		case l.State == iobench.RunGone:
			if err := iobench.RemoveLeftover(dir, l); err != nil {
				failed = append(failed, iobench.DescribePath(err))
				continue
			}
			verb, freed = "removed", freed+l.Bytes
		}
		fmt.Fprintf(w, "%-12s %s  %s (%d bytes)  %s\n", verb, l.Name, humanize.IBytes(uint64(l.Bytes)), l.Bytes, leftoverWhy(l))
	}
	if !dry {
		fmt.Fprintf(w, "freed %s (%d bytes)\n", humanize.IBytes(uint64(freed)), freed)
	}
	if len(failed) > 0 {
		return errors.New("clean: " + strings.Join(failed, "; "))
	}
	return nil
}

func leftoverWhy(l iobench.Leftover) string {
	switch l.State {
	case iobench.RunGone:
		return fmt.Sprintf("process %d on this host no longer exists", l.PID)
	case iobench.RunAlive:
		return fmt.Sprintf("process %d on this host is running", l.PID)
	}
	return fmt.Sprintf("made on host %s (process %d): run clean there", l.Host, l.PID)
}

// staleWarning is the one warning a sweep gives about files of dead runs
// in its directory, or "" when there are none.
func staleWarning(dir string) string {
	found, err := iobench.FindLeftovers(dir)
	if err != nil {
		return ""
	}
	gone, bytes := iobench.Gone(found)
	if len(gone) == 0 {
		return ""
	}
	files := "data files"
	if len(gone) == 1 {
		files = "data file"
	}
	return fmt.Sprintf("%d %s (%s, %d bytes) in %s left by iobench runs that no longer exist; remove with: iobench clean --dir %s",
		len(gone), files, humanize.IBytes(uint64(bytes)), bytes, dir, shellQuote(dir))
}

// shellQuote makes a path safe to paste into a shell command.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
