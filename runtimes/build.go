package runtimes

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/iobench/iobench/libcheck"
)

//go:embed src/writer.f90 src/writer.c src/mpiio.c src/hdf5.c src/procio.h
var sources embed.FS

// Source is the embedded source of rt's writer, for a report or a user
// who wants to run it by hand.
func Source(rt libcheck.Runtime) ([]byte, error) {
	spec, ok := specs[rt]
	if !ok {
		_, err := libcheck.ParseRuntime(string(rt))
		return nil, err
	}
	return sources.ReadFile(spec.source)
}

// Writer is a compiled writer program, ready to run. Close removes it.
type Writer struct {
	rt       libcheck.Runtime
	compiler string   // path of the compiler used
	libs     []string // the flags that link the runtime's library
	version  string   // its first --version line
	dir      string   // private directory holding source and binary
	bin      string
	cur      current  // the run in progress, for Abandon
	launcher Launcher // starts an MPI writer as a job of its own; nil: run it here
}

// Runtime is the runtime this writer measures.
func (w *Writer) Runtime() libcheck.Runtime { return w.rt }

// Compiler is the compiler that built the writer and its version line,
// for the report: "/usr/bin/gfortran (GNU Fortran (Debian 12.2.0-14) 12.2.0)".
func (w *Writer) Compiler() string {
	if w.version == "" {
		return w.compiler
	}
	return w.compiler + " (" + w.version + ")"
}

// Close removes the writer's private directory.
func (w *Writer) Close() error { return os.RemoveAll(w.dir) }

// Build compiles rt's writer with the compiler found on PATH into a new
// private directory (mode 0700) under workdir ("" for the system's temp
// directory). Without the compiler, or the library it links, the error
// is a *NoCompilerError that says what to install. workdir must allow executing files: pass another
// one where /tmp is mounted noexec.
func Build(ctx context.Context, rt libcheck.Runtime, workdir string) (*Writer, error) {
	if _, ok := specs[rt]; !ok {
		_, err := libcheck.ParseRuntime(string(rt))
		return nil, err
	}
	cc, libs, err := findTools(ctx, rt, os.Getenv("PATH"))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(workdir, "iobench-runtime-")
	if err != nil {
		return nil, fmt.Errorf("building the %s writer: %w", rt, err)
	}
	w := &Writer{rt: rt, compiler: cc, libs: libs, dir: dir, bin: filepath.Join(dir, "writer")}
	if err := w.compile(ctx); err != nil {
		w.Close()
		return nil, err
	}
	w.version = versionLine(ctx, cc)
	return w, nil
}

// compile writes the source into the private directory and compiles it
// there; MkdirTemp made the directory 0700, so no other user can swap
// the source or the binary in between.
func (w *Writer) compile(ctx context.Context) error {
	spec := specs[w.rt]
	src, err := Source(w.rt)
	if err != nil {
		return err
	}
	srcPath := filepath.Join(w.dir, filepath.Base(spec.source))
	if err := os.WriteFile(srcPath, src, 0o600); err != nil {
		return fmt.Errorf("building the %s writer: %w", w.rt, err)
	}
	if err := w.writeHeaders(spec); err != nil {
		return err
	}
	args := append(append(append([]string{}, spec.flags...), "-o", w.bin, srcPath), w.libs...)
	cmd := exec.CommandContext(ctx, w.compiler, args...)
	cmd.Dir = w.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the %s writer: %s %s: %w\n%s", w.rt, w.compiler, strings.Join(args, " "), err, bounded(out.Bytes()))
	}
	return nil
}

// versionLine is the compiler's first --version line, "" if it has none.
func versionLine(ctx context.Context, cc string) string {
	out, err := exec.CommandContext(ctx, cc, "--version").Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}

// writeHeaders puts the headers a C writer includes beside its source.
func (w *Writer) writeHeaders(spec compilerSpec) error {
	for _, h := range spec.headers {
		b, err := sources.ReadFile(h)
		if err == nil {
			err = os.WriteFile(filepath.Join(w.dir, filepath.Base(h)), b, 0o600)
		}
		if err != nil {
			return fmt.Errorf("building the %s writer: %w", w.rt, err)
		}
	}
	return nil
}
