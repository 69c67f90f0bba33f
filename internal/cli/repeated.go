package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// repeatedFlag refuses a flag given twice (`--size 1MiB ... --size 2MiB`):
// urfave/cli would silently keep the last, and a sweep would then measure
// something other than one of the values the user typed. Slice flags
// (--hint) are repeatable by design.
func repeatedFlag(app *cli.App, args []string) error {
	flags, rest := app.Flags, args[1:]
	commands := app.Commands
	// Walk down the subcommands (`runtime gfortran`) to the one whose
	// flags apply.
	for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		cmd := findCommand(commands, rest[0])
		if cmd == nil {
			break // a file name, or an unknown command urfave/cli names
		}
		flags, commands, rest = cmd.Flags, cmd.Subcommands, rest[1:]
	}
	canonical, takesValue := map[string]string{}, map[string]bool{}
	for _, f := range flags {
		if _, repeatable := f.(*cli.StringSliceFlag); repeatable {
			continue
		}
		names := f.Names()
		isBool := isBoolFlag(f)
		for _, n := range names {
			canonical[n], takesValue[n] = names[0], !isBool
		}
	}
	seen := map[string]string{}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		c, ok := canonical[name]
		if !ok {
			continue
		}
		switch {
		case takesValue[name] && !hasValue && i+1 < len(rest):
			i++
			value = rest[i]
		case !takesValue[name] && !hasValue:
			value = "true"
		}
		if first, dup := seen[c]; dup {
			return usagef("--%s: given twice (%q, then %q); give it once", c, first, value)
		}
		seen[c] = value
	}
	return nil
}

// findCommand is the command called name among commands, or nil.
func findCommand(commands []*cli.Command, name string) *cli.Command {
	for _, c := range commands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
