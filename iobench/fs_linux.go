package iobench

import (
	"os"

	"golang.org/x/sys/unix"
)

const directFlag = unix.O_DIRECT

// canFallocate and canFdatasync: the calls exist here.
const canFallocate, canFdatasync = true, true

func fdatasync(fd int) error { return unix.Fdatasync(fd) }

// fallocate allocates size bytes and sets the file's size to them (mode 0).
func fallocate(fd int, size int64) error { return unix.Fallocate(fd, 0, 0, size) }

// syncFS flushes only the file system holding dir, so other busy file
// systems on the node do not stall the sweep.
func syncFS(dir string) error {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open for syncfs", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	if err := retryEINTR(func() error { return unix.Syncfs(fd) }); err != nil {
		return &os.PathError{Op: "syncfs", Path: dir, Err: err}
	}
	return nil
}

func fadviseDontNeed(fd int, path string) error {
	if err := retryEINTR(func() error { return unix.Fsync(fd) }); err != nil {
		return &os.PathError{Op: "fsync", Path: path, Err: err}
	}
	if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		return &os.PathError{Op: "posix_fadvise DONTNEED", Path: path, Err: err}
	}
	return nil
}
