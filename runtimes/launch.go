package runtimes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/iobench/iobench/libcheck"
)

// Launch is one run of an MPI writer as a job of its own.
type Launch struct {
	Bin   string   // the writer
	Args  []string // its arguments
	Set   []string // KEY=VALUE to set in its environment, read before MPI_Init
	Unset []string // variables to remove from it first
	Ranks int
}

// Launcher runs an MPI writer on Ranks ranks and returns the text its
// rank 0 handed back: the report line, or "error:" lines. An MPI-IO
// component is fixed when MPI starts, so the runs of each environment
// need a job of their own: under mpirun, iobench spawns one per
// environment (MPI_Comm_spawn), which serves all of its runs; MPIRun
// starts one with mpirun for each run.
type Launcher interface {
	Launch(ctx context.Context, l Launch) ([]byte, error)
}

// SetLauncher makes w start its writer through l, as MPI-IO's must.
func (w *Writer) SetLauncher(l Launcher) { w.launcher = l }

// runLaunched is Run for a writer started by a Launcher: the writer
// reads its data back and removes its files itself; whatever a failed run
// left is removed here.
func (w *Writer) runLaunched(ctx context.Context, j libcheck.Job) (libcheck.Measurement, error) {
	path := filepath.Join(j.Dir, j.Name) // per-rank files: the writer adds each rank's part
	l := Launch{Bin: w.bin, Args: w.args(j, path), Set: libcheck.Settings(w.rt, j), Unset: libcheck.MPIUnset(os.Environ()), Ranks: max(1, j.Library.Ranks)}
	w.cur.setFiles(j.DataFiles(w.rt))
	defer w.cur.clear()
	out, err := w.launcher.Launch(ctx, l)
	if err == nil && bytes.HasPrefix(out, []byte("error:")) {
		err = &WriterError{Runtime: w.rt, Status: -1, Stderr: bounded(out), Err: errors.New("a rank failed")}
	}
	var removeErr error
	for _, p := range j.DataFiles(w.rt) {
		removeErr = errors.Join(removeErr, removeData(filepath.Dir(p), filepath.Base(p)))
	}
	m, err := w.result(ctx, j, out, err)
	return m, errors.Join(err, removeErr)
}

// MPIRun is a Launcher that runs the writer under mpirun, for the tests
// and for a machine where iobench itself runs without MPI.
type MPIRun struct {
	Path  string   // mpirun
	Extra []string // more mpirun flags: --oversubscribe, --allow-run-as-root
}

// Launch runs the writer and returns its standard output. Each job gets
// a temporary directory of its own for Open MPI's session directory
// (TMPDIR): jobs started at once on one node race to create the shared
// one, and the loser fails to start ("A call to mkdir was unable to
// create the desired directory ... File exists").
func (m MPIRun) Launch(ctx context.Context, l Launch) ([]byte, error) {
	session, err := os.MkdirTemp("", "iobench-mpirun-")
	if err != nil {
		return nil, fmt.Errorf("mpirun: a directory for its session: %w", err)
	}
	defer os.RemoveAll(session)
	args := append([]string{"-np", strconv.Itoa(l.Ranks)}, m.Extra...)
	for _, kv := range l.Set {
		k, _, _ := strings.Cut(kv, "=")
		args = append(args, "-x", k)
	}
	cmd := exec.CommandContext(ctx, m.Path, append(append(args, l.Bin), l.Args...)...)
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(l.Unset, k)
	}), slices.Concat(l.Set, []string{"TMPDIR=" + session})...)
	var out, errOut cappedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, &WriterError{Runtime: libcheck.MPIIO, Status: exitStatus(err), Stderr: bounded(errOut.Bytes()), Err: err}
	}
	return out.Bytes(), nil
}

func exitStatus(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	return -1
}
