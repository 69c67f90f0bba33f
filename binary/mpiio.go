package binary

import (
	"bufio"
	"cmp"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// MPIIOSources are where Open MPI's choice of MPI-IO component shows,
// besides its release and the file system.
type MPIIOSources struct {
	Env []string // the program's environment: OMPI_MCA_io, HOME, OPAL_PREFIX, PATH
	// Launcher is the io value the launcher's options give, "" when
	// none; LauncherOpt the option as given ("--mca io romio321").
	Launcher, LauncherOpt string
	// Opened are the shared objects the trace shows the program opening:
	// Open MPI opens both io components, and OMPIO its fcoll and fbtl
	// components only when it is the one chosen.
	Opened []string
	Lib    string // libmpi's path, to find its installation's parameter file
	// ParamFiles are the mca-params.conf files, lowest precedence first;
	// nil: DefaultParamFiles.
	ParamFiles []string
	FSType     string // as statfs names it: "lustre", "gpfs", "ext4"
}

// MPIIOComponentFrom says which MPI-IO component ran, and why: what the
// trace shows ran; else the io parameter by Open MPI's precedence (the
// launcher's --mca, OMPI_MCA_io, the parameter files); else the
// release's default on that file system.
func MPIIOComponentFrom(kind Kind, version string, s MPIIOSources) (component, why string) {
	switch kind {
	case MPICH:
		return "ROMIO", "MPICH implements MPI-IO with ROMIO"
	case OpenMPI:
	default:
		return "", string(kind) + " is not an MPI runtime"
	}
	major := leadingInt(version)
	romio := "romio321" // Open MPI 3.x and 4.x
	if major >= 5 {
		romio = "romio341"
	}
	if c, why, ok := openedComponent(s.Opened); ok {
		return c, why
	}
	if v, src, ok := ioParam(s); ok {
		return fromMCA(v, romio, src)
	}
	return defaultComponent(major, version, strings.ToLower(s.FSType), romio)
}

// defaultComponent is the component Open MPI picks with no io setting.
func defaultComponent(major int, version, fs, romio string) (string, string) {
	switch {
	case major >= 0 && major < 2:
		return "romio", "Open MPI " + version + " predates OMPIO as default"
	case (fs == "lustre" || fs == "gpfs") && major >= 0 && major < 5:
		return romio, "ROMIO outranks OMPIO on " + fs + " in Open MPI < 5"
	case major < 0 && (fs == "lustre" || fs == "gpfs"):
		return romio, "the Open MPI release is not known; before 5.0, ROMIO outranks OMPIO on " + fs + " (from 5.0, OMPIO)"
	case major < 0:
		return "ompio", "no io setting: Open MPI >= 2 defaults to OMPIO (the release is not known)"
	}
	return "ompio", "no io setting: Open MPI >= 2 defaults to OMPIO"
}

var romioObject = regexp.MustCompile(`^mca_io_(romio[0-9]*)\.so$`)

// openedComponent is the component the shared objects opened show ran:
// OMPIO opens its fcoll and fbtl components at a file's open; ROMIO,
// chosen, leaves them unopened (Open MPI 4.1, measured).
func openedComponent(opened []string) (string, string, bool) {
	var romio string
	for _, p := range opened {
		b := filepath.Base(p)
		if strings.HasPrefix(b, "mca_fcoll_") || strings.HasPrefix(b, "mca_fbtl_") {
			return "ompio", "the trace shows OMPIO's " + b + " opened", true
		}
		if m := romioObject.FindStringSubmatch(b); m != nil {
			romio = m[1]
		}
	}
	if romio != "" {
		return romio, "the trace shows mca_io_" + romio + ".so opened and none of OMPIO's fcoll or fbtl components", true
	}
	return "", "", false
}

// ioParam is the io parameter's value and where it was set, by Open
// MPI's precedence: the command line, the environment, the files.
func ioParam(s MPIIOSources) (v, src string, ok bool) {
	if s.Launcher != "" {
		return s.Launcher, "the launcher's " + cmp.Or(s.LauncherOpt, "--mca io "+s.Launcher), true
	}
	if v, ok := lookupEnv(s.Env, "OMPI_MCA_io"); ok && v != "" {
		return v, "OMPI_MCA_io=" + v, true
	}
	files := s.ParamFiles
	if files == nil {
		files = DefaultParamFiles(s.Env, s.Lib)
	}
	for i := len(files) - 1; i >= 0; i-- {
		if v, ok := paramIn(files[i], "io"); ok && v != "" {
			return v, "io = " + v + " in " + files[i], true
		}
	}
	return "", "", false
}

// DefaultParamFiles are the mca-params.conf files Open MPI reads, lowest
// precedence first: OMPI_MCA_mca_param_files when set; else the
// installation's (etc/openmpi-mca-params.conf of OPAL_PREFIX, of lib's
// prefix, or of the mpirun on PATH; /etc/openmpi for a /usr install, as
// Debian builds it) and $HOME/.openmpi/mca-params.conf.
func DefaultParamFiles(env []string, lib string) []string {
	if v, ok := lookupEnv(env, "OMPI_MCA_mca_param_files"); ok && v != "" {
		return filepath.SplitList(v)
	}
	var out []string
	for _, prefix := range installPrefixes(env, lib) {
		out = append(out, filepath.Join(prefix, "etc", "openmpi-mca-params.conf"))
		if prefix == "/usr" {
			out = append(out, "/etc/openmpi/openmpi-mca-params.conf")
		}
	}
	if home, ok := lookupEnv(env, "HOME"); ok && home != "" {
		out = append(out, filepath.Join(home, ".openmpi", "mca-params.conf"))
	}
	return out
}

// installPrefixes are the Open MPI installation's prefix, first found.
func installPrefixes(env []string, lib string) []string {
	if v, ok := lookupEnv(env, "OPAL_PREFIX"); ok && v != "" {
		return []string{v}
	}
	if lib != "" {
		return []string{libPrefix(lib)}
	}
	path, _ := lookupEnv(env, "PATH")
	for _, dir := range filepath.SplitList(path) {
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "mpirun")); err == nil && dir != "" {
			return []string{filepath.Dir(filepath.Dir(real))}
		}
	}
	return nil
}

// libPrefix is the prefix of a library in PREFIX/lib or PREFIX/lib64,
// or in a multiarch PREFIX/lib/x86_64-linux-gnu.
func libPrefix(lib string) string {
	dir := filepath.Dir(lib)
	for filepath.Base(dir) != "lib" && filepath.Base(dir) != "lib64" && dir != "/" && dir != "." {
		dir = filepath.Dir(dir)
	}
	return filepath.Dir(dir)
}

// paramIn is name's value in an mca-params.conf ("name = value" lines,
// # comments), the last one set.
func paramIn(path, name string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	val, found := "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == name {
			val, found = strings.TrimSpace(v), true
		}
	}
	return val, found
}

// fromMCA applies an io value: a list to use or a ^list to exclude.
func fromMCA(v, romio, why string) (string, string) {
	excl, ok := strings.CutPrefix(v, "^")
	if !ok {
		first, _, _ := strings.Cut(v, ",")
		return strings.TrimSpace(first), why
	}
	if slices.ContainsFunc(strings.Split(excl, ","), func(c string) bool { return strings.TrimSpace(c) == "ompio" }) {
		return romio, why
	}
	return "ompio", why
}

func lookupEnv(env []string, key string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val, found = v, true // last one wins, as with os/exec
		}
	}
	return val, found
}

// leadingInt parses the major number of "4.1.4" or "v5.0"; -1 if none.
func leadingInt(s string) int {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	maj, _, _ := strings.Cut(s, ".")
	n, err := strconv.Atoi(maj)
	if err != nil {
		return -1
	}
	return n
}
