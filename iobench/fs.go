package iobench

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// FS is the file system a sweep runs on. Tests pass a fake one to inject
// short writes, EINTR, ENOSPC and EIO without a disk.
type FS interface {
	// Create makes a new file that must not exist yet (O_EXCL).
	Create(name string, direct bool) (File, error)
	// Open opens an existing file for reading.
	Open(name string, direct bool) (File, error)
	// OpenWrite opens an existing file iobench created for writing at offset.
	OpenWrite(name string, direct bool, offset int64) (File, error)
	Remove(name string) error
	// Sync flushes dirty data before a run, outside the timing.
	Sync(mode SyncMode) error
	// DropCache evicts the named file's pages so a read run reaches storage.
	DropCache(name string, mode DropMode) error
}

// File is one open data file. Its methods return raw errors (EINTR
// included) so the engine can retry and count them.
type File interface {
	Write(p []byte) (int, error)
	Read(p []byte) (int, error)
	Fsync() error
	Close() error
}

// OSFS is the real file system, rooted at Dir.
type OSFS struct {
	Dir string
}

// Path is the full path of a data file.
func (o OSFS) Path(name string) string { return filepath.Join(o.Dir, name) }

// Create opens a new file with O_EXCL so an existing file is never touched.
func (o OSFS) Create(name string, direct bool) (File, error) {
	flags := unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_CLOEXEC
	return o.open(name, flags, direct)
}

// Open opens a file iobench created, for reading.
func (o OSFS) Open(name string, direct bool) (File, error) {
	return o.open(name, unix.O_RDONLY|unix.O_CLOEXEC, direct)
}

// OpenWrite opens a shared file (made by Create on another rank) for
// writing from offset; never with O_CREAT, so it cannot make a user file.
func (o OSFS) OpenWrite(name string, direct bool, offset int64) (File, error) {
	f, err := o.open(name, unix.O_WRONLY|unix.O_CLOEXEC, direct)
	if err != nil {
		return nil, err
	}
	if _, err := unix.Seek(int(f.(fdFile)), offset, io.SeekStart); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "seek", Path: o.Path(name), Err: err}
	}
	return f, nil
}

func (o OSFS) open(name string, flags int, direct bool) (File, error) {
	if direct {
		flags |= directFlag
	}
	for {
		fd, err := unix.Open(o.Path(name), flags, 0o600)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			if direct && errors.Is(err, unix.EINVAL) {
				return nil, &os.PathError{Op: "open with O_DIRECT (the file system refuses direct I/O; drop --direct)", Path: o.Path(name), Err: err}
			}
			return nil, &os.PathError{Op: "open", Path: o.Path(name), Err: err}
		}
		return fdFile(fd), nil
	}
}

// Remove deletes a file iobench created.
func (o OSFS) Remove(name string) error { return os.Remove(o.Path(name)) }

// Sync flushes the target file system (syncfs) or all of them (sync).
func (o OSFS) Sync(mode SyncMode) error {
	switch mode {
	case SyncNone:
		return nil
	case SyncAll:
		unix.Sync()
		return nil
	}
	return syncFS(o.Dir)
}

// DropCache fsyncs the file and asks the kernel to drop its cached pages;
// DropCaches also drops the whole page cache (root only).
func (o OSFS) DropCache(name string, mode DropMode) error {
	if err := fadviseDontNeed(o.Path(name)); err != nil {
		return err
	}
	if mode != DropCaches {
		return nil
	}
	err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("1\n"), 0)
	if err != nil {
		return &os.PathError{Op: "drop caches (needs root; use --drop-caches only as root)", Path: "/proc/sys/vm/drop_caches", Err: err}
	}
	return nil
}

// fdFile is a raw descriptor: no buffering, no Go runtime poller.
type fdFile int

// Write and Read call the kernel without the runtime's syscall bookkeeping
// (entersyscall/exitsyscall). That bookkeeping cost about 200 ns per call
// here, 13% of a 1 KiB write to tmpfs, and would show as the tool's
// overhead in the figure (scripts/compare-c.sh). The cost: this goroutine
// holds its P while the kernel works. main keeps GOMAXPROCS >= 2 so the
// signal goroutine has a P of its own, but a garbage collection that must
// stop the world waits for the write to return; so a write blocked in the
// kernel delays Ctrl-C until it returns (as a write in D state would).
func (f fdFile) Write(p []byte) (int, error) { return rawIO(unix.SYS_WRITE, int(f), p) }
func (f fdFile) Read(p []byte) (int, error)  { return rawIO(unix.SYS_READ, int(f), p) }
func (f fdFile) Fsync() error                { return retryEINTR(func() error { return unix.Fsync(int(f)) }) }
func (f fdFile) Close() error                { return unix.Close(int(f)) }

func retryEINTR(op func() error) error {
	for {
		if err := op(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func rawIO(trap uintptr, fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, errno := unix.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
