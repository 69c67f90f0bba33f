package mpiio

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
)

// FS writes the engine's data files through MPI-IO. Set the fields, then
// hand a *FS to iobench.Runner. Every method but Remove is called from the
// goroutine that called mpi.Init, as the engine's run loop is.
type FS struct {
	OS    iobench.OSFS // paths, removal, syncfs and cache drops
	World *mpi.World
	// Collective writes and reads with MPI_File_write_at_all and
	// MPI_File_read_at_all instead of MPI_File_write_at and _read_at.
	Collective bool
	Hints      []mpi.Hint // passed to every MPI_File_open
	// SharedName is the shared file (iobench.Shared.Name), which is
	// opened on MPI_COMM_WORLD; "" for a file per rank.
	SharedName string
	// MaxRankBytes is the most bytes any rank writes in one run. With
	// Collective on the shared file every rank makes the same number of
	// MPI_File_write_at_all calls, ceil(MaxRankBytes / write size): a rank
	// with a smaller share, or one that stopped on an error, makes the
	// rest with zero bytes, or the job would hang.
	MaxRankBytes int64
	// FlushInTiming: the engine calls File.Fsync before Close on a good
	// run. MPI_File_sync on the shared file is collective, so a rank that
	// failed makes the call in Close instead.
	FlushInTiming bool

	writeSize int64                   // the current run's, from PrepareRun
	reported  map[mpi.Comm][]mpi.Hint // MPI_File_get_info of the first file on each communicator
	loaded    bool                    // the MPI-IO layer was loaded before the first run (load)
}

var (
	_ iobench.FS          = (*FS)(nil)
	_ iobench.RunPreparer = (*FS)(nil)
)

// PrepareRun learns the write size of the run about to start, for the
// number of collective calls, and before the first run loads the MPI-IO
// layer (load).
func (fs *FS) PrepareRun(run iobench.Run) {
	fs.writeSize = run.WriteSize
	if !fs.loaded {
		fs.loaded = true
		fs.load()
	}
}

// load makes MPI load its I/O layer now, untimed. Open MPI opens its io
// framework and OMPIO's components (fs, fbtl, fcoll, sharedfp: a dozen
// shared libraries) at the first MPI_File_open of the process: some
// milliseconds, which with --warmup=false fell inside the first
// timed run's open (IOR pays it before its clock, in the untimed
// existence check that precedes its create). The call is an
// MPI_File_open for reading, on this rank alone, of a name in the target
// directory that does not exist (so the components for its file system are
// the ones loaded), never with MPI_MODE_CREATE: it fails, as meant, and
// nothing is made. Should the name exist after all, nothing is read from
// it and it is closed at once. Any error is ignored: the only cost of a
// failed load is the one this avoids.
func (fs *FS) load() {
	if fs.World == nil {
		return
	}
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		return
	}
	path := fs.OS.Path(prefix + "-mpiio-load.dat")
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		return
	}
	if f, err := fs.World.OpenFile(mpi.CommSelf, path, mpi.ReadOnly, fs.Hints); err == nil {
		_ = f.Close()
	}
}

// Path is the full path of a data file.
func (fs *FS) Path(name string) string { return fs.OS.Path(name) }

// Reported are the hints MPI_File_get_info gave for the first data file
// opened on the shared file's communicator (shared) or a rank's own,
// and whether such a file was opened.
func (fs *FS) Reported(shared bool) ([]mpi.Hint, bool) {
	comm := mpi.CommSelf
	if shared {
		comm = mpi.CommWorld
	}
	h, ok := fs.reported[comm]
	return h, ok
}

// errDirect: MPI-IO has no O_DIRECT; the caller refuses the combination
// before a sweep.
var errDirect = errors.New("MPI-IO has no O_DIRECT")

// Create makes a new file for this rank alone, with
// MPI_MODE_CREATE|MPI_MODE_EXCL|MPI_MODE_WRONLY, and learns its identity.
func (fs *FS) Create(name string, direct bool) (iobench.File, iobench.FileID, error) {
	if direct {
		return nil, iobench.FileID{}, errDirect
	}
	path := fs.OS.Path(name)
	f, err := fs.World.OpenFile(mpi.CommSelf, path, mpi.CreateExcl, fs.Hints)
	if err != nil {
		return nil, iobench.FileID{}, err
	}
	// MPI gives no descriptor to fstat: the name is the file made an
	// instant ago with O_EXCL, which never follows a symlink.
	id, err := lstatID(path)
	if err == nil && id == (iobench.FileID{}) {
		err = &os.PathError{Op: "create", Path: path, Err: errors.New("not a regular file after MPI_File_open")}
	}
	if err != nil {
		return nil, iobench.FileID{}, errors.Join(err, f.Close())
	}
	fs.report(mpi.CommSelf, f)
	return fs.file(f, 0, false), id, nil
}

// Open opens a file iobench created, for reading, on this rank alone.
func (fs *FS) Open(name string, id iobench.FileID, direct bool) (iobench.File, error) {
	if direct {
		return nil, errDirect
	}
	f, err := fs.openChecked(name, id, mpi.ReadOnly)
	if err != nil {
		return nil, err
	}
	return fs.file(f, 0, false), nil
}

// OpenWrite opens a file iobench created for writing from offset: the
// shared file on every rank together (a collective call), any other on
// this rank alone. Never with MPI_MODE_CREATE.
func (fs *FS) OpenWrite(name string, id iobench.FileID, direct bool, offset int64) (iobench.File, error) {
	if direct {
		return nil, errDirect
	}
	if name == fs.SharedName {
		return fs.openShared(name, id, offset)
	}
	f, err := fs.openChecked(name, id, mpi.WriteOnly)
	if err != nil {
		return nil, err
	}
	return fs.file(f, offset, false), nil
}

// openChecked opens one of this rank's files on MPI_COMM_SELF once the
// name still leads to the file id, and checks again after the open: with
// no descriptor to fstat, a check on each side of the open is as close as
// MPI-IO allows. Nothing moves through a file that fails either check.
func (fs *FS) openChecked(name string, id iobench.FileID, access mpi.Access) (*mpi.File, error) {
	if err := fs.check(name, id); err != nil {
		return nil, err
	}
	f, err := fs.World.OpenFile(mpi.CommSelf, fs.OS.Path(name), access, fs.Hints)
	if err != nil {
		return nil, err
	}
	if err := fs.check(name, id); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return f, nil
}

// errOtherRank: this rank's checks passed, another's failed.
var errOtherRank = errors.New("another rank found the shared file replaced or could not open it; see its error")

// openShared opens the shared file on MPI_COMM_WORLD. The open, the checks
// around it and the close after a failed check are collective: every rank
// learns whether any rank's check failed, so all open, or none, and all
// take the same branch.
func (fs *FS) openShared(name string, id iobench.FileID, offset int64) (iobench.File, error) {
	if fs.Collective && fs.writeSize <= 0 {
		return nil, errors.New("mpiio: collective writes to the shared file need the run's write size (PrepareRun)")
	}
	if err := fs.agree(fs.check(name, id)); err != nil {
		return nil, err
	}
	f, err := fs.World.OpenFile(mpi.CommWorld, fs.OS.Path(name), mpi.WriteOnly, fs.Hints)
	if err != nil {
		// MPI_File_open agrees on failure among the ranks (ROMIO and OMPIO
		// both do), so no rank holds a handle the others would have to
		// close with it.
		return nil, err
	}
	if err := fs.agree(fs.check(name, id)); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	fs.report(mpi.CommWorld, f)
	sf := fs.file(f, offset, true)
	if fs.Collective {
		sf.target = (fs.MaxRankBytes + fs.writeSize - 1) / fs.writeSize
	}
	return sf, nil
}

// agree is an all-ranks OR of the local failure: nil on every rank, or an
// error on every rank (this rank's own, or errOtherRank).
func (fs *FS) agree(local error) error {
	var flag int64
	if local != nil {
		flag = 1
	}
	anyFailed, err := fs.World.AllreduceInt64(flag, mpi.Max)
	switch {
	case err != nil:
		return errors.Join(local, err)
	case anyFailed == 0:
		return nil
	case local != nil:
		return local
	}
	return errOtherRank
}

// check fails unless name leads to the regular file id, without following
// a symlink.
func (fs *FS) check(name string, want iobench.FileID) error {
	path := fs.OS.Path(name)
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	got := statID(&st)
	if got == want && want != (iobench.FileID{}) {
		return nil
	}
	now := "another file (" + got.String() + ")"
	if got == (iobench.FileID{}) {
		now = "not a regular file (a symlink, directory or device)"
	}
	return &iobench.ReplacedError{Path: path, Want: want, Now: now}
}

func lstatID(path string) (iobench.FileID, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return iobench.FileID{}, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	return statID(&st), nil
}

// statID is the identity of a regular file; anything else has none, as
// in iobench.OSFS.
func statID(st *unix.Stat_t) iobench.FileID {
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return iobench.FileID{}
	}
	return iobench.FileID{Dev: uint64(st.Dev), Ino: st.Ino}
}

// report keeps what MPI_File_get_info says for the first file on comm.
// The call is local and cheap; a failure leaves the list unknown.
func (fs *FS) report(comm mpi.Comm, f *mpi.File) {
	if _, done := fs.reported[comm]; done {
		return
	}
	h, err := f.Hints()
	if err != nil {
		return
	}
	if fs.reported == nil {
		fs.reported = map[mpi.Comm][]mpi.Hint{}
	}
	fs.reported[comm] = h
}

// LocalOS is the OSFS that names and removes the data files.
func (fs *FS) LocalOS() iobench.OSFS { return fs.OS }

// Remove deletes name if it still is the file id (iobench.OSFS.Remove).
func (fs *FS) Remove(name string, id iobench.FileID) error { return fs.OS.Remove(name, id) }

// Sync flushes the target file system before a run (iobench.OSFS.Sync).
func (fs *FS) Sync(mode iobench.SyncMode) error { return fs.OS.Sync(mode) }

// DropCache evicts the file's cached pages (iobench.OSFS.DropCache).
func (fs *FS) DropCache(name string, id iobench.FileID, mode iobench.DropMode) error {
	return fs.OS.DropCache(name, id, mode)
}

func (fs *FS) file(f handle, offset int64, shared bool) *file {
	return &file{f: f, off: offset, collective: fs.Collective, shared: shared, flush: fs.FlushInTiming}
}

// handle is the part of *mpi.File a data file uses; tests fake it.
type handle interface {
	Path() string
	WriteAt(off int64, p []byte) (int, error)
	WriteAtAll(off int64, p []byte) (int, error)
	ReadAt(off int64, p []byte) (int, error)
	ReadAtAll(off int64, p []byte) (int, error)
	Sync() error
	Close() error
}

var _ handle = (*mpi.File)(nil)

// file is one open MPI-IO data file; it keeps the offset the engine's
// sequential Write and Read calls have reached.
type file struct {
	f          handle
	off        int64
	collective bool
	shared     bool  // on MPI_COMM_WORLD: sync and close are collective
	flush      bool  // FS.FlushInTiming
	calls      int64 // collective writes made
	target     int64 // collective writes every rank makes (shared file only)
	synced     bool
}

// ErrShortWrite is an MPI-IO write that reported success but moved fewer
// bytes than asked. MPI-IO writes all or fails, so this is a failure whose
// cause MPI did not say. The binding finds the cause where the library
// wrote with pwrite(2) or pwritev(2) (package mpi); this is for the rest.
// It is not retried: for a collective call a retry would be one call more
// than the other ranks make.
var ErrShortWrite = errors.New("MPI-IO reported success but wrote fewer bytes than asked; the library hid the cause")

// Write writes p at the file's offset.
func (f *file) Write(p []byte) (int, error) {
	var n int
	var err error
	if f.collective {
		n, err = f.f.WriteAtAll(f.off, p)
		f.calls++
	} else {
		n, err = f.f.WriteAt(f.off, p)
	}
	if err == nil && n < len(p) {
		err = fmt.Errorf("%s: %w (%d of %d bytes)", f.f.Path(), ErrShortWrite, n, len(p))
	}
	f.off += int64(n)
	return n, err
}

// Read reads into p from the file's offset; 0 bytes at the end.
func (f *file) Read(p []byte) (int, error) {
	var n int
	var err error
	if f.collective {
		n, err = f.f.ReadAtAll(f.off, p)
	} else {
		n, err = f.f.ReadAt(f.off, p)
	}
	f.off += int64(n)
	return n, err
}

// Fsync makes the collective writes this rank still owes the others, then
// calls MPI_File_sync.
func (f *file) Fsync() error {
	err := f.pad()
	f.synced = true
	return errors.Join(err, f.f.Sync())
}

// Close keeps the collective calls in step with the other ranks, whatever
// this rank's run did (a smaller share, an error, an interrupt): the
// collective writes it owes, the MPI_File_sync the others make, then
// MPI_File_close.
func (f *file) Close() error {
	err := f.pad()
	if f.shared && f.flush && !f.synced {
		f.synced = true
		_ = f.f.Sync() // made for the others' sake; this run has failed already
	}
	return errors.Join(err, f.f.Close())
}

// pad makes the remaining collective writes with zero bytes, up to the
// number every rank makes on the shared file.
func (f *file) pad() error {
	var errs []error
	for ; f.calls < f.target; f.calls++ {
		if _, err := f.f.WriteAtAll(f.off, nil); err != nil && len(errs) == 0 {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ParseHints reads hints in the ROMIO_HINTS file format: one "key value"
// per line; blank lines and lines starting with '#' are skipped. name
// is the file's name, for errors.
func ParseHints(name, text string) ([]mpi.Hint, error) {
	var out []mpi.Hint
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, " ")
		if !ok {
			key, value, ok = strings.Cut(line, "\t")
		}
		h := mpi.Hint{Key: key, Value: strings.TrimSpace(value)}
		if !ok || h.Value == "" {
			return nil, fmt.Errorf("%s:%d: %q is not \"key value\"", name, i+1, line)
		}
		if err := mpi.CheckHint(h); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		out = append(out, h)
	}
	return out, nil
}

// ParseHint reads one "key=value" hint (--hint).
func ParseHint(s string) (mpi.Hint, error) {
	key, value, ok := strings.Cut(s, "=")
	h := mpi.Hint{Key: strings.TrimSpace(key), Value: strings.TrimSpace(value)}
	if !ok {
		return h, fmt.Errorf("%q is not key=value", s)
	}
	return h, mpi.CheckHint(h)
}
