package report

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/record"
)

// Placeholders Anonymize puts in place of what identifies a site.
const (
	HostPlaceholder   = "<host>"
	UserPlaceholder   = "<user>"
	DirPlaceholder    = "<dir>"
	MountPlaceholder  = "<mount>"
	DevicePlaceholder = "<device>"
	AddrPlaceholder   = "<addr>"
	PathPlaceholder   = "<path>"
)

// Anonymize returns a copy of r without host names, user names and paths,
// for a report posted in public. It replaces the host name and the MPI
// hosts; the user name (user, if not empty, and whatever follows /home/,
// /u/ or /Users/ in a path); the directory, mount point, device and kept
// file; the directories of other path arguments on the command line; and
// server addresses in the mount options. Each becomes a placeholder such
// as <host> or <dir>, and the same input always gives the same
// placeholder, so a reader can still tell that two fields were equal.
// Numbers, the file system type and the other mount options stay: they are
// what the report is for.
func Anonymize(r *Report, user string) *Report {
	a := newAnonymizer(r, user)
	out := *r
	out.Command = a.command(r.Command)
	out.Host.Hostname = a.host(r.Host.Hostname)
	out.FS = r.FS
	out.FS.Dir = a.path(r.FS.Dir, DirPlaceholder)
	out.FS.ResolvedDir = a.path(r.FS.ResolvedDir, DirPlaceholder)
	out.FS.MountPoint = a.text(r.FS.MountPoint)
	out.FS.Device = a.text(r.FS.Device)
	out.FS.MountOptions = a.options(r.FS.MountOptions)
	out.FS.SuperOptions = a.options(r.FS.SuperOptions)
	out.KeptFile = a.text(r.KeptFile)
	out.LeftFiles = nil
	for _, l := range r.LeftFiles {
		out.LeftFiles = append(out.LeftFiles, record.LeftFile{Path: a.text(l.Path), Err: a.text(l.Err)})
	}
	out.Warnings = a.texts(r.Warnings)
	out.Error = a.text(r.Error)
	out.Config.ProfileWhy = a.text(r.Config.ProfileWhy)
	out.Recommendation = a.recommendation(r.Recommendation)
	out.MPI = a.mpi(r.MPI)
	return &out
}

// anonymizer holds the replacements of one report.
type anonymizer struct {
	paths []pathSub         // longest first, so /a/b is replaced before /a
	words map[string]string // user and host names, whole words only
	re    *regexp.Regexp    // matches a placeholder or any key of words
	hosts int               // host placeholders handed out
	dirs  map[string]string // other directories on the command line
	dir   string            // --dir as given
}

type pathSub struct{ from, to string }

func newAnonymizer(r *Report, user string) *anonymizer {
	a := &anonymizer{words: map[string]string{}, dirs: map[string]string{}, dir: r.FS.Dir}
	a.addPath(r.FS.ResolvedDir, DirPlaceholder)
	a.addPath(r.FS.Dir, DirPlaceholder)
	if r.FS.MountPoint != "/" {
		a.addPath(r.FS.MountPoint, MountPlaceholder)
	}
	if strings.ContainsAny(r.FS.Device, "/:") {
		// "tmpfs" or "overlay" name no site; "/dev/sdb" and "nas:/export" may.
		a.addPath(r.FS.Device, DevicePlaceholder)
	}
	slices.SortStableFunc(a.paths, func(x, y pathSub) int { return cmp.Compare(len(y.from), len(x.from)) })
	for _, u := range usersIn(r, user) {
		a.words[u] = UserPlaceholder
	}
	a.addHost(r.Host.Hostname)
	if r.MPI != nil {
		for _, h := range r.MPI.Hosts {
			a.addHost(h)
		}
	}
	a.compile()
	return a
}

// addPath has text replace p. Only paths with a slash qualify: a relative
// --dir such as "data" is also an ordinary word in messages.
func (a *anonymizer) addPath(p, placeholder string) {
	p = strings.TrimRight(p, "/")
	if !strings.Contains(p, "/") {
		return
	}
	for _, s := range a.paths {
		if s.from == p {
			return // the first placeholder given to a path stays
		}
	}
	a.paths = append(a.paths, pathSub{p, placeholder})
}

// addHost gives each distinct host its own placeholder: <host> for the
// first, then <host-2>, ...; a fully qualified name's short form maps to
// the same one, since either may appear in paths and messages.
func (a *anonymizer) addHost(h string) {
	if h == "" || a.words[h] != "" {
		return
	}
	a.hosts++
	ph := HostPlaceholder
	if a.hosts > 1 {
		ph = fmt.Sprintf("<host-%d>", a.hosts)
	}
	a.words[h] = ph
	if short, _, ok := strings.Cut(h, "."); ok && short != "" && a.words[short] == "" {
		a.words[short] = ph
	}
	if inName := record.FileNameHost(h); a.words[inName] == "" { // as data file names spell it
		a.words[inName] = ph
	}
}

// homeUser finds user names as the component after a home directory root.
var homeUser = regexp.MustCompile(`(?:^|/)(?:home|u|Users)/([^/\s"'=]+)`)

// usersIn is user plus every user name seen in r's paths and command line.
func usersIn(r *Report, user string) []string {
	var users []string
	if user != "" {
		users = append(users, user)
	}
	for _, s := range append([]string{r.FS.Dir, r.FS.ResolvedDir, r.FS.MountPoint, r.FS.Device, r.KeptFile}, r.Command...) {
		for _, m := range homeUser.FindAllStringSubmatch(s, -1) {
			users = append(users, m[1])
		}
	}
	return users
}

// compile builds one regexp over all names, so that a name is never
// looked for inside the placeholder that replaced another (a user called
// "host" must not turn "<host>" into "<<user>>").
func (a *anonymizer) compile() {
	alts := []string{`<[a-z0-9-]+>`}
	names := slices.Collect(maps.Keys(a.words))
	slices.SortFunc(names, func(x, y string) int { return cmp.Or(cmp.Compare(len(y), len(x)), cmp.Compare(x, y)) })
	for _, n := range names {
		alts = append(alts, `\b`+regexp.QuoteMeta(n)+`\b`)
	}
	a.re = regexp.MustCompile(strings.Join(alts, "|"))
}

// text replaces known paths, then user and host names, in free text.
func (a *anonymizer) text(s string) string {
	for _, p := range a.paths {
		s = replacePath(s, p.from, p.to)
	}
	return a.re.ReplaceAllStringFunc(s, func(m string) string {
		if ph, ok := a.words[m]; ok {
			return ph
		}
		return m // a placeholder
	})
}

func (a *anonymizer) texts(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = a.text(s)
	}
	return out
}

// path anonymizes a field that holds one path: a relative --dir such as
// "scratch" has no slash for text to recognise, but it is still a path.
func (a *anonymizer) path(p, placeholder string) string {
	if p == "" || p == "." {
		return p
	}
	if s := a.text(p); s != p {
		return s
	}
	return placeholder
}

func (a *anonymizer) host(h string) string {
	if h == "" {
		return h
	}
	return a.words[h]
}

// command keeps flags and values and anonymizes paths in them; the
// program itself is reduced to its base name, since where it was
// installed says nothing about the file system measured.
func (a *anonymizer) command(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, arg := range args {
		if i == 0 {
			out[i] = a.text(filepath.Base(arg))
		} else {
			out[i] = a.arg(arg)
		}
	}
	return out
}

// arg anonymizes one command-line word. A path that is none of the known
// ones (an -o file, a report given to compare) keeps its base name, which
// says what the file is, and loses its directory to <path>, <path-2>, ...
func (a *anonymizer) arg(arg string) string {
	s := a.text(arg)
	flag, value, isFlag := strings.Cut(s, "=")
	if !isFlag || !strings.HasPrefix(flag, "-") {
		flag, value = "", s
	} else {
		flag += "="
	}
	if value == a.dir && value != "." {
		return flag + DirPlaceholder
	}
	if !strings.Contains(value, "/") || strings.HasPrefix(value, "<") {
		return s
	}
	dir, base := filepath.Split(value)
	dir = strings.TrimRight(dir, "/")
	if dir == "" { // "/file": the root directory names nobody
		return s
	}
	ph, ok := a.dirs[dir]
	if !ok {
		ph = PathPlaceholder
		if n := len(a.dirs) + 1; n > 1 {
			ph = fmt.Sprintf("<path-%d>", n)
		}
		a.dirs[dir] = ph
	}
	return flag + ph + "/" + base
}

// addrOption matches NFS and Lustre server addresses in mount options.
var addrOption = regexp.MustCompile(`\b((?:client|mount)?addr)=[^,]*`)

func (a *anonymizer) options(s string) string {
	return a.text(addrOption.ReplaceAllString(s, "${1}="+AddrPlaceholder))
}

func (a *anonymizer) recommendation(rec *advice.Recommendation) *advice.Recommendation {
	if rec == nil {
		return nil
	}
	out := *rec
	out.Summary = a.text(rec.Summary)
	out.BlockSizes.Note = a.text(rec.BlockSizes.Note)
	return &out
}

func (a *anonymizer) mpi(m *MPI) *MPI {
	if m == nil {
		return nil
	}
	out := *m
	out.Hosts = make([]string, len(m.Hosts))
	for i, h := range m.Hosts {
		out.Hosts[i] = a.host(h)
	}
	out.MPIIO = a.mpiio(m.MPIIO)
	return &out
}

// mpiio anonymizes the hints: a ROMIO_HINTS path, and values that name
// hosts or paths (cb_config_list, a Lustre pool).
func (a *anonymizer) mpiio(m *MPIIO) *MPIIO {
	if m == nil {
		return nil
	}
	out := *m
	out.HintsRequested = make([]RequestedHint, len(m.HintsRequested))
	for i, h := range m.HintsRequested {
		source := a.text(h.Source)
		if env, file, ok := strings.Cut(h.Source, "="); ok {
			source = env + "=" + a.arg(file) // the file keeps its base name, loses its directory
		}
		out.HintsRequested[i] = RequestedHint{Hint: Hint{Key: h.Key, Value: a.text(h.Value)}, Source: source}
	}
	if m.HintsInEffect != nil {
		out.HintsInEffect = make([]Hint, len(m.HintsInEffect))
		for i, h := range m.HintsInEffect {
			out.HintsInEffect[i] = Hint{Key: h.Key, Value: a.text(h.Value)}
		}
	}
	return &out
}

// replacePath replaces every occurrence of the path from in s that stands
// on its own (not part of a longer name such as /tmp/xy for /tmp/x), and
// keeps what follows: /gpfs/x/run1 becomes <dir>/run1.
func replacePath(s, from, to string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, from)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(from)
		if pathBoundary(s, i-1) && pathBoundary(s, end) {
			b.WriteString(s[:i] + to)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

// pathBoundary reports whether s[i] (out of range counts) can end or
// start a path: anything but a character of a file name, or a full stop
// that ends a sentence.
func pathBoundary(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	c := s[i]
	if c == '.' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') {
		return true
	}
	return c == '/' || !(c == '.' || c == '-' || c == '_' || c == '~' ||
		'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80)
}
