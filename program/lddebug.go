package program

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Loaded is what the dynamic loader said of one process: the program it
// started and the shared objects it initialised, in order.
type Loaded struct {
	PID     int
	Program string // as ld.so names it: the executable's name
	Libs    []string
}

// ParseLDDebug reads the output of LD_DEBUG=libs: per process, its
// "initialize program:" and "calling init:" lines. Lines without a pid
// prefix (LD_DEBUG without LD_DEBUG_OUTPUT, mixed into stderr) are kept
// under pid 0. Pure: it reads r only.
func ParseLDDebug(r io.Reader) ([]Loaded, error) {
	byPID := map[int]*Loaded{}
	var order []int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		pid, msg := splitPID(sc.Text())
		l := byPID[pid]
		if l == nil {
			l = &Loaded{PID: pid}
			byPID[pid] = l
			order = append(order, pid)
		}
		if p, ok := strings.CutPrefix(msg, "calling init: "); ok && !slices.Contains(l.Libs, p) {
			l.Libs = append(l.Libs, p)
		}
		if p, ok := strings.CutPrefix(msg, "initialize program: "); ok {
			l.Program = p
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the loader's output: %w", err)
	}
	out := make([]Loaded, 0, len(order))
	for _, pid := range order {
		if l := byPID[pid]; len(l.Libs) > 0 || l.Program != "" {
			out = append(out, *l)
		}
	}
	return out, nil
}

// splitPID splits "  1234:\tmessage" into 1234 and "message".
func splitPID(line string) (int, string) {
	head, msg, ok := strings.Cut(line, ":")
	if !ok {
		return 0, strings.TrimSpace(line)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(head))
	if err != nil {
		return 0, strings.TrimSpace(line)
	}
	return pid, strings.TrimSpace(msg)
}

// RunLoaded runs the program once untraced with LD_DEBUG=libs, its output
// in files under dir (LD_DEBUG_OUTPUT), and returns what the loader
// said of each process: the fallback that names the libraries when
// strace is missing or refused. The loader ignores LD_DEBUG_OUTPUT for
// setuid programs, which then report nothing.
func RunLoaded(ctx context.Context, s Spec, dir string) (Result, []Loaded, error) {
	prefix := filepath.Join(dir, "ld-debug")
	env := s.Env
	if env == nil {
		env = os.Environ()
	}
	s.Env = append(slices.Clip(env), "LD_DEBUG=libs", "LD_DEBUG_OUTPUT="+prefix)
	res, err := s.run(ctx, s.Argv, true)
	if err != nil {
		return res, nil, err
	}
	loaded, err := readLDDebug(prefix)
	return res, loaded, err
}

// readLDDebug reads every PREFIX.PID file the loader wrote.
func readLDDebug(prefix string) ([]Loaded, error) {
	names, err := filepath.Glob(prefix + ".*")
	if err != nil {
		return nil, err
	}
	var out []Loaded
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return nil, err
		}
		l, err := ParseLDDebug(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		out = append(out, l...)
	}
	return out, nil
}
