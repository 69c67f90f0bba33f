package cli

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// urfave/cli's own completion scripts (see completions/README.md).
var (
	//go:embed completions/bash
	bashCompletion string
	//go:embed completions/zsh
	zshCompletion string
)

func completionCommand(onUsage cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: "Load it in the current shell, or install it:\n\n" +
			"   source <(iobench completion bash)\n" +
			"   iobench completion zsh > \"${fpath[1]}/_iobench\"\n" +
			"   iobench completion fish > ~/.config/fish/completions/iobench.fish",
		OnUsageError: onUsage,
		Action:       completionAction,
	}
}

func completionAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("completion: give one shell: bash, zsh or fish")
	}
	var script string
	switch shell := c.Args().First(); shell {
	case "bash":
		script = strings.Replace(bashCompletion, "\n", "\nPROG=iobench\n", 1)
	case "zsh":
		script = strings.ReplaceAll(zshCompletion, "$PROG", "iobench")
	case "fish":
		dropHelpCycle(c.App)
		s, err := c.App.ToFishCompletion()
		if err != nil {
			return err
		}
		script = s
	default:
		return usagef("completion: unknown shell %q (valid: bash, zsh, fish)", shell)
	}
	_, err := fmt.Fprint(c.App.Writer, script)
	return err
}

func manCommand(onUsage cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:         "man",
		Usage:        "print the manual page (roff); view it with: iobench man | man -l -",
		OnUsageError: onUsage,
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("man: unexpected argument %q", c.Args().First())
			}
			dropHelpCycle(c.App)
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, page)
			return err
		},
	}
}

// dropHelpCycle undoes a quirk of urfave/cli v2: running "help" gives its
// package-level help command itself as a subcommand, and the man and fish
// generators, which walk subcommands, would then recurse for ever (seen
// when several commands run in one process, as the tests do).
func dropHelpCycle(app *cli.App) {
	if h := app.Command("help"); h != nil {
		h.Subcommands = slices.DeleteFunc(h.Subcommands, func(s *cli.Command) bool { return s == h })
	}
}
