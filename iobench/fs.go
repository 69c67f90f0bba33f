package iobench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// FS is the file system a sweep runs on. Tests pass a fake one to inject
// short writes, EINTR, ENOSPC and EIO without a disk.
//
// Every call after Create names the file and the identity Create gave
// it: an FS never follows a symlink to a data file and refuses a name
// that no longer is the file iobench made (*ReplacedError), so another
// process swapping a user's file in under that name loses nothing.
type FS interface {
	// Create makes a new file that must not exist yet (O_EXCL).
	Create(name string, direct bool) (File, FileID, error)
	// Open opens the file iobench created as id, for reading.
	Open(name string, id FileID, direct bool) (File, error)
	// OpenWrite opens the file iobench created as id for writing at offset.
	OpenWrite(name string, id FileID, direct bool, offset int64) (File, error)
	// Remove deletes name if it still is the file id.
	Remove(name string, id FileID) error
	// Sync flushes dirty data before a run, outside the timing.
	Sync(mode SyncMode) error
	// DropCache evicts the file's pages so a read run reaches storage.
	DropCache(name string, id FileID, mode DropMode) error
}

// RunPreparer is an FS that must know each timed run before it starts,
// such as MPI-IO's, whose collective calls every rank makes alike. The
// engine calls PrepareRun during the run's untimed preparation.
type RunPreparer interface {
	PrepareRun(run Run)
}

// Pather is an FS whose data files have full paths to show in errors and
// reports (OSFS, and file systems built on it).
type Pather interface {
	Path(name string) string
}

// File is one open data file. Its methods return raw errors (EINTR
// included) so the engine can retry and count them.
type File interface {
	Write(p []byte) (int, error)
	Read(p []byte) (int, error)
	Fsync() error
	Close() error
}

// FileID is a file's identity whatever its name: device and inode.
type FileID struct {
	Dev uint64
	Ino uint64
}

func (id FileID) String() string { return fmt.Sprintf("device %d, inode %d", id.Dev, id.Ino) }

// ReplacedError: a data file's name, or the directory's, no longer leads
// to the one iobench created (or made its files in). Nothing was written
// to, read from or removed at that name.
type ReplacedError struct {
	Path string
	Want FileID
	Now  string // what the name leads to now
	Dir  bool   // Path is the directory the data files were made in
}

func (e *ReplacedError) Error() string {
	what := "the data file iobench created"
	if e.Dir {
		what = "the directory iobench made its data files in"
	}
	return fmt.Sprintf("%s is no longer %s (%s): it is now %s; another process replaced it, so iobench stopped without touching it",
		e.Path, what, e.Want, e.Now)
}

// OSFS is the real file system, rooted at Dir.
type OSFS struct {
	Dir string
	// RawSyscalls issues reads and writes without the Go scheduler's
	// bookkeeping (see rawIO). Set it only where calls return quickly:
	// local disks and memory. On network, parallel and FUSE file systems
	// a call can block for seconds, and a raw one then blocks signals and
	// garbage collection with it.
	RawSyscalls bool

	syncFlag int // O_DSYNC or O_SYNC on every open for writing (withOpenSync)
}

// syncOpener is an FS that can open its data files for synchronous writes.
type syncOpener interface {
	withOpenSync(mode OpenSync) FS
}

// withOpenSync is o opening every data file it writes with O_DSYNC
// (OpenDSync) or O_SYNC (OpenSyncAll).
func (o OSFS) withOpenSync(mode OpenSync) FS {
	o.syncFlag = map[OpenSync]int{OpenDSync: unix.O_DSYNC, OpenSyncAll: unix.O_SYNC}[mode]
	return o
}

// Allocator is a File that can reserve its blocks up front (fallocate).
type Allocator interface {
	// Allocate makes the file size bytes long with its blocks allocated.
	Allocate(size int64) error
}

// Datasyncer is a File that can flush its data without the metadata a
// read does not need (fdatasync).
type Datasyncer interface {
	Fdatasync() error
}

// Path is the full path of a data file.
func (o OSFS) Path(name string) string { return filepath.Join(o.Dir, name) }

// Create opens a new file with O_EXCL so an existing file is never touched.
func (o OSFS) Create(name string, direct bool) (File, FileID, error) {
	fd, err := o.open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, direct)
	if err != nil {
		return nil, FileID{}, err
	}
	id, err := fdID(fd)
	if err != nil {
		unix.Close(fd)
		return nil, FileID{}, &os.PathError{Op: "fstat", Path: o.Path(name), Err: err}
	}
	return o.file(fd), id, nil
}

// Open opens a file iobench created, for reading.
func (o OSFS) Open(name string, id FileID, direct bool) (File, error) {
	fd, err := o.openExisting(name, id, unix.O_RDONLY, direct)
	if err != nil {
		return nil, err
	}
	return o.file(fd), nil
}

// OpenWrite opens a shared file (made by Create on another rank) for
// writing from offset; never with O_CREAT, so it cannot make a user file.
func (o OSFS) OpenWrite(name string, id FileID, direct bool, offset int64) (File, error) {
	fd, err := o.openExisting(name, id, unix.O_WRONLY, direct)
	if err != nil {
		return nil, err
	}
	if _, err := unix.Seek(fd, offset, io.SeekStart); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "seek", Path: o.Path(name), Err: err}
	}
	return o.file(fd), nil
}

// openExisting opens name, without following a symlink, once it is the
// file id, and checks again on the descriptor against a swap in between.
// O_NONBLOCK keeps a FIFO swapped in between the two checks from holding
// the open until a writer comes (where no signal reaches it); it is
// cleared once the file is known to be id.
func (o OSFS) openExisting(name string, id FileID, flags int, direct bool) (int, error) {
	if err := o.check(name, id, "open"); err != nil {
		return -1, err
	}
	fd, err := o.open(name, flags|unix.O_NONBLOCK, direct)
	if errors.Is(err, unix.EWOULDBLOCK) && o.check(name, id, "open") == nil {
		fd, err = o.open(name, flags, direct) // a lease: wait for its break
	}
	if err != nil {
		return -1, o.openFailed(name, id, err)
	}
	if err := o.checkOpen(fd, name, id); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// openFailed is the error of a failed open of the file id: a
// ReplacedError if name no longer leads to it, or led elsewhere during
// the open (ENXIO: a FIFO with no reader, a socket or a device).
func (o OSFS) openFailed(name string, id FileID, err error) error {
	if cerr := o.check(name, id, "open"); errors.As(cerr, new(*ReplacedError)) {
		return cerr
	}
	if errors.Is(err, unix.ENXIO) {
		return &ReplacedError{Path: o.Path(name), Want: id, Now: "a FIFO, socket or device for a moment (ENXIO)"}
	}
	return err
}

// checkOpen fails unless fd is the file id, and clears O_NONBLOCK.
func (o OSFS) checkOpen(fd int, name string, id FileID) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "fstat", Path: o.Path(name), Err: err}
	}
	if got := statID(&st); got != id || id == (FileID{}) {
		return &ReplacedError{Path: o.Path(name), Want: id, Now: whatIsNow(&st)}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		return &os.PathError{Op: "fcntl", Path: o.Path(name), Err: err}
	}
	return nil
}

// check fails unless name leads, without following a symlink, to the
// regular file id; op names the call in other errors.
func (o OSFS) check(name string, id FileID, op string) error {
	path := o.Path(name)
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return &os.PathError{Op: op, Path: path, Err: err}
	}
	if got := statID(&st); got != id || id == (FileID{}) {
		return &ReplacedError{Path: path, Want: id, Now: whatIsNow(&st)}
	}
	return nil
}

func (o OSFS) open(name string, flags int, direct bool) (int, error) {
	flags |= unix.O_NOFOLLOW | unix.O_CLOEXEC
	if flags&unix.O_ACCMODE != unix.O_RDONLY {
		flags |= o.syncFlag
	}
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
				return -1, &os.PathError{Op: "open with O_DIRECT (the file system refuses direct I/O)", Path: o.Path(name), Err: err}
			}
			return -1, &os.PathError{Op: "open", Path: o.Path(name), Err: err}
		}
		return fd, nil
	}
}

func (o OSFS) file(fd int) File { return fdFile{fd: fd, raw: o.RawSyscalls} }

func fdID(fd int) (FileID, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return FileID{}, err
	}
	return statID(&st), nil
}

// whatIs says, for a ReplacedError, what a name leads to now: got, its
// identity (statID's, none for anything but a regular file).
func whatIs(got FileID) string {
	if got == (FileID{}) {
		return "not a regular file (a symlink, directory or device)"
	}
	return "another file (" + got.String() + ")"
}

// whatIsNow is whatIs told by the name's own stat, which names its kind.
func whatIsNow(st *unix.Stat_t) string {
	if kind, ok := fileKinds[uint32(st.Mode&unix.S_IFMT)]; ok {
		return kind
	}
	return whatIs(statID(st))
}

var fileKinds = map[uint32]string{
	unix.S_IFLNK:  "a symlink",
	unix.S_IFIFO:  "a FIFO (named pipe)",
	unix.S_IFDIR:  "a directory",
	unix.S_IFCHR:  "a character device",
	unix.S_IFBLK:  "a block device",
	unix.S_IFSOCK: "a socket",
}

// statID is a file's identity; anything but a regular file gets none, so
// a symlink or device given the freed inode number of a removed data
// file never passes for it.
func statID(st *unix.Stat_t) FileID {
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return FileID{}
	}
	return FileID{Dev: uint64(st.Dev), Ino: st.Ino}
}

// Remove deletes a file iobench created, if the name still leads to it
// (a symlink has an inode of its own, so it never matches). Between the
// check and the unlink another process could still swap the name; what it
// would lose is that name, in a directory iobench writes benchmark data to.
func (o OSFS) Remove(name string, id FileID) error {
	if err := o.check(name, id, "remove"); err != nil {
		return err
	}
	if err := unix.Unlink(o.Path(name)); err != nil {
		return &os.PathError{Op: "remove", Path: o.Path(name), Err: err}
	}
	return nil
}

// dirNow is the identity of the directory Dir leads to now, following
// symlinks as a --dir given through one does, and what it is for a
// ReplacedError: none if it is no directory.
func (o OSFS) dirNow() (FileID, string, error) {
	var st, lst unix.Stat_t
	if err := unix.Stat(o.Dir, &st); err != nil {
		return FileID{}, "", &os.PathError{Op: "stat", Path: o.Dir, Err: err}
	}
	id := FileID{Dev: uint64(st.Dev), Ino: st.Ino}
	now := "another directory (" + id.String() + ")"
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		id, now = FileID{}, whatIsNow(&st)
	}
	if unix.Lstat(o.Dir, &lst) == nil && lst.Mode&unix.S_IFMT == unix.S_IFLNK {
		now = "a symlink to " + now
	}
	return id, now, nil
}

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
func (o OSFS) DropCache(name string, id FileID, mode DropMode) error {
	fd, err := o.openExisting(name, id, unix.O_RDONLY, false)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := fadviseDontNeed(fd, o.Path(name)); err != nil {
		return err
	}
	if mode != DropCaches {
		return nil
	}
	err = os.WriteFile(dropCachesPath, []byte("1\n"), 0)
	if err != nil {
		return &os.PathError{Op: "drop caches (needs root)", Path: dropCachesPath, Err: err}
	}
	return nil
}

// fdFile is a raw descriptor: no buffering, no Go runtime poller.
type fdFile struct {
	fd  int
	raw bool
}

// With raw set, Write and Read call the kernel without the runtime's
// syscall bookkeeping (entersyscall/exitsyscall). That bookkeeping is a
// tenth of a 1 KiB write to tmpfs where measured (docs/measurements.md),
// and would show as the tool's overhead (scripts/compare-c.sh). The
// cost: this goroutine holds its P while the kernel works, and a garbage
// collection that must stop the world waits for the call to return; so
// OSFS sets raw only on local and memory file systems.
func (f fdFile) Write(p []byte) (int, error) {
	if f.raw {
		return rawIO(unix.SYS_WRITE, f.fd, p)
	}
	return unix.Write(f.fd, p)
}

func (f fdFile) Read(p []byte) (int, error) {
	if f.raw {
		return rawIO(unix.SYS_READ, f.fd, p)
	}
	return unix.Read(f.fd, p)
}

func (f fdFile) Fsync() error { return retryEINTR(func() error { return unix.Fsync(f.fd) }) }
func (f fdFile) Close() error { return unix.Close(f.fd) }

// Fdatasync flushes the file's data (fdatasync(2), Linux only).
func (f fdFile) Fdatasync() error { return retryEINTR(func() error { return fdatasync(f.fd) }) }

// Allocate reserves the file's blocks with fallocate(2) (Linux only).
func (f fdFile) Allocate(size int64) error {
	return retryEINTR(func() error { return fallocate(f.fd, size) })
}

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
