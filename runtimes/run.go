package runtimes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
)

// Job is one timed run of a writer.
type Job struct {
	Dir string // directory of the data file
	// Name is the data file's name in Dir, which must not exist: the
	// writer creates it (status='new', O_EXCL) and Run removes it. Make
	// it with FileName from an iobench.UniquePrefix, so that no other run
	// shares it and `iobench clean` recognises a file left by a kill.
	Name        string
	Elements    int64         // float64 values written
	BufferBytes int64         // the runtime's buffer; 0 keeps its default
	RecordBytes int64         // bytes per write statement (a multiple of 8); 0: one write of the whole array
	Convert     convert.Order // byte order in the file
	Fsync       bool          // flush and fsync before close, inside the timing
	// Case is a library's case (its settings and layout) and Library what
	// its writer needs besides; the buffered runtimes read neither.
	Case    Case
	Library LibraryPlan
}

// Bytes is the data the job writes: for MPI-IO, each rank.
func (j Job) Bytes() int64 { return j.Elements * ElementBytes }

// FileName is the name of a runtime run's data file: prefix (from
// iobench.UniquePrefix), the runtime and a sequence number, in the form
// iobench's leftover scan recognises.
func FileName(prefix string, rt Runtime, seq int) string {
	return fmt.Sprintf("%s-%s-%d.dat", prefix, rt, seq)
}

// Measurement is what one run measured: raw numbers, as the writer
// counted them from inside the process.
type Measurement struct {
	Runtime      Runtime
	BufferBytes  int64  // as asked; 0: the runtime's default
	RecordBytes  int64  // 0: one write of the whole array
	Convert      string // convert.Order name asked for
	Fsync        bool
	Nanos        int64 // open to close
	Bytes        int64 // data written
	WriteCalls   int64 // write(2) calls (/proc/self/io syscw); -1: not counted
	WrittenBytes int64 // bytes they wrote (wchar); -1: not counted
	// RuntimeConvert is the unit's byte order as the runtime reported it
	// (inquire convert= for gfortran).
	RuntimeConvert string
	// The libraries' writers count more: the calls outside the data path
	// (HDF5's metadata, OMPIO's at open), the time the MPI-IO writer spent
	// packing, the longest of its ranks' own spans, and each rank's calls.
	OverheadCalls int64
	PackNanos     int64
	SlowestNanos  int64
	RankCalls     []int64
}

// MiBPerSec is the throughput, 2^20 bytes per second.
func (m Measurement) MiBPerSec() float64 {
	if m.Nanos <= 0 {
		return 0
	}
	return float64(m.Bytes) / (float64(m.Nanos) / 1e9) / (1 << 20)
}

// MeanCallBytes is the bytes per write(2) call, 0 when not counted.
func (m Measurement) MeanCallBytes() float64 {
	if m.WriteCalls <= 0 || m.WrittenBytes < 0 {
		return 0
	}
	return float64(m.WrittenBytes) / float64(m.WriteCalls)
}

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
	Runtime Runtime
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
func (w *Writer) Run(ctx context.Context, j Job) (Measurement, error) {
	if err := j.validate(w.rt); err != nil {
		return Measurement{}, err
	}
	for _, path := range j.DataFiles(w.rt) {
		if err := refuseExisting(path); err != nil {
			return Measurement{}, err
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
func (w *Writer) exec(ctx context.Context, j Job, path string) (stdout []byte, created bool, err error) {
	cmd := exec.CommandContext(ctx, w.bin, w.args(j, path)...)
	cmd.Env = Env(w.rt, j)
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

func (w *Writer) args(j Job, path string) []string {
	if w.rt.IsLibrary() {
		return j.libraryArgs(w.rt, path)
	}
	a := []string{path, strconv.FormatInt(j.Elements, 10), strconv.FormatInt(j.RecordBytes, 10), flag(j.Fsync)}
	if w.rt == Stdio {
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
func (w *Writer) result(ctx context.Context, j Job, out []byte, runErr error) (Measurement, error) {
	if ctx.Err() != nil {
		return Measurement{}, fmt.Errorf("the %s writer was stopped: %w", w.rt, context.Cause(ctx))
	}
	if runErr != nil {
		return Measurement{}, runErr
	}
	r, err := ParseReport(out)
	if err != nil {
		return Measurement{}, fmt.Errorf("the %s writer: %w", w.rt, err)
	}
	if r.Bytes != j.totalBytes(w.rt) {
		return Measurement{}, fmt.Errorf("the %s writer reports %d bytes written, want %d", w.rt, r.Bytes, j.totalBytes(w.rt))
	}
	return Measurement{
		Runtime: w.rt, BufferBytes: j.BufferBytes, RecordBytes: j.RecordBytes, Convert: j.Convert.String(), Fsync: j.Fsync,
		Nanos: r.Nanos, Bytes: r.Bytes, WriteCalls: r.Calls, WrittenBytes: r.Written, RuntimeConvert: r.Convert,
		OverheadCalls: r.OverheadCalls, PackNanos: r.PackNanos, SlowestNanos: r.SlowestNanos, RankCalls: r.RankCalls,
	}, nil
}

// Env is the environment a writer runs with: this process's, less every
// GFORTRAN_* variable (a user's GFORTRAN_UNBUFFERED_ALL or
// GFORTRAN_CONVERT_UNIT would change what is measured), plus the
// settings the job asks for, exactly as a user would export them.
func Env(rt Runtime, j Job) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GFORTRAN_") {
			env = append(env, kv)
		}
	}
	return append(env, Settings(rt, j)...)
}

// Settings are the environment variables that set up rt for j, for Env
// and for a report to print: GFORTRAN_CONVERT_UNIT and, when the job sets
// a buffer, GFORTRAN_UNFORMATTED_BUFFER_SIZE; for MPI-IO, OMPI_MCA_io and
// the aggregation buffer when the case sets it. Stdio and HDF5 take their
// settings as arguments and have none.
func Settings(rt Runtime, j Job) []string {
	if rt == MPIIO {
		return librarySettings(j)
	}
	if rt != Gfortran {
		return nil
	}
	s := []string{"GFORTRAN_CONVERT_UNIT=" + convertUnit(j.Convert)}
	if j.BufferBytes > 0 {
		s = append(s, "GFORTRAN_UNFORMATTED_BUFFER_SIZE="+strconv.FormatInt(j.BufferBytes, 10))
	}
	return s
}

// convertUnit is GFORTRAN_CONVERT_UNIT's spelling of o.
func convertUnit(o convert.Order) string {
	return strings.ReplaceAll(o.String(), "-", "_")
}

func (j Job) validate(rt Runtime) error {
	if _, ok := specs[rt]; !ok {
		_, err := ParseRuntime(string(rt))
		return err
	}
	switch {
	case j.Dir == "":
		return errors.New("job: no directory for the data file")
	case j.Name == "" || filepath.Base(j.Name) != j.Name || j.Name == "." || j.Name == "..":
		return fmt.Errorf("job: data file name %q: want a plain name in the directory", j.Name)
	case j.Elements < 1 || j.Elements > math.MaxInt64/ElementBytes:
		return fmt.Errorf("job: %d elements: want at least 1", j.Elements)
	case j.RecordBytes < 0 || j.RecordBytes%ElementBytes != 0:
		return fmt.Errorf("job: record of %d bytes: want 0 or a multiple of %d", j.RecordBytes, ElementBytes)
	case j.BufferBytes < 0:
		return fmt.Errorf("job: buffer of %d bytes", j.BufferBytes)
	case j.Convert < convert.Native || j.Convert > convert.Swap:
		return fmt.Errorf("job: byte order %v", j.Convert)
	}
	if rt.IsLibrary() {
		return j.validateLibrary(rt)
	}
	return j.validateFor(rt)
}

// validateFor checks what one runtime cannot take: libgfortran reads its
// buffer size into an int and trims trailing blanks from file names; the
// Fortran writer's path argument holds 4096 characters.
func (j Job) validateFor(rt Runtime) error {
	if rt != Gfortran {
		return nil
	}
	path := filepath.Join(j.Dir, j.Name)
	switch {
	case j.BufferBytes > math.MaxInt32:
		return fmt.Errorf("job: GFORTRAN_UNFORMATTED_BUFFER_SIZE=%d is above libgfortran's limit of %d", j.BufferBytes, math.MaxInt32)
	case len(path) >= 4096:
		return fmt.Errorf("job: data file path is %d bytes long; the gfortran writer takes fewer than 4096", len(path))
	case strings.TrimRight(path, " ") != path:
		return fmt.Errorf("job: data file path %q ends in a blank, which Fortran drops", path)
	}
	return nil
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
func checkFile(rt Runtime, path string, j Job) error {
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
		var got, want [ElementBytes]byte
		if _, err := f.ReadAt(got[:], (i-1)*ElementBytes); err != nil {
			return err
		}
		convert.Value(want[:], convert.Float64, j.Convert, i)
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
func checkSize(path string, j Job) error {
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
