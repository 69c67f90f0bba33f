//go:build mpi

package mpi

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// sharedDir is a directory every rank sees, made by rank 0 and removed by
// it once all ranks are done with it. All ranks run on one host under
// scripts/mpi-test.sh.
func sharedDir(t *testing.T) string {
	t.Helper()
	var dir string
	var mkErr, err error
	onMain(func() {
		var mine []byte
		if world.Rank() == 0 {
			dir, mkErr = os.MkdirTemp("", "mpi-file-test-")
			mine = []byte(dir)
		}
		var got []byte
		got, err = world.Bcast(mine)
		dir = string(got)
	})
	if mkErr != nil || err != nil || dir == "" {
		t.Fatalf("shared directory: %v, %v", mkErr, err)
	}
	t.Cleanup(func() {
		onMain(func() { _ = world.Barrier() })
		if world.Rank() == 0 {
			os.RemoveAll(dir)
		}
	})
	return dir
}

// pattern is rank r's bytes in the shared file: n bytes of 'a'+r.
func pattern(r, n int) []byte { return bytes.Repeat([]byte{byte('a' + r%26)}, n) }

// Every rank writes its segment of one file with collective calls, the
// last rank's second call empty, as iobench's shorter shares are; each
// rank then reads the whole file back on its own, independently and
// collectively, and the file is cut to half with MPI_File_set_size.
func TestFileSharedCollective(t *testing.T) {
	dir := sharedDir(t)
	r, n := world.Rank(), world.Size()
	const seg = 64 << 10
	path := filepath.Join(dir, "shared.dat")
	var errs []error
	var got, gotAll []byte
	onMain(func() {
		f, err := world.OpenFile(CommWorld, path, CreateExcl, []Hint{{"cb_buffer_size", "1048576"}})
		if err != nil {
			errs = append(errs, err)
			return
		}
		half := seg / 2
		first, second := pattern(r, half), pattern(r, seg-half)
		if r == n-1 {
			first, second = pattern(r, seg), nil
		}
		off := int64(r * seg)
		w1, err1 := f.WriteAtAll(off, first)
		w2, err2 := f.WriteAtAll(off+int64(len(first)), second)
		if w1+w2 != seg {
			errs = append(errs, errors.New("collective writes moved "+strconv.Itoa(w1+w2)+" bytes, want "+strconv.Itoa(seg)))
		}
		errs = append(errs, err1, err2, f.Sync(), f.Close())

		rf, err := world.OpenFile(CommSelf, path, ReadOnly, nil)
		if err != nil {
			errs = append(errs, err)
			return
		}
		got = make([]byte, n*seg+10)
		k, err := rf.ReadAt(0, got)
		got = got[:k]
		gotAll = make([]byte, n*seg)
		k2, err2 := rf.ReadAtAll(0, gotAll)
		gotAll = gotAll[:k2]
		errs = append(errs, err, err2, rf.Close())

		wf, err := world.OpenFile(CommWorld, path, WriteOnly, nil)
		if err == nil {
			errs = append(errs, wf.SetSize(int64(n*seg/2)), wf.Close())
		} else {
			errs = append(errs, err)
		}
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i := range n {
		want = append(want, pattern(i, seg)...)
	}
	if !bytes.Equal(got, want) || !bytes.Equal(gotAll, want) {
		t.Errorf("read back %d and %d bytes, want the %d bytes of every rank's pattern", len(got), len(gotAll), len(want))
	}
	if st, err := os.Stat(path); err != nil || st.Size() != int64(n*seg/2) {
		t.Errorf("after MPI_File_set_size: %v, %v; want %d bytes", st, err, n*seg/2)
	}
}

// A file per rank on MPI_COMM_SELF: MPI_MODE_EXCL refuses an existing
// name as EEXIST, a missing file is ENOENT, and the hints read back.
func TestFileOwnErrorsAndHints(t *testing.T) {
	dir := sharedDir(t)
	path := filepath.Join(dir, "rank"+strconv.Itoa(world.Rank())+".dat")
	var createErr, againErr, missingErr, closedErr, hintsErr, closeErr error
	var hints []Hint
	var wrote int
	onMain(func() {
		var f *File
		f, createErr = world.OpenFile(CommSelf, path, CreateExcl, []Hint{{"striping_factor", "4"}, {"iobench_test_key", "1"}})
		if createErr != nil {
			return
		}
		wrote, _ = f.WriteAt(0, []byte("hello"))
		hints, hintsErr = f.Hints()
		closeErr = f.Close()
		_, closedErr = f.WriteAt(0, []byte("x"))
		_, againErr = world.OpenFile(CommSelf, path, CreateExcl, nil)
		_, missingErr = world.OpenFile(CommSelf, path+".missing", ReadOnly, nil)
	})
	if createErr != nil || hintsErr != nil || closeErr != nil || wrote != 5 {
		t.Fatalf("create %v, write %d bytes, hints %v, close %v", createErr, wrote, hintsErr, closeErr)
	}
	t.Logf("MPI_File_get_info (%s): %v", LibraryVersion(), hints)
	var fe *FileError
	if !errors.Is(againErr, fs.ErrExist) || !errors.As(againErr, &fe) || fe.Class != "MPI_ERR_FILE_EXISTS" || fe.Path != path {
		t.Errorf("second create: %v, want MPI_ERR_FILE_EXISTS as fs.ErrExist naming %s", againErr, path)
	}
	if !errors.Is(missingErr, fs.ErrNotExist) {
		t.Errorf("opening a missing file: %v, want fs.ErrNotExist", missingErr)
	}
	if closedErr == nil || !strings.Contains(closedErr.Error(), "closed") {
		t.Errorf("WriteAt after Close: %v, want an error", closedErr)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "hello" {
		t.Errorf("file holds %q, %v; want hello", data, err)
	}
}

// Bad hints and calls from another thread fail before MPI is called, on
// every rank alike.
func TestFileRefusedBeforeMPI(t *testing.T) {
	dir := sharedDir(t)
	path := filepath.Join(dir, "rank"+strconv.Itoa(world.Rank())+".dat")
	var badHint error
	onMain(func() { _, badHint = world.OpenFile(CommSelf, path, CreateExcl, []Hint{{"bad key", "1"}}) })
	if badHint == nil || !strings.Contains(badHint.Error(), "bad key") {
		t.Errorf("a hint key with a space: %v, want it refused", badHint)
	}
	if _, err := world.OpenFile(CommSelf, path, CreateExcl, nil); !errors.Is(err, errWrongThread) || !strings.Contains(err.Error(), "MPI_File_open") {
		t.Errorf("OpenFile off Init's thread: %v, want %v", err, errWrongThread)
	}
	var f *File
	var err error
	onMain(func() { f, err = world.OpenFile(CommSelf, path, CreateExcl, nil) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(0, []byte("x")); !errors.Is(err, errWrongThread) {
		t.Errorf("WriteAt off Init's thread: %v, want %v", err, errWrongThread)
	}
	onMain(func() { err = f.Close() })
	if err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the file: %v", err)
	}
}

// writesPastLimit writes 4 KiB at off (plus 4 KiB a rank) into path,
// opened on comm, with the process's file size limit at 1 MiB: a write(2)
// past it fails with EFBIG (SIGXFSZ ignored), one across it writes up to
// it, and the call must say so.
func writesPastLimit(t *testing.T, comm Comm, path string, off int64, collective bool) (openErr, writeErr error) {
	t.Helper()
	signal.Ignore(syscall.SIGXFSZ)
	defer signal.Reset(syscall.SIGXFSZ)
	onMain(func() {
		var f *File
		if f, openErr = world.OpenFile(comm, path, CreateExcl, nil); openErr != nil {
			return
		}
		var old unix.Rlimit
		_ = unix.Getrlimit(unix.RLIMIT_FSIZE, &old)
		limit := unix.Rlimit{Cur: 1 << 20, Max: old.Max}
		if openErr = unix.Setrlimit(unix.RLIMIT_FSIZE, &limit); openErr == nil {
			off += int64(world.Rank() * 4096)
			if collective {
				_, writeErr = f.WriteAtAll(off, pattern(world.Rank(), 4096))
			} else {
				_, writeErr = f.WriteAt(off, pattern(world.Rank(), 4096))
			}
			_ = unix.Setrlimit(unix.RLIMIT_FSIZE, &old)
		}
		_ = f.Close()
	})
	return openErr, writeErr
}

// A write(2) that fails inside MPI-IO is an error of the call, on every
// rank's own file and on the rank that wrote a collective call's data to
// the shared file: OMPIO itself reports the first as a success of 0
// bytes, and drops the second. A write the kernel cut short is written
// on, so its failure is seen too: OMPIO took the short count for the end.
func TestFileWriteFailuresInsideMPI(t *testing.T) {
	dir := sharedDir(t)
	own := filepath.Join(dir, "rank"+strconv.Itoa(world.Rank()))
	for i, c := range []struct {
		off        int64
		collective bool
	}{{2 << 20, false}, {2 << 20, true}, {1<<20 - 2048, false}, {1<<20 - 2048, true}} {
		openErr, err := writesPastLimit(t, CommSelf, own+strconv.Itoa(i)+".dat", c.off, c.collective)
		if openErr != nil || !errors.Is(err, unix.EFBIG) {
			t.Errorf("own file at %d, collective %v: open %v, write %v; want EFBIG", c.off, c.collective, openErr, err)
		}
	}
	openErr, err := writesPastLimit(t, CommWorld, filepath.Join(dir, "shared.dat"), 2<<20, true)
	var failed int64
	if errors.Is(err, unix.EFBIG) {
		failed = 1
	}
	var sumErr error
	onMain(func() { failed, sumErr = world.AllreduceInt64(failed, Sum) })
	if openErr != nil || sumErr != nil || failed == 0 {
		t.Errorf("shared file: open %v, sum %v; %d ranks saw EFBIG, want at least the writing one (this rank: %v)", openErr, sumErr, failed, err)
	}
}
