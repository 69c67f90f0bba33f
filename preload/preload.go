package preload

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

//go:embed src/shim.c
var shimSource []byte

// BufferEnv is the shim's buffer size in bytes, decimal.
const BufferEnv = "IOBENCH_STDIO_BUFFER"

// ReportEnv names the file each process that loads the shim appends to.
const ReportEnv = "IOBENCH_PRELOAD_REPORT"

// preloadEnv is the dynamic loader's variable.
const preloadEnv = "LD_PRELOAD"

// libName is the built shim's file name.
const libName = "libiobench-stdio.so"

// Shim is a built shim.
type Shim struct {
	Path string // the .so, absolute: LD_PRELOAD is read in the program's directory
}

// Build compiles the shim into dir with the C compiler found as $CC, else
// cc, else gcc; an error says which compiler was missing or the
// compiler's first stderr lines ("building the stdio shim: ...").
func Build(ctx context.Context, dir string) (Shim, error) {
	cc, err := compiler()
	if err != nil {
		return Shim{}, fmt.Errorf("building the stdio shim: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Shim{}, fmt.Errorf("building the stdio shim: %w", err)
	}
	// The loader splits LD_PRELOAD at spaces and colons.
	if strings.ContainsAny(abs, " :\t\n") {
		return Shim{}, fmt.Errorf("building the stdio shim: directory %q has a space or colon, which LD_PRELOAD cannot carry", abs)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return Shim{}, fmt.Errorf("building the stdio shim: %w", err)
	}
	src := filepath.Join(abs, "libiobench-stdio.c")
	if err := os.WriteFile(src, shimSource, 0o644); err != nil {
		return Shim{}, fmt.Errorf("building the stdio shim: %w", err)
	}
	// Built under another name and renamed: a program still running with
	// an earlier build keeps its mapping intact.
	lib := filepath.Join(abs, libName)
	tmp := lib + ".tmp"
	args := append(slices.Clone(cc[1:]), "-shared", "-fPIC", "-O2", "-Wall", "-o", tmp, src, "-ldl")
	cmd := exec.CommandContext(ctx, cc[0], args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil {
			return Shim{}, fmt.Errorf("building the stdio shim: %w", ctx.Err())
		}
		if msg := firstLines(stderr.String(), 3); msg != "" {
			return Shim{}, fmt.Errorf("building the stdio shim: %s: %s", cc[0], msg)
		}
		return Shim{}, fmt.Errorf("building the stdio shim: %s: %w", cc[0], err)
	}
	if err := os.Rename(tmp, lib); err != nil {
		os.Remove(tmp)
		return Shim{}, fmt.Errorf("building the stdio shim: %w", err)
	}
	return Shim{Path: lib}, nil
}

// compiler is the C compiler's command: $CC split into words (it may
// carry flags, "gcc -m32"), else cc, else gcc.
func compiler() ([]string, error) {
	if cc := strings.Fields(os.Getenv("CC")); len(cc) > 0 {
		p, err := exec.LookPath(cc[0])
		if err != nil {
			return nil, fmt.Errorf("the C compiler $CC=%q is not found", os.Getenv("CC"))
		}
		return append([]string{p}, cc[1:]...), nil
	}
	for _, name := range []string{"cc", "gcc"} {
		if p, err := exec.LookPath(name); err == nil {
			return []string{p}, nil
		}
	}
	return nil, errors.New("no C compiler: $CC is unset and neither cc nor gcc is on PATH")
}

// firstLines is s's first n non-blank lines, joined by "; ".
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && len(out) < n {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

// Env returns the environment entries that make a program load the shim
// with a buffer of size bytes and report to reportPath: LD_PRELOAD
// (prepended to an existing LD_PRELOAD in base, space-separated),
// BufferEnv, ReportEnv. The result is base with those entries replaced,
// ready for exec.Cmd.Env; base is not modified. An empty reportPath
// leaves ReportEnv out, so a stale one in base reports nowhere.
func (s Shim) Env(base []string, size int64, reportPath string) []string {
	// The last entry wins, as exec.Cmd does with duplicates.
	var old string
	out := make([]string, 0, len(base)+3)
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case preloadEnv:
			old = v
		case BufferEnv, ReportEnv:
		default:
			out = append(out, kv)
		}
	}
	pre := s.Path
	// Drop an earlier copy of the shim, so Env on its own output does
	// not grow the list; keep the user's libraries as they were.
	var rest []string
	for _, p := range strings.FieldsFunc(old, func(r rune) bool { return r == ' ' || r == ':' }) {
		if p != s.Path {
			rest = append(rest, p)
		}
	}
	if len(rest) > 0 {
		pre += " " + strings.Join(rest, " ")
	}
	out = append(out, preloadEnv+"="+pre, BufferEnv+"="+strconv.FormatInt(size, 10))
	if reportPath != "" {
		out = append(out, ReportEnv+"="+reportPath)
	}
	return out
}

// Loaded is what a report file says.
type Loaded struct {
	Processes int   // processes that loaded the shim
	Files     int   // streams given the buffer, over the processes that exited normally
	Buffer    int64 // the buffer size the processes read, the largest if they differ; 0 if invalid
}

// ReadReport reads a report file: how many processes loaded the shim and
// how many files got the buffer; a missing file means 0 loaded (not an
// error).
func ReadReport(path string) (Loaded, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Loaded{}, nil
	}
	if err != nil {
		return Loaded{}, fmt.Errorf("reading the stdio shim's report: %w", err)
	}
	defer f.Close()
	return parseReport(f, path)
}

func parseReport(r io.Reader, path string) (Loaded, error) {
	var l Loaded
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		bad := func() (Loaded, error) {
			return Loaded{}, fmt.Errorf("reading the stdio shim's report: %s:%d: unexpected line %q", path, n, line)
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "loaded "):
			var pid, buf int64
			if k, err := fmt.Sscanf(line, "loaded pid=%d buffer=%d", &pid, &buf); err != nil || k != 2 {
				return bad()
			}
			l.Processes++
			l.Buffer = max(l.Buffer, buf)
		case strings.HasPrefix(line, "files="):
			k, err := strconv.Atoi(strings.TrimPrefix(line, "files="))
			if err != nil || k < 0 {
				return bad()
			}
			l.Files += k
		default:
			return bad()
		}
	}
	if err := sc.Err(); err != nil {
		return Loaded{}, fmt.Errorf("reading the stdio shim's report: %w", err)
	}
	return l, nil
}

// Limits lists what the shim cannot act on, for reports.
func Limits() []string {
	return []string{
		"static binaries: there is no dynamic loader to read LD_PRELOAD",
		"setuid, setgid or file-capability binaries: the loader ignores LD_PRELOAD for them",
		"C++ iostreams: std::ofstream buffers in libstdc++'s filebuf, not in a stdio FILE",
		"Fortran runtimes: libgfortran and others do their own buffering (GFORTRAN_UNFORMATTED_BUFFER_SIZE for gfortran)",
		"programs that call setvbuf themselves after fopen: their call wins",
		"stdout and stderr redirected by the shell: they are opened before the program, not by fopen",
		"streams on a terminal: they keep their line buffering",
	}
}

// maxScriptDepth is how many #! interpreters Linux follows.
const maxScriptDepth = 4

// Applicable says whether an executable can be reached by LD_PRELOAD:
// false with the reason for a static ELF (no PT_INTERP) or a
// setuid/setgid file. A name without a slash is looked up on PATH; a
// script is judged by its #! interpreter.
func Applicable(exe string) (bool, string) {
	return applicable(exe, 0)
}

func applicable(exe string, depth int) (bool, string) {
	if !strings.Contains(exe, "/") {
		p, err := exec.LookPath(exe)
		if err != nil {
			return false, fmt.Sprintf("%s: not found on PATH", exe)
		}
		exe = p
	}
	f, err := os.Open(exe)
	if err != nil {
		return false, err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, err.Error()
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Sprintf("%s: not a regular file", exe)
	}
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	// Linux ignores the setuid bit of a script: the interpreter decides.
	if bytes.HasPrefix(head, []byte("#!")) {
		if depth >= maxScriptDepth {
			return false, fmt.Sprintf("%s: too many #! interpreters", exe)
		}
		first, _, _ := bytes.Cut(head[2:], []byte("\n"))
		w := strings.Fields(string(first))
		if len(w) == 0 {
			return false, fmt.Sprintf("%s: #! names no interpreter", exe)
		}
		// env's program is the one that runs; with options to env, only
		// env itself can be judged.
		if filepath.Base(w[0]) == "env" && len(w) == 2 && !strings.HasPrefix(w[1], "-") {
			return applicable(w[1], depth+1)
		}
		return applicable(w[0], depth+1)
	}
	if fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
		return false, fmt.Sprintf("%s is setuid or setgid: the dynamic loader ignores LD_PRELOAD for it", exe)
	}
	e, err := elf.NewFile(f)
	if err != nil {
		return false, fmt.Sprintf("%s: neither an ELF executable nor a #! script", exe)
	}
	if e.Type != elf.ET_EXEC && e.Type != elf.ET_DYN {
		return false, fmt.Sprintf("%s: an ELF %v, not an executable", exe, e.Type)
	}
	interp := false
	for _, p := range e.Progs {
		if p.Type == elf.PT_INTERP {
			interp = true
		}
	}
	if !interp {
		return false, fmt.Sprintf("%s is statically linked (no PT_INTERP): no dynamic loader reads LD_PRELOAD", exe)
	}
	// A shim built by this machine's cc cannot be loaded into a program
	// of another class or machine (a 32-bit one, say); the loader only
	// warns and runs the program without it.
	if self, ok := ownELF(); ok && (self.Class != e.Class || self.Machine != e.Machine) {
		return false, fmt.Sprintf("%s is %v %v, not %v %v like this machine's shim", exe, e.Class, e.Machine, self.Class, self.Machine)
	}
	return true, ""
}

// ownELF is this program's ELF header, which says the machine the shim
// is built for.
func ownELF() (elf.FileHeader, bool) {
	p, err := os.Executable()
	if err != nil {
		return elf.FileHeader{}, false
	}
	e, err := elf.Open(p)
	if err != nil {
		return elf.FileHeader{}, false
	}
	defer e.Close()
	return e.FileHeader, true
}
