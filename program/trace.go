package program

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// ErrNoTracer is what a missing strace matches with errors.Is.
var ErrNoTracer = errors.New("strace not found")

// TracerError says why the tracer cannot trace here, and what to do.
type TracerError struct {
	Strace string // its path; "" when it is not installed
	Output string // what the preflight printed, trimmed
	Hint   string // what to do
}

func (e *TracerError) Error() string {
	if e.Strace == "" {
		return "strace not found: " + e.Hint
	}
	return fmt.Sprintf("strace cannot trace here (%s): %s", e.Output, e.Hint)
}

// Unwrap lets errors.Is(err, ErrNoTracer) find a missing strace.
func (e *TracerError) Unwrap() error {
	if e.Strace == "" {
		return ErrNoTracer
	}
	return nil
}

// FindStrace is strace on path, or a *TracerError saying how to get it.
func FindStrace(path string) (string, error) {
	for _, d := range strings.Split(path, ":") {
		p := d + "/strace"
		if d != "" && checkExecutable("strace", p) == nil {
			return p, nil
		}
	}
	return "", &TracerError{Hint: "install it (Debian: apt-get install strace; RHEL: dnf install strace) to see the program's write(2) calls; without it only the program's time and libraries are read"}
}

// preflightTimeout bounds the preflight: tracing `true` takes milliseconds.
const preflightTimeout = 30 * time.Second

// Preflight traces `true` once, so that a tracer the system refuses (ptrace
// rules, a container's seccomp profile) is told from the program failing.
func Preflight(ctx context.Context, strace string) error {
	ctx, cancel := context.WithTimeout(ctx, preflightTimeout)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, strace, "-o", os.DevNull, "true")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if msg == "" {
			msg = err.Error()
		}
		return &TracerError{Strace: strace, Output: firstLine(msg), Hint: ptraceHint(msg)}
	}
	return nil
}

// ptraceHint says what to do about a refused trace.
func ptraceHint(msg string) string {
	scope, _ := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	s := strings.TrimSpace(string(scope))
	switch {
	case s == "3":
		return "kernel.yama.ptrace_scope is 3, which forbids ptrace until reboot; ask the administrator, or record the program with Darshan and give its log to iobench app"
	case s == "2":
		return "kernel.yama.ptrace_scope is 2: only a process with CAP_SYS_PTRACE may trace; ask the administrator (sysctl kernel.yama.ptrace_scope=1), or use a Darshan log"
	case strings.Contains(msg, "Operation not permitted"):
		return "ptrace is not permitted here (a container needs --cap-add SYS_PTRACE, or a seccomp profile that allows ptrace); or record the program with Darshan and give its log to iobench app"
	}
	return "run `strace -o /dev/null true` to see why; or record the program with Darshan and give its log to iobench app"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Traced runs the program once under strace with args (the options
// before "--", from strace.RecordArgs) and waits. The trace goes where
// args say. The program's exit status passes through strace, which
// re-raises a signal that killed the program.
func Traced(ctx context.Context, s Spec, strace string, args []string) (Result, error) {
	argv := append(append(append([]string{strace}, args...), "--"), s.Argv...)
	return s.run(ctx, argv, true)
}
