//go:build unix

package runtimes

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/iobench"
)

// fileID is the identity of the regular file at path, not following a
// symlink; anything else gets the zero FileID, which OSFS.Remove never
// matches.
func fileID(path string) (iobench.FileID, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return iobench.FileID{}, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return iobench.FileID{}, nil
	}
	return iobench.FileID{Dev: uint64(st.Dev), Ino: st.Ino}, nil
}
