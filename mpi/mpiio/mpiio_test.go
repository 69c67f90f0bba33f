package mpiio

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/mpi"
)

// fakeHandle records the MPI-IO calls a data file makes.
type fakeHandle struct {
	calls   []string
	failAt  int // the failAt-th WriteAtAll fails with ENOSPC; 0: none
	written int
}

func (h *fakeHandle) Path() string { return "/d/f" }
func (h *fakeHandle) WriteAt(off int64, p []byte) (int, error) {
	h.calls = append(h.calls, fmt.Sprintf("write_at(%d, %d)", off, len(p)))
	return len(p), nil
}

func (h *fakeHandle) WriteAtAll(off int64, p []byte) (int, error) {
	h.written++
	h.calls = append(h.calls, fmt.Sprintf("write_at_all(%d, %d)", off, len(p)))
	if h.written == h.failAt {
		return 0, &mpi.FileError{Fn: "MPI_File_write_at_all", Path: h.Path(), Text: "no space", Errno: unix.ENOSPC}
	}
	return len(p), nil
}

func (h *fakeHandle) ReadAt(off int64, p []byte) (int, error)    { return 0, nil }
func (h *fakeHandle) ReadAtAll(off int64, p []byte) (int, error) { return 0, nil }
func (h *fakeHandle) Sync() error                                { h.calls = append(h.calls, "sync"); return nil }
func (h *fakeHandle) Close() error                               { h.calls = append(h.calls, "close"); return nil }

// The engine's part of a run: chunks of size until an error, then Fsync
// (only after a good run) and Close.
func engineRun(f *file, total, size int, fsync bool) error {
	var err error
	for done := 0; done < total && err == nil; done += size {
		_, err = f.Write(make([]byte, min(size, total-done)))
	}
	if err == nil && fsync {
		err = f.Fsync()
	}
	return errors.Join(err, f.Close())
}

// On the shared file with collective writes, every rank makes the same
// MPI-IO calls in the same order, whatever its share and whether it
// failed: the last partial write is collective, and a rank short of the
// others makes the rest with zero bytes.
func TestCollectiveCallsMatchAcrossRanks(t *testing.T) {
	const size = 4 << 10
	for _, tc := range []struct {
		name          string
		bytes, failAt int
		fsync         bool
		want          []string
	}{
		{"largest share", 10 << 10, 0, true, []string{
			"write_at_all(100, 4096)", "write_at_all(4196, 4096)", "write_at_all(8292, 2048)", "sync", "close"}},
		{"smaller share pads", 8 << 10, 0, true, []string{
			"write_at_all(100, 4096)", "write_at_all(4196, 4096)", "write_at_all(8292, 0)", "sync", "close"}},
		{"failed rank pads and syncs", 10 << 10, 1, true, []string{
			"write_at_all(100, 4096)", "write_at_all(100, 0)", "write_at_all(100, 0)", "sync", "close"}},
		{"no fsync", 10 << 10, 2, false, []string{
			"write_at_all(100, 4096)", "write_at_all(4196, 4096)", "write_at_all(4196, 0)", "close"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := &FS{Collective: true, MaxRankBytes: 10 << 10, FlushInTiming: tc.fsync, writeSize: size}
			h := &fakeHandle{failAt: tc.failAt}
			f := fs.file(h, 100, true)
			f.target = (fs.MaxRankBytes + fs.writeSize - 1) / fs.writeSize
			err := engineRun(f, tc.bytes, size, tc.fsync)
			if (tc.failAt > 0) != errors.Is(err, unix.ENOSPC) {
				t.Errorf("error %v; want ENOSPC only from a failing write", err)
			}
			if diff := cmp.Diff(tc.want, h.calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

// A file of this rank's own (MPI_COMM_SELF) pads nothing and, after a
// failure, syncs nothing: no other rank takes part in its calls.
func TestOwnFileMakesOnlyItsCalls(t *testing.T) {
	fs := &FS{Collective: true, MaxRankBytes: 10 << 10, FlushInTiming: true, writeSize: 4 << 10}
	h := &fakeHandle{failAt: 1}
	if err := engineRun(fs.file(h, 0, false), 8<<10, 4<<10, true); !errors.Is(err, unix.ENOSPC) {
		t.Errorf("error %v, want ENOSPC", err)
	}
	if diff := cmp.Diff([]string{"write_at_all(0, 4096)", "close"}, h.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	h = &fakeHandle{}
	if err := engineRun((&FS{}).file(h, 0, false), 6<<10, 4<<10, false); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"write_at(0, 4096)", "write_at(4096, 2048)", "close"}, h.calls); diff != "" {
		t.Errorf("independent calls (-want +got):\n%s", diff)
	}
}

func TestParseHints(t *testing.T) {
	got, err := ParseHints("hints", "# Lustre\nstriping_factor 4\n\n  cb_buffer_size\t16777216  \nromio_cb_write enable\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []mpi.Hint{{Key: "striping_factor", Value: "4"}, {Key: "cb_buffer_size", Value: "16777216"}, {Key: "romio_cb_write", Value: "enable"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"striping_factor\n", "ok 1\nlonely\n"} {
		if _, err := ParseHints("hints", bad); err == nil || !strings.HasPrefix(err.Error(), "hints:") {
			t.Errorf("ParseHints(%q) = %v, want an error naming the file and line", bad, err)
		}
	}
}

func TestParseHint(t *testing.T) {
	if h, err := ParseHint("cb_nodes=4"); err != nil || h != (mpi.Hint{Key: "cb_nodes", Value: "4"}) {
		t.Errorf("ParseHint = %v, %v", h, err)
	}
	for _, bad := range []string{"cb_nodes", "=4", "cb_nodes=", "cb nodes=4", strings.Repeat("k", mpi.MaxInfoKey+1) + "=1"} {
		if _, err := ParseHint(bad); err == nil {
			t.Errorf("ParseHint(%q) succeeded", bad)
		}
	}
}

// shortHandle reports success for writes that moved nothing, as OMPIO
// does when write(2) fails with ENOSPC.
type shortHandle struct{ fakeHandle }

func (h *shortHandle) WriteAt(off int64, p []byte) (int, error) { return 0, nil }

func TestShortWriteIsAnError(t *testing.T) {
	f := (&FS{}).file(&shortHandle{}, 0, false)
	if n, err := f.Write(make([]byte, 10)); n != 0 || !errors.Is(err, ErrShortWrite) || !strings.Contains(err.Error(), "0 of 10 bytes") {
		t.Errorf("Write = %d, %v; want ErrShortWrite naming the counts", n, err)
	}
}
