package runtimes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

// Writer exit statuses that mean no data file was created: away from 2,
// which libgfortran's own runtime errors exit with, possibly after the
// file exists.
const (
	exitUsage     = 64
	exitNoCreate  = 65
	maxOutput     = 64 << 10 // what is kept of a writer's stdout or stderr
	killWaitDelay = 5 * time.Second
)

// WriterError: the writer program failed. Nothing it measured is kept.
type WriterError struct {
	Runtime libcheck.Runtime
	Status  int    // exit status; -1 when killed by a signal
	Stderr  string // what it said, bounded
	Err     error
}

func (e *WriterError) Error() string {
	what := "failed"
	if e.Status == exitNoCreate {
		what = "could not create its data file"
	}
	msg := fmt.Sprintf("the %s writer %s (%v)", e.Runtime, what, e.Err)
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += ": " + s
	}
	return msg
}

func (e *WriterError) Unwrap() error { return e.Err }

// Run runs the writer once on a new file Dir/Name and returns what it
// measured. The file is removed before Run returns, on every path:
// success, failure, and cancellation of ctx, which kills the writer. A
// file that cannot be removed is named in an *iobench.LeftFilesError.
func (w *Writer) Run(ctx context.Context, j libcheck.Job) (libcheck.Measurement, error) {
	if err := j.Validate(w.rt); err != nil {
		return libcheck.Measurement{}, err
	}
	for _, path := range j.DataFiles(w.rt) {
		if err := refuseExisting(path); err != nil {
			return libcheck.Measurement{}, err
		}
	}
	if w.launcher != nil {
		return w.runLaunched(ctx, j)
	}
	path := filepath.Join(j.Dir, j.Name)
	// Until the file is removed, a second Ctrl-C (Abandon) must still
	// find it, also after the writer exited.
	defer w.cur.clear()
	out, created, runErr := w.exec(ctx, j, path)
	var checkErr error
	if created && runErr == nil {
		checkErr = checkFile(w.rt, path, j)
	}
	var removeErr error
	if created {
		removeErr = removeData(j.Dir, j.Name)
	}
	m, err := w.result(ctx, j, out, runErr)
	if err == nil {
		err = checkErr
	}
	if err != nil && created && removeErr == nil && ctx.Err() == nil {
		err = fmt.Errorf("%w; its data file was removed", err)
	}
	return m, errors.Join(err, removeErr)
}

// refuseExisting fails for a name that exists, before any writer runs.
// The writer's own O_EXCL is what guarantees it never writes into an
// existing file; this check makes the error plain and keeps Run from
// ever removing a file that was there before.
func refuseExisting(path string) error {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return &os.PathError{Op: "create", Path: path, Err: os.ErrExist}
	case errors.Is(err, os.ErrNotExist):
		return nil
	}
	return err
}

// exec runs the writer on path. created is false only when the writer
// certainly made no file: it did not start, or it exited with a status
// that says so. A writer killed part way may have created it.
func (w *Writer) exec(ctx context.Context, j libcheck.Job, path string) (stdout []byte, created bool, err error) {
	cmd := exec.CommandContext(ctx, w.bin, w.args(j, path)...)
	cmd.Env = libcheck.Env(w.rt, j)
	cmd.WaitDelay = killWaitDelay
	defer dieWithParent(cmd)()
	var out, errOut cappedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err = cmd.Start(); err == nil {
		exited := w.cur.set(cmd.Process, j.Dir, j.Name)
		err = cmd.Wait()
		close(exited)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), true, nil
	case errors.As(err, &exit):
		status := exit.ExitCode()
		return nil, status != exitUsage && status != exitNoCreate,
			&WriterError{Runtime: w.rt, Status: status, Stderr: bounded(errOut.Bytes()), Err: err}
	case cmd.Process != nil:
		return nil, true, err // started, then Wait failed: assume the worst
	}
	return nil, false, err
}

func (w *Writer) args(j libcheck.Job, path string) []string {
	if w.rt.IsLibrary() {
		return libraryArgs(j, w.rt, path)
	}
	a := []string{path, strconv.FormatInt(j.Elements, 10), strconv.FormatInt(j.RecordBytes, 10), flag(j.Fsync), flag(j.SameRecord)}
	if w.rt == libcheck.Stdio {
		a = append(a, strconv.FormatInt(j.BufferBytes, 10), flag(j.Convert.NeedsSwap()))
	}
	return a
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// result turns the writer's outcome into a Measurement; a cancelled
// context wins over the error the kill caused.
func (w *Writer) result(ctx context.Context, j libcheck.Job, out []byte, runErr error) (libcheck.Measurement, error) {
	if ctx.Err() != nil {
		return libcheck.Measurement{}, fmt.Errorf("the %s writer was stopped: %w", w.rt, context.Cause(ctx))
	}
	if runErr != nil {
		return libcheck.Measurement{}, runErr
	}
	r, err := ParseReport(out)
	if err != nil {
		return libcheck.Measurement{}, fmt.Errorf("the %s writer: %w", w.rt, err)
	}
	if r.Bytes != j.TotalBytes(w.rt) {
		return libcheck.Measurement{}, fmt.Errorf("the %s writer reports %d bytes written, want %d", w.rt, r.Bytes, j.TotalBytes(w.rt))
	}
	return libcheck.Measurement{
		Runtime: w.rt, BufferBytes: j.BufferBytes, RecordBytes: j.RecordBytes, Convert: j.Convert.String(), Fsync: j.Fsync,
		Nanos: r.Nanos, Bytes: r.Bytes, WriteCalls: r.Calls, WrittenBytes: r.Written, RuntimeConvert: r.Convert,
		OverheadCalls: r.OverheadCalls, PackNanos: r.PackNanos, SlowestNanos: r.SlowestNanos, RankCalls: r.RankCalls,
	}, nil
}

// cappedBuffer keeps the first maxOutput bytes written to it and drops
// the rest, so a runaway writer cannot fill memory.
type cappedBuffer struct{ b bytes.Buffer }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := maxOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *cappedBuffer) Bytes() []byte { return c.b.Bytes() }

// errBadFile: the data file is not what the job should have written.
var errBadFile = errors.New("the data file does not hold what was asked for")

// checkFile reads back the data file's size and its first and last
// elements: the byte order must be the one asked for, which is how a
// GFORTRAN_CONVERT_UNIT the runtime ignored would show.
func checkFile(rt libcheck.Runtime, path string, j libcheck.Job) error {
	if rt.IsLibrary() {
		return checkSize(path, j) // the library's writer reads its data back itself
	}
	// The writer made the file, but another process may have swapped
	// the name since: never follow a link, never wait on a FIFO.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s): %w", path, st.Mode().Type(), errBadFile)
	}
	if st.Size() != j.Bytes() {
		return fmt.Errorf("%s: %d bytes, want %d: %w", path, st.Size(), j.Bytes(), errBadFile)
	}
	for _, i := range []int64{1, j.Elements} {
		var got, want [libcheck.ElementBytes]byte
		if _, err := f.ReadAt(got[:], (i-1)*libcheck.ElementBytes); err != nil {
			return err
		}
		convert.Value(want[:], convert.Float64, j.Convert, j.Value(i))
		if got != want {
			return fmt.Errorf("%s: element %d is % x, want % x for byte order %s: %w", path, i, got, want, j.Convert, errBadFile)
		}
	}
	return nil
}

// removeData removes the writer's data file if the name leads to a
// regular file, through iobench's OSFS.Remove, which refuses a name that
// changed under it. The name is unique and unguessable (UniquePrefix), so
// a regular file there is the writer's.
func removeData(dir, name string) error {
	id, err := fileID(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = iobench.OSFS{Dir: dir}.Remove(name, id)
	}
	if err == nil || errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return &iobench.LeftFilesError{Files: []iobench.LeftFile{{Path: filepath.Join(dir, name), Err: iobench.DescribePath(err)}}}
}

// checkSize: a library's file holds at least the data.
func checkSize(path string, j libcheck.Job) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s): %w", path, st.Mode().Type(), errBadFile)
	}
	if st.Size() < j.Bytes() {
		return fmt.Errorf("%s: %d bytes, want at least the %d of the data: %w", path, st.Size(), j.Bytes(), errBadFile)
	}
	return nil
}
