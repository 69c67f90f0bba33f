package runtimes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/internal/testkit/testwait"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

// writers caches one build per runtime for the whole test binary.
var writers struct {
	sync.Mutex
	built map[libcheck.Runtime]*Writer
}

// writerFor builds rt's writer once, or skips the test when the machine
// has no compiler for it.
func writerFor(t testing.TB, rt libcheck.Runtime) *Writer {
	t.Helper()
	writers.Lock()
	defer writers.Unlock()
	if w := writers.built[rt]; w != nil {
		return w
	}
	w, err := Build(context.Background(), rt, "")
	var nc *NoCompilerError
	if errors.As(err, &nc) {
		t.Skipf("no %s writer: %v", rt, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if writers.built == nil {
		writers.built = map[libcheck.Runtime]*Writer{}
	}
	writers.built[rt] = w
	return w
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, w := range writers.built {
		w.Close()
	}
	os.Exit(code)
}

// dataDirs are the file systems the real runs use: the disk under the
// test's temp dir, and tmpfs when /dev/shm exists.
func dataDirs(t *testing.T) map[string]string {
	dirs := map[string]string{"disk": t.TempDir()}
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		d, err := os.MkdirTemp("/dev/shm", "iobench-runtimes-test-")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			dirs["tmpfs"] = d
		}
	}
	return dirs
}

func newName(t testing.TB, rt libcheck.Runtime, seq int) string {
	t.Helper()
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	return libcheck.FileName(prefix, rt, seq)
}

// TestMeasuredCallsMatchPrediction runs both writers on small data and
// holds the write(2) calls they count in /proc/self/io to Predict's.
func TestMeasuredCallsMatchPrediction(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count write(2) calls")
	}
	type pattern struct {
		elements, buffer, record int64
		order                    convert.Order
	}
	patterns := []pattern{
		{elements: 1 << 20, buffer: 1 * mib, order: convert.BigEndian},     // converted: buffer-sized calls
		{elements: 1 << 20, buffer: 128 * kib, order: convert.Native},      // native array: one call
		{elements: 1 << 20, buffer: 0, order: convert.Native, record: kib}, // default buffer, 1 KiB records
		{elements: 1 << 18, buffer: 4096, order: convert.BigEndian, record: 3000},
		{elements: 1 << 18, buffer: 4096, order: convert.Native, record: 1000},
		{elements: 1 << 18, buffer: 4096, order: convert.Native, record: 24000},
		{elements: 1<<18 + 3, buffer: 1_000_000, order: convert.Swap},
	}
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(t, rt)
		for fs, dir := range dataDirs(t) {
			blksize := blockSize(t, dir)
			for i, p := range patterns {
				j := libcheck.Job{Dir: dir, Name: newName(t, rt, i), Elements: p.elements, BufferBytes: p.buffer, RecordBytes: p.record, Convert: p.order, Fsync: fs == "disk"}
				t.Run(fmt.Sprintf("%s/%s/%d", rt, fs, i), func(t *testing.T) {
					m, err := w.Run(t.Context(), j)
					if err != nil {
						t.Fatal(err)
					}
					buf := p.buffer
					if buf == 0 {
						buf = libcheck.DefaultBuffer(rt, blksize)
					}
					want, err := libcheck.Predict(rt, libcheck.Pattern{Bytes: j.Bytes(), BufferBytes: buf, RecordBytes: p.record, Swap: p.order.NeedsSwap()})
					if err != nil {
						t.Fatal(err)
					}
					if m.WriteCalls != want.Count || m.WrittenBytes != j.Bytes() {
						t.Errorf("%+v: measured %d calls writing %d bytes, predicted %d calls of %d bytes", j, m.WriteCalls, m.WrittenBytes, want.Count, j.Bytes())
					}
					assertRemoved(t, dir, j.Name)
				})
			}
		}
	}
}

func blockSize(t *testing.T, dir string) int64 {
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	return blksize(st)
}

func assertRemoved(t *testing.T, dir, name string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("data file %s still there (%v)", name, err)
	}
}

// TestConvertReachesTheFile: the byte order the runtime reports, and the
// one checkFile read back, are the ones asked for.
func TestConvertReachesTheFile(t *testing.T) {
	want := map[libcheck.Runtime]map[convert.Order]string{
		libcheck.Gfortran: {convert.Native: "LITTLE_ENDIAN", convert.BigEndian: "BIG_ENDIAN", convert.Swap: "BIG_ENDIAN"},
		libcheck.Stdio:    {convert.Native: "NATIVE", convert.BigEndian: "SWAP", convert.Swap: "SWAP"},
	}
	if !littleEndianHost() {
		t.Skip("the expectations are for a little-endian host")
	}
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(t, rt)
		for order, name := range want[rt] {
			j := libcheck.Job{Dir: t.TempDir(), Name: newName(t, rt, 0), Elements: 1000, Convert: order}
			m, err := w.Run(t.Context(), j)
			if err != nil {
				t.Fatalf("%s %s: %v", rt, order, err)
			}
			if m.RuntimeConvert != name || m.Convert != order.String() {
				t.Errorf("%s %s: runtime reports %s, want %s", rt, order, m.RuntimeConvert, name)
			}
		}
	}
}

// TestExistingFileIsNeverTouched: a name that exists is refused, and the
// file under it keeps its content.
func TestExistingFileIsNeverTouched(t *testing.T) {
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(t, rt)
		dir := t.TempDir()
		name := newName(t, rt, 0)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("user data"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := w.Run(t.Context(), libcheck.Job{Dir: dir, Name: name, Elements: 10})
		if !errors.Is(err, os.ErrExist) {
			t.Errorf("%s: Run on an existing name: %v, want os.ErrExist", rt, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "user data" {
			t.Errorf("%s: the existing file now holds %q", rt, b)
		}
	}
}

// TestCreateFailureRemovesNothing: a writer that cannot create its file
// (here its directory is missing) says so with exit status 3, and Run
// then removes nothing.
func TestCreateFailureRemovesNothing(t *testing.T) {
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(t, rt)
		dir := t.TempDir()
		_, err := w.Run(t.Context(), libcheck.Job{Dir: filepath.Join(dir, "missing"), Name: newName(t, rt, 0), Elements: 10})
		var we *WriterError
		if !errors.As(err, &we) || we.Status != exitNoCreate {
			t.Errorf("%s: Run in a missing directory: %v, want a WriterError with status %d", rt, err, exitNoCreate)
		}
	}
}

// TestCancelKillsAndRemoves: cancelling while the writer writes kills it
// and the data file is gone when Run returns.
func TestCancelKillsAndRemoves(t *testing.T) {
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(t, rt)
		dir := t.TempDir()
		j := libcheck.Job{Dir: dir, Name: newName(t, rt, 0), Elements: 1 << 25, BufferBytes: 4096, Convert: convert.BigEndian, Fsync: true}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { _, err := w.Run(ctx, j); done <- err }()
		stopWhenWriting(t, w, dir, j.Name)
		cancel()
		err := testwait.Recv(t, "return from Run after the cancel", done)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Run = %v, want context.Canceled", rt, err)
		}
		assertRemoved(t, dir, j.Name)
	}
}

// TestFileNameIsALeftoverName: `iobench clean` recognises a runtime
// run's data file as this process's.
func TestFileNameIsALeftoverName(t *testing.T) {
	dir := t.TempDir()
	name := newName(t, libcheck.Gfortran, 7)
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ls, err := iobench.FindLeftovers(dir)
	if err != nil || len(ls) != 1 || ls[0].Name != name || ls[0].State != iobench.RunAlive {
		t.Errorf("FindLeftovers = %+v, %v; want %s as a live run's", ls, err, name)
	}
}

func TestJobValidation(t *testing.T) {
	ok := libcheck.Job{Dir: "/tmp", Name: "x.dat", Elements: 1}
	tests := []struct {
		name string
		edit func(*libcheck.Job)
		rt   libcheck.Runtime
		want string
	}{
		{"no dir", func(j *libcheck.Job) { j.Dir = "" }, libcheck.Stdio, "no directory"},
		{"path in name", func(j *libcheck.Job) { j.Name = "a/b.dat" }, libcheck.Stdio, "plain name"},
		{"no elements", func(j *libcheck.Job) { j.Elements = 0 }, libcheck.Stdio, "0 elements"},
		{"odd record", func(j *libcheck.Job) { j.RecordBytes = 12 }, libcheck.Gfortran, "multiple of 8"},
		{"negative buffer", func(j *libcheck.Job) { j.BufferBytes = -1 }, libcheck.Stdio, "buffer of -1"},
		{"int buffer", func(j *libcheck.Job) { j.BufferBytes = 1 << 31 }, libcheck.Gfortran, "above libgfortran's limit"},
		{"trailing blank", func(j *libcheck.Job) { j.Name = "x.dat " }, libcheck.Gfortran, "ends in a blank"},
		{"long path", func(j *libcheck.Job) { j.Dir = "/" + strings.Repeat("d", 5000) }, libcheck.Gfortran, "fewer than 4096"},
		{"runtime", func(*libcheck.Job) {}, "ifort", "unknown runtime"},
	}
	for _, tt := range tests {
		j := ok
		tt.edit(&j)
		if err := j.Validate(tt.rt); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: validate = %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := ok.Validate(libcheck.Gfortran); err != nil {
		t.Errorf("a good job: %v", err)
	}
}

func TestSettings(t *testing.T) {
	t.Setenv("GFORTRAN_UNBUFFERED_ALL", "1")
	j := libcheck.Job{BufferBytes: 1 << 20, Convert: convert.BigEndian}
	env := strings.Join(libcheck.Env(libcheck.Gfortran, j), "\n")
	for _, want := range []string{"GFORTRAN_CONVERT_UNIT=big_endian", "GFORTRAN_UNFORMATTED_BUFFER_SIZE=1048576"} {
		if !strings.Contains(env, want) {
			t.Errorf("Env lacks %s", want)
		}
	}
	if strings.Contains(env, "GFORTRAN_UNBUFFERED_ALL") {
		t.Error("Env keeps the user's GFORTRAN_UNBUFFERED_ALL")
	}
	if s := libcheck.Settings(libcheck.Stdio, j); s != nil {
		t.Errorf("Settings(stdio) = %q, want none", s)
	}
}

// TestAbandonKillsAndRemoves: the second Ctrl-C's path kills the writer
// in the middle of a run and removes its file and the compiled writer
// within the wait, while Run is still blocked in the kernel's view.
func TestAbandonKillsAndRemoves(t *testing.T) {
	writerFor(t, libcheck.Stdio) // skips without a C compiler
	w, err := Build(t.Context(), libcheck.Stdio, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	j := libcheck.Job{Dir: dir, Name: newName(t, libcheck.Stdio, 0), Elements: 1 << 25, BufferBytes: 4096, Fsync: true}
	done := make(chan error, 1)
	go func() { _, err := w.Run(t.Context(), j); done <- err }()
	stopWhenWriting(t, w, dir, j.Name)
	if !strings.Contains(w.Waiting(), "process") {
		t.Errorf("Waiting() = %q, want the writer's process named", w.Waiting())
	}
	if left := w.Abandon(testwait.Hang); len(left) != 0 {
		t.Errorf("Abandon left %v", left)
	}
	assertRemoved(t, dir, j.Name)
	if _, err := os.Stat(w.dir); !os.IsNotExist(err) {
		t.Errorf("compiled writer dir %s: %v, want removed", w.dir, err)
	}
	if err := <-done; err == nil {
		t.Error("Run of a killed writer returned no error")
	}
}

// stopWhenWriting waits until w's writer has created name in dir, then
// stops it with SIGSTOP, so it cannot finish before the test acts
// however fast the machine; SIGKILL still ends a stopped process.
func stopWhenWriting(t *testing.T, w *Writer, dir, name string) {
	testwait.Until(t, "writer's data file", func() bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	})
	w.cur.mu.Lock()
	proc := w.cur.proc
	w.cur.mu.Unlock()
	if proc != nil {
		_ = proc.Signal(syscall.SIGSTOP)
	}
}

// The check of the writer's file never follows a name swapped for a
// symlink nor waits on one swapped for a FIFO.
func TestCheckOfASwappedFileNeitherFollowsNorWaits(t *testing.T) {
	dir := t.TempDir()
	fifo, link := filepath.Join(dir, "fifo"), filepath.Join(dir, "link")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, make([]byte, 80), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	j := libcheck.Job{Dir: dir, Elements: 10}
	for _, p := range []string{fifo, link} {
		done := make(chan error)
		go func() { done <- checkFile(libcheck.Gfortran, p, j) }()
		if err := testwait.Recv(t, "the check of "+p, done); err == nil {
			t.Errorf("%s: checked as the writer's file", p)
		}
		if err := checkSize(p, j); err == nil {
			t.Errorf("%s: its size checked as the writer's file", p)
		}
	}
}
