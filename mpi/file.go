package mpi

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// Hint is one MPI-IO hint: a key and value of the MPI_Info passed to
// MPI_File_open, or one returned by MPI_File_get_info.
type Hint struct {
	Key   string
	Value string
}

func (h Hint) String() string { return h.Key + "=" + h.Value }

// Comm is the communicator a file is opened on.
type Comm int

// Communicators for OpenFile.
const (
	// CommSelf opens the file for this rank alone (MPI_COMM_SELF), as IOR
	// does for a file per process: collective calls involve only this rank.
	CommSelf Comm = iota
	// CommWorld opens one file for all ranks together (MPI_COMM_WORLD):
	// OpenFile, WriteAtAll, ReadAtAll, SetSize, Sync and Close are then
	// collective over every rank.
	CommWorld
)

// Access is how OpenFile opens a file.
type Access int

// Access modes. Every mode adds MPI_MODE_UNIQUE_OPEN, as IOR does: iobench's
// data files are never opened by anything else while it runs.
const (
	// CreateExcl makes a new file for writing and fails if the name exists
	// (MPI_MODE_CREATE|MPI_MODE_EXCL|MPI_MODE_WRONLY), so it never opens
	// a file that is not its caller's own.
	CreateExcl Access = iota
	// WriteOnly opens an existing file for writing (MPI_MODE_WRONLY), never
	// creating one.
	WriteOnly
	// ReadOnly opens an existing file for reading (MPI_MODE_RDONLY).
	ReadOnly
)

// ErrNeedsMPIBuild is what the MPI-IO calls return in a build without the
// mpi tag.
var ErrNeedsMPIBuild = errors.New("MPI-IO needs the MPI build of iobench (go build -tags mpi)")

// CheckHint checks a hint's syntax before any file is opened: a key
// without spaces or '=', and a value, both within MPI's info limits
// (MaxInfoKey, MaxInfoVal of this build's MPI).
func CheckHint(h Hint) error {
	switch {
	case h.Key == "":
		return fmt.Errorf("hint %q: the key is empty", h)
	case strings.ContainsAny(h.Key, " \t\n="):
		return fmt.Errorf("hint key %q contains a space or '='", h.Key)
	case h.Value == "":
		return fmt.Errorf("hint %q: the value is empty", h)
	case len(h.Key) > MaxInfoKey:
		return fmt.Errorf("hint key %q is %d bytes; this MPI allows %d", h.Key, len(h.Key), MaxInfoKey)
	case len(h.Value) > MaxInfoVal:
		return fmt.Errorf("hint %s: the value is %d bytes; this MPI allows %d", h.Key, len(h.Value), MaxInfoVal)
	}
	return nil
}

// errCount is a buffer larger than one MPI call can move: counts are C
// ints.
func errCount(fn string, n int) error {
	return fmt.Errorf("mpi: %s: %d bytes in one call; MPI's int count allows at most %d", fn, n, maxCount)
}

// FileError is a failed MPI-IO call. Where MPI's error class has a
// POSIX counterpart (MPI_ERR_NO_SPACE is ENOSPC, MPI_ERR_FILE_EXISTS is
// EEXIST, ...) it unwraps to that errno, so errors.Is(err, unix.ENOSPC)
// and errors.Is(err, fs.ErrExist) work as for write(2).
type FileError struct {
	Fn    string     // the MPI function, "MPI_File_write_at"
	Path  string     // the file
	Class string     // MPI's error class, "MPI_ERR_NO_SPACE"
	Text  string     // MPI_Error_string
	Errno unix.Errno // the POSIX counterpart of Class, 0 if none
}

func (e *FileError) Error() string {
	return fmt.Sprintf("mpi: %s %s: %s", e.Fn, e.Path, e.Text)
}

// withHiddenErrno is err of an MPI-IO data call given the errno of a
// write(2) that failed inside it: a call that reported success is then
// a failure after all, and a failure whose class has no errno takes the
// write's.
func withHiddenErrno(err error, fn, path string, errno unix.Errno) error {
	if errno == 0 {
		return err
	}
	var fe *FileError
	if err == nil {
		return &FileError{Fn: fn, Path: path, Text: "a write(2) inside the call failed (" + errno.Error() + "), though the call reported success", Errno: errno}
	}
	if errors.As(err, &fe) && fe.Errno == 0 {
		fe.Errno = errno
	}
	return err
}

// Unwrap is the errno of the error class, nil when it has none.
func (e *FileError) Unwrap() error {
	if e.Errno == 0 {
		return nil
	}
	return e.Errno
}
