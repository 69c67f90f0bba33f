package mpi

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestCheckHint(t *testing.T) {
	for _, tc := range []struct {
		h    Hint
		want string // "" for ok
	}{
		{Hint{"cb_buffer_size", "16777216"}, ""},
		{Hint{"", "1"}, "the key is empty"},
		{Hint{"cb nodes", "1"}, "contains a space"},
		{Hint{"a=b", "1"}, "contains a space or '='"},
		{Hint{"cb_nodes", ""}, "the value is empty"},
		{Hint{strings.Repeat("k", MaxInfoKey+1), "1"}, "this MPI allows"},
		{Hint{"k", strings.Repeat("v", MaxInfoVal+1)}, "this MPI allows"},
	} {
		err := CheckHint(tc.h)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckHint(%.40s) = %v, want %q", tc.h, err, tc.want)
		}
	}
}

// A FileError is its errno to errors.Is, as write(2)'s errors are.
func TestFileErrorUnwrapsErrno(t *testing.T) {
	e := &FileError{Fn: "MPI_File_write_at", Path: "/d/f", Class: "MPI_ERR_NO_SPACE", Text: "no space", Errno: unix.ENOSPC}
	if !errors.Is(e, unix.ENOSPC) || e.Error() != "mpi: MPI_File_write_at /d/f: no space" {
		t.Errorf("%v: errors.Is ENOSPC %v", e, errors.Is(e, unix.ENOSPC))
	}
	if e := (&FileError{Errno: unix.EEXIST}); !errors.Is(e, fs.ErrExist) {
		t.Errorf("EEXIST is not fs.ErrExist")
	}
	if (&FileError{}).Unwrap() != nil {
		t.Errorf("a class without errno unwraps to non-nil")
	}
}

// A write(2) that failed inside an MPI-IO call makes the call an error
// with that errno, whether the call reported success or an error of a
// class without one; an errno the class has stays.
func TestWithHiddenErrno(t *testing.T) {
	if err := withHiddenErrno(nil, "MPI_File_write_at_all", "/d/f", unix.EIO); !errors.Is(err, unix.EIO) ||
		!strings.Contains(err.Error(), "MPI_File_write_at_all /d/f: a write(2) inside the call failed") {
		t.Errorf("success with a failed write: %v, want EIO naming the call", err)
	}
	if err := withHiddenErrno(&FileError{Class: "MPI_ERR_IO"}, "f", "p", unix.EFBIG); !errors.Is(err, unix.EFBIG) {
		t.Errorf("MPI_ERR_IO with a failed write: %v, want EFBIG", err)
	}
	if err := withHiddenErrno(&FileError{Errno: unix.ENOSPC}, "f", "p", unix.EIO); !errors.Is(err, unix.ENOSPC) {
		t.Errorf("ENOSPC with a failed write: %v, want ENOSPC kept", err)
	}
	if err := withHiddenErrno(nil, "f", "p", 0); err != nil {
		t.Errorf("no failed write: %v", err)
	}
}
