package program

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Launcher is the kind of job launcher a command line starts.
type Launcher string

// The launchers whose command lines ParseLauncher splits.
const (
	NoLauncher Launcher = ""
	OpenMPI    Launcher = "mpirun"        // Open MPI's mpirun, mpiexec, orterun, prterun
	Hydra      Launcher = "mpiexec.hydra" // MPICH's (and Intel MPI's) hydra
	Slurm      Launcher = "srun"
)

// LauncherOf names the launcher at argv0, looked up on path: Debian's
// mpirun and Intel MPI's are hydra's behind a link or beside it.
func LauncherOf(argv0, path string) Launcher {
	switch filepath.Base(argv0) {
	case "mpirun", "mpiexec", "orterun", "prterun", "oshrun":
		if isHydra(argv0, path) {
			return Hydra
		}
		return OpenMPI
	case "mpirun.openmpi", "mpiexec.openmpi":
		return OpenMPI
	case "mpiexec.hydra", "mpiexec.mpich", "mpirun.mpich":
		return Hydra
	case "srun":
		return Slurm
	}
	return NoLauncher
}

// isHydra tells a generic mpirun that is hydra's: it links to it, or it
// is a script beside mpiexec.hydra (Intel MPI).
func isHydra(argv0, path string) bool {
	exe, err := Resolve(argv0, "", path)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return false
	}
	switch base := filepath.Base(real); {
	case strings.Contains(base, "hydra") || strings.Contains(base, "mpich"):
		return true
	case base != "mpirun" && base != "mpiexec":
		return false // orterun, mpirun.openmpi: Debian keeps both MPIs in /usr/bin
	}
	_, err = os.Stat(filepath.Join(filepath.Dir(real), "mpiexec.hydra"))
	return err == nil
}

// Launch is a launcher's command line split into its apps: ':' parts
// (MPMD), each with the launcher's options and the program they start.
type Launch struct {
	Kind Launcher
	Apps []App
}

// App is one ':' part of a launcher's command line.
type App struct {
	Opts  []string // the launcher and its options in the first app; the app's options in others
	Argv  []string // the program and its arguments
	Ranks int      // the ranks its options ask for; 0: they do not say
}

// ParseLauncher splits argv when argv[0] is a launcher (ok), or says why
// it cannot tell the programs from the launcher's options.
func ParseLauncher(argv []string, path string) (l Launch, ok bool, err error) {
	if len(argv) == 0 {
		return Launch{}, false, nil
	}
	kind := LauncherOf(argv[0], path)
	if kind == NoLauncher {
		return Launch{}, false, nil
	}
	l.Kind = kind
	t := tables[kind]
	for i, seg := range splitApps(argv[1:]) {
		opts, prog, err := t.split(seg)
		if err != nil {
			return Launch{}, true, fmt.Errorf("%s: %w", filepath.Base(argv[0]), err)
		}
		if i == 0 {
			opts = append([]string{argv[0]}, opts...)
		}
		l.Apps = append(l.Apps, App{Opts: opts, Argv: prog, Ranks: t.ranks(opts)})
	}
	return l, true, nil
}

// splitApps cuts a command line at its ':' arguments.
func splitApps(args []string) [][]string {
	var out [][]string
	for {
		i := slices.Index(args, ":")
		if i < 0 {
			return append(out, args)
		}
		out, args = append(out, args[:i]), args[i+1:]
	}
}

// Ranks is the ranks the command line asks for; 0 when an app does not say.
func (l Launch) Ranks() int {
	n := 0
	for _, a := range l.Apps {
		if a.Ranks == 0 {
			return 0
		}
		n += a.Ranks
	}
	return n
}

// Wrap is the command line with prefix before each app's program: the
// launcher starts prefix, which starts the program.
func (l Launch) Wrap(prefix []string) []string {
	var out []string
	for i, a := range l.Apps {
		if i > 0 {
			out = append(out, ":")
		}
		out = append(append(append(out, a.Opts...), prefix...), a.Argv...)
	}
	return out
}

// optTable is what a launcher's options take: how many values by name
// (optional: only as --opt=value or, in getopt's style, -oVALUE).
type optTable struct {
	long   map[string]int
	short  map[byte]int // getopt's letters (srun); nil: -name is a long name
	refuse map[string]string
	np     []string // the options that give the number of ranks
}

const optional = -1

// split cuts one app into the launcher's options and the program.
func (t optTable) split(seg []string) (opts, prog []string, err error) {
	for i := 0; i < len(seg); i++ {
		a := seg[i]
		if a == "--" {
			return seg[:i+1], seg[i+1:], t.program(seg[i+1:])
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return seg[:i], seg[i:], nil
		}
		n, err := t.values(a)
		if err != nil {
			return nil, nil, err
		}
		if i+n >= len(seg) {
			return nil, nil, fmt.Errorf("%s: wants %d value(s), the command line ends first", a, n)
		}
		i += n
	}
	return nil, nil, t.program(nil)
}

func (t optTable) program(prog []string) error {
	if len(prog) == 0 {
		return fmt.Errorf("no program after the launcher's options")
	}
	return nil
}

// values is how many of the following arguments an option takes.
func (t optTable) values(a string) (int, error) {
	if t.short != nil && !strings.HasPrefix(a, "--") {
		return t.shortValues(a)
	}
	name, inline, hasInline := strings.Cut(strings.TrimLeft(a, "-"), "=")
	n, known := t.long[name]
	if why, ok := t.refuse[name]; ok {
		return 0, fmt.Errorf("%s: %s: iobench cannot put the tracer before the program", a, why)
	}
	switch {
	case !known:
		return 0, fmt.Errorf("%s: an option iobench does not know, so it cannot tell whether it takes a value", a)
	case hasInline && (n == 0 || n == 2):
		return 0, fmt.Errorf("%s: takes %d values, not %q", a, n, inline)
	case hasInline || n == optional:
		return 0, nil
	}
	return n, nil
}

// shortValues reads getopt's bundled letters, "-ln4": -l, then -n 4.
func (t optTable) shortValues(a string) (int, error) {
	for j := 1; j < len(a); j++ {
		n, ok := t.short[a[j]]
		if !ok {
			return 0, fmt.Errorf("%s: -%c is an option iobench does not know, so it cannot tell whether it takes a value", a, a[j])
		}
		if why, ok := t.refuse[a[j:j+1]]; ok {
			return 0, fmt.Errorf("%s: %s: iobench cannot put the tracer before the program", a, why)
		}
		switch {
		case n == 0:
			continue
		case j+1 < len(a) || n == optional:
			return 0, nil // the rest of the argument is the value
		}
		return n, nil
	}
	return 0, nil
}

// ranks is the number an app's options ask for; 0 when none says.
func (t optTable) ranks(opts []string) int {
	for i := len(opts) - 1; i >= 0; i-- {
		if v, ok := t.npValue(opts, i); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return 0
			}
			return n
		}
	}
	return 0
}

// npValue is the value of opts[i] when it is a ranks option.
func (t optTable) npValue(opts []string, i int) (string, bool) {
	a := opts[i]
	for _, np := range t.np {
		switch {
		case a == np && i+1 < len(opts):
			return opts[i+1], true
		case strings.HasPrefix(a, np+"="):
			return a[len(np)+1:], true
		case len(np) == 2 && t.short != nil && strings.HasPrefix(a, np) && len(a) > 2:
			return a[2:], true // srun -n4
		}
	}
	return "", false
}

// MCA is the value the launcher's options give an Open MPI MCA
// parameter, and the option as given: --mca NAME VALUE (-mca, --gmca),
// which Open MPI ranks above the environment, else -x
// OMPI_MCA_NAME=VALUE, which sets the ranks' environment; the last one
// given. ok is false when they give none, or the launcher is not Open
// MPI's.
func (l Launch) MCA(name string) (value, opt string, ok bool) {
	if l.Kind != OpenMPI {
		return "", "", false
	}
	var mca, env [][2]string
	for _, a := range l.Apps {
		for i := 0; i+1 < len(a.Opts); i++ {
			switch o := strings.TrimLeft(a.Opts[i], "-"); {
			case (o == "mca" || o == "gmca") && i+2 < len(a.Opts) && a.Opts[i+1] == name:
				mca = append(mca, [2]string{a.Opts[i+2], strings.Join(a.Opts[i:i+3], " ")})
			case o == "x" && strings.HasPrefix(a.Opts[i+1], "OMPI_MCA_"+name+"="):
				env = append(env, [2]string{strings.TrimPrefix(a.Opts[i+1], "OMPI_MCA_"+name+"="), a.Opts[i] + " " + a.Opts[i+1]})
			}
		}
	}
	switch {
	case len(mca) > 0:
		return mca[len(mca)-1][0], mca[len(mca)-1][1], true
	case len(env) > 0:
		return env[len(env)-1][0], env[len(env)-1][1], true
	}
	return "", "", false
}
