package program

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Exit statuses for a program iobench could not run, as env(1) and the
// shells give them.
const (
	// ExitToolFailure is iobench's own failure while running a program.
	ExitToolFailure = 125
	// ExitNotExecutable: the program was found but could not be run.
	ExitNotExecutable = 126
	// ExitNotFound: no program of that name.
	ExitNotFound = 127
)

// Spec is one program run: what to start, where, and its streams.
type Spec struct {
	Argv []string // the program and its arguments; Argv[0] is looked up on PATH
	Dir  string   // working directory; "" the current one
	Env  []string // its whole environment; nil: iobench's own
	// Stdin, Stdout and Stderr are passed to the program as they are; nil
	// is /dev/null.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Terminal is the controlling terminal to give the program's process
	// group while it runs, so that Ctrl-C and reads reach the program; nil
	// when the streams are not on a terminal iobench holds in the
	// foreground (see ForegroundTerminal).
	Terminal *os.File
	// Grace is how long the program has after SIGINT when a run is
	// cancelled, before SIGKILL; 0 is StopGrace.
	Grace time.Duration
	// OnStart, when set, is given the started process's pid (the
	// program, a tracer or a launcher) before the run is waited for.
	OnStart func(pid int)
}

func (s Spec) grace() time.Duration {
	if s.Grace > 0 {
		return s.Grace
	}
	return StopGrace
}

// StartError is a program that could not be started at all: not found,
// or not executable. Status is the exit status env(1) gives for it.
type StartError struct {
	Name   string
	Status int
	Err    error
}

func (e *StartError) Error() string {
	if e.Status == ExitNotFound {
		return fmt.Sprintf("%s: not found (%v)", e.Name, e.Err)
	}
	return fmt.Sprintf("%s: cannot be run: %v", e.Name, e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// Resolve finds the executable of argv0 as a shell would: a name with a
// slash as it is (relative to dir), else the first match on PATH.
func Resolve(argv0, dir, path string) (string, error) {
	if argv0 == "" {
		return "", &StartError{Name: `""`, Status: ExitNotFound, Err: errors.New("empty program name")}
	}
	if strings.Contains(argv0, "/") {
		p := argv0
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		return p, checkExecutable(argv0, p)
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, argv0)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &StartError{Name: argv0, Status: ExitNotFound, Err: errors.New("not on PATH")}
}

// checkExecutable says why path cannot be run, if it cannot.
func checkExecutable(name, path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &StartError{Name: name, Status: ExitNotFound, Err: err}
	case err != nil:
		return &StartError{Name: name, Status: ExitNotExecutable, Err: err}
	case st.IsDir():
		return &StartError{Name: name, Status: ExitNotExecutable, Err: errors.New("is a directory")}
	case st.Mode()&0o111 == 0:
		return &StartError{Name: name, Status: ExitNotExecutable, Err: errors.New("permission denied (not executable)")}
	}
	return nil
}

// command is the exec.Cmd of argv with the spec's directory, environment
// and streams, in a process group of its own. ctx is not tied to the
// command: cancellation stops the whole group (see wait).
func (s Spec) command(argv []string) *exec.Cmd {
	cmd := exec.CommandContext(context.Background(), argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.Stdin, s.Stdout, s.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if s.Terminal != nil && s.Stdin == s.Terminal {
		// Ctty is a descriptor in the child: its stdin, the terminal.
		cmd.SysProcAttr.Foreground, cmd.SysProcAttr.Ctty = true, 0
	}
	return cmd
}

// Cmd is the exec.Cmd that runs the program as Run would, for a caller
// that starts it another way (under package guard's tracer).
func (s Spec) Cmd() *exec.Cmd { return s.command(s.Argv) }
