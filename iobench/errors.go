package iobench

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// ErrInterrupted is returned when the context is cancelled mid-sweep
// (Ctrl-C, SIGTERM).
var ErrInterrupted = errors.New("interrupted")

// RunError is a failure inside one run: which call, at which size, after
// how many bytes. errors.Is(err, unix.ENOSPC) and friends see the cause.
type RunError struct {
	Op    string // "open", "write", "read", "fsync", "close", "verify"
	Run   Run
	Bytes int64  // bytes moved in this run before the failure
	Path  string // the data file
	Err   error
}

func (e *RunError) Error() string {
	return fmt.Sprintf("%s of %s failed during the %s run with %d-byte calls, after %d bytes: %s",
		e.Op, e.Path, e.Run.Mode, e.Run.WriteSize, e.Bytes, Describe(e.Err))
}

func (e *RunError) Unwrap() error { return e.Err }

// Describe names an error's cause in plain words, with the errno name a
// file system admin would grep for.
func Describe(err error) string {
	var errno unix.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	plain := map[unix.Errno]string{
		unix.ENOSPC:       "no space left on the file system",
		unix.EDQUOT:       "disk quota exceeded",
		unix.EIO:          "input/output error from the device or file system",
		unix.EROFS:        "the file system is mounted read-only",
		unix.EACCES:       "permission denied",
		unix.EPERM:        "operation not permitted",
		unix.EFBIG:        "file too large for this file system or ulimit -f",
		unix.EINVAL:       "invalid argument (if O_DIRECT is on: sizes or buffers not aligned as the file system needs)",
		unix.ENOENT:       "no such file or directory",
		unix.ENOTDIR:      "a path component is not a directory",
		unix.ENAMETOOLONG: "file name too long for this file system",
		unix.ELOOP:        "too many levels of symbolic links",
		unix.ESTALE:       "stale file handle (the file or directory went away on the server)",
		unix.ETIMEDOUT:    "the file system server timed out",
		unix.EBUSY:        "device or resource busy",
		unix.ENOTCONN:     "the file system is not connected (a FUSE daemon died?)",
	}
	words, ok := plain[errno]
	if !ok {
		words = errno.Error()
	}
	return fmt.Sprintf("%s (%s)", words, unix.ErrnoName(errno))
}

// DescribePath is Describe for an *os.PathError: the call and path, then
// the cause in plain words with its errno name.
func DescribePath(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s %s: %s", pe.Op, pe.Path, Describe(pe.Err))
	}
	return Describe(err)
}

// describedError keeps the cause for errors.Is but reads as DescribePath.
type describedError struct{ err error }

func (e describedError) Error() string { return DescribePath(e.err) }
func (e describedError) Unwrap() error { return e.err }

// errZeroWrite stops a loop on a file that accepts no bytes and no error.
var errZeroWrite = fmt.Errorf("write(2) returned 0 bytes: %w", io.ErrShortWrite)

// errShortFile is a read that ended before the data did.
var errShortFile = fmt.Errorf("file ended before the data did: %w", io.ErrUnexpectedEOF)
