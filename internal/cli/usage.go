package cli

// The words a user types before anything runs: help, and the slips
// caught before urfave/cli reads the line (a mistyped command or flag, a
// switch given a value after a space, a number with a leading zero, a
// flag given twice).

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
)

// helpCommand replaces urfave/cli's help, which reads only its first
// argument: `iobench help runtime gfortran` shows the runtime's own help,
// and an unknown topic is a usage error that lists the commands.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Aliases:   []string{"h"},
		Usage:     "help for the tool, a command, or a runtime (iobench help runtime gfortran)",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Action: func(c *cli.Context) error {
			path := c.Args().Slice()
			if len(path) == 0 {
				return cli.ShowAppHelp(c)
			}
			if _, err := commandAt(c.App.Commands, path); err != nil {
				return err
			}
			// The command's own --help: urfave/cli sets a command up
			// (its full name, flag categories) only when it runs.
			return c.App.RunContext(c.Context, append(append([]string{c.App.Name}, path...), "--help"))
		},
	}
}

// commandAt walks path (command, subcommand, ...) down the tree.
func commandAt(commands []*cli.Command, path []string) (*cli.Command, error) {
	var cmd *cli.Command
	for i, name := range path {
		next := commandNamed(commands, name)
		if next == nil {
			where := "iobench"
			if cmd != nil {
				where = "iobench " + strings.Join(path[:i], " ")
			}
			return nil, usagef("help: %q is not a command of %s%s (commands: %s)", name, where,
				suggestion(name, commandNames(commands)), strings.Join(commandNames(commands), ", "))
		}
		cmd, commands = next, next.Subcommands
	}
	return cmd, nil
}

// commandNamed is the command called name among commands (help left
// out), or nil.
func commandNamed(commands []*cli.Command, name string) *cli.Command {
	for _, c := range commands {
		if c.HasName(name) && c.Name != "help" {
			return c
		}
	}
	return nil
}

// commandNames are the commands a user can run, help left out.
func commandNames(commands []*cli.Command) []string {
	var names []string
	for _, c := range commands {
		if !c.Hidden && c.Name != "help" {
			names = append(names, c.Name)
		}
	}
	return names
}

// withHelp gives the app iobench's help command, and each command whose
// subcommands share their flags (runtime) a help that lists those flags,
// so `iobench help runtime` says what each runtime takes.
func withHelp(app *cli.App) *cli.App {
	app.Commands = append(app.Commands, helpCommand())
	app.Flags = append(app.Flags, cli.HelpFlag) // urfave/cli adds it only with its own help command
	for _, cmd := range app.Commands {
		groups := subcommandFlagGroups(cmd)
		if len(groups) == 0 || cmd.CustomHelpTemplate != "" {
			continue
		}
		cmd.CustomHelpTemplate = cli.SubcommandHelpTemplate
		for _, g := range groups {
			title := "OPTIONS OF EACH"
			if len(g) == 1 {
				title = "OPTIONS"
			}
			cmd.CustomHelpTemplate += "\n" + title + " (iobench " + cmd.Name + " " + strings.Join(commandNames(g), "|") + " [options]):\n" +
				templateSafe(flagTable(g[0].Flags))
		}
	}
	return app
}

// subcommandFlagGroups are cmd's subcommands grouped by the flags they
// take, in order: the runtimes share theirs, each library has its own.
func subcommandFlagGroups(cmd *cli.Command) [][]*cli.Command {
	var groups [][]*cli.Command
	for _, s := range cmd.Subcommands {
		if s.Name == "help" {
			continue
		}
		i := slices.IndexFunc(groups, func(g []*cli.Command) bool { return slices.Equal(flagNames(s.Flags), flagNames(g[0].Flags)) })
		if i < 0 {
			groups = append(groups, nil)
			i = len(groups) - 1
		}
		groups[i] = append(groups[i], s)
	}
	return groups
}

func flagNames(flags []cli.Flag) []string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	return names
}

// flagTable renders flags as urfave/cli's OPTIONS section does.
func flagTable(flags []cli.Flag) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 1, 8, 2, ' ', 0)
	for _, f := range flags {
		fmt.Fprintf(w, "   %s\n", f)
	}
	_ = w.Flush()
	return b.String()
}

// templateSafe keeps text/template from reading help text as actions.
func templateSafe(s string) string {
	return strings.ReplaceAll(s, "{{", `{{"{{"}}`)
}

// suggestion is "; did you mean X?" for the nearest of names within two
// edits of name (a typo, not another word), else "".
func suggestion(name string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		if d := levenshtein(strings.ToLower(name), strings.ToLower(n)); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" {
		return ""
	}
	return "; did you mean " + best + "?"
}

// levenshtein is the edit distance between a and b (insertions,
// deletions, substitutions), by bytes: flag and command names are ASCII.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// unknownFlag rewrites the flag package's "flag provided but not defined:
// -dri" in the command c runs as one line that names the flag and
// suggests the nearest one; a flag of a subcommand given to its parent
// (iobench runtime --dir D) says to name the subcommand first.
func unknownFlag(err error, c *cli.Context) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	name = strings.TrimLeft(name, "-")
	path := commandPath(c)
	where := strings.Join(append([]string{c.App.Name}, path...), " ")
	flags := c.App.Flags
	if len(path) > 0 {
		cmd := c.Command
		flags = cmd.Flags
		if slices.ContainsFunc(cmd.Subcommands, func(s *cli.Command) bool { return slices.Contains(flagNames(s.Flags), name) }) {
			subs := commandNames(cmd.Subcommands)
			return fmt.Errorf("--%s: name the %s first: %s %s --%s ... (one of: %s)", name, cmd.Name, where, subs[0], name, strings.Join(subs, ", "))
		}
	}
	var dashed []string
	for _, n := range flagNames(flags) {
		if len(n) > 1 {
			dashed = append(dashed, "--"+n)
		}
	}
	return fmt.Errorf("--%s: no such flag for %s%s (see %s --help)", name, where, suggestion("--"+name, dashed), where)
}

// commandPath is the commands c runs under, outermost first: [runtime
// gfortran]; empty at the top level.
func commandPath(c *cli.Context) []string {
	var path []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" && ctx.Command.Name != c.App.Name {
			path = append([]string{ctx.Command.Name}, path...)
		}
	}
	return path
}

// checkWords catches two slips before urfave/cli reads the line: a
// mistyped command, which it would take as the sweep's stray argument,
// and a value after a switch (--direct true), which the flag package
// leaves behind as an argument.
func checkWords(app *cli.App, args []string) error {
	if len(args) < 2 {
		return nil
	}
	if cmd := commandNamed(app.Commands, args[1]); cmd == nil && !strings.HasPrefix(args[1], "-") && args[1] != "help" && args[1] != "h" {
		names := commandNames(app.Commands)
		return usagef("%q is not a command%s (commands: %s; see iobench --help)", args[1], suggestion(args[1], names), strings.Join(names, ", "))
	}
	flags, rest := flagsOf(app, args)
	if err := switchWithValue(flags, rest); err != nil {
		return err
	}
	if err := outputNamed(rest); err != nil {
		return err
	}
	return decimalOnly(flags, rest)
}

// outputNamed refuses an empty -o (an unset variable in a script, say),
// which would otherwise send the report to stdout unasked.
func outputNamed(args []string) error {
	for i, a := range args {
		if a == "--" {
			return nil
		}
		empty := (a == "-o" || a == "--output" || a == "-output") && i+1 < len(args) && strings.TrimSpace(args[i+1]) == ""
		if empty || a == "--output=" || a == "-o=" || a == "-output=" {
			return usagef("--output: the file name is empty; give a new file's name, or - for stdout")
		}
	}
	return nil
}

// flagsOf are the flags of the command args run (runtime gfortran: the
// runtime's), and the arguments after its name.
func flagsOf(app *cli.App, args []string) ([]cli.Flag, []string) {
	flags, commands, rest := app.Flags, app.Commands, args[1:]
	for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		cmd := commandNamed(commands, rest[0])
		if cmd == nil {
			break // a file name
		}
		flags, commands, rest = cmd.Flags, cmd.Subcommands, rest[1:]
	}
	return flags, rest
}

// wholeNumberFlags take a whole number though their type is a string.
var wholeNumberFlags = []string{"repeat"}

// decimalOnly refuses a whole number written with a leading zero or a
// base prefix: the flag package would read --stride 017 as octal (15)
// where --repeat 017 reads 17, so neither is taken.
func decimalOnly(flags []cli.Flag, args []string) error {
	for i, a := range args {
		if a == "--" {
			return nil
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == a || !takesWholeNumber(flags, name) {
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				continue
			}
			value = args[i+1]
		}
		if digits := strings.TrimLeft(value, "+-"); len(digits) > 1 && digits[0] == '0' {
			return usagef("--%s: %q: write the number in decimal, without a leading zero or a base prefix", name, value)
		}
	}
	return nil
}

func takesWholeNumber(flags []cli.Flag, name string) bool {
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
			return true
		}
		return slices.Contains(wholeNumberFlags, name)
	}
	return false
}

// switchWithValue finds a switch written with its value after a space.
func switchWithValue(flags []cli.Flag, args []string) error {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--" {
			return nil
		}
		name := strings.TrimLeft(args[i], "-")
		next := strings.ToLower(args[i+1])
		if name == args[i] || strings.Contains(name, "=") || (next != "true" && next != "false") {
			continue
		}
		for _, f := range flags {
			if isBoolFlag(f) && slices.Contains(f.Names(), name) {
				return usagef("--%s: a switch takes its value after \"=\": write --%s=%s (or --%s alone for true)", name, name, next, name)
			}
		}
	}
	return nil
}

// repeatedFlag refuses a flag given twice (`--size 1MiB ... --size 2MiB`):
// urfave/cli would silently keep the last, and a sweep would then measure
// something other than one of the values the user typed. Slice flags
// (--hint) are repeatable by design.
func repeatedFlag(app *cli.App, args []string) error {
	flags, rest := flagsOf(app, args)
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
