//go:build mpi && cgo

package mpi

/*
#cgo pkg-config: mpi
#include <stdlib.h>
#include <mpi.h>

// As in mpi_cgo.go, the handles' macros (MPI_COMM_SELF, MPI_INFO_NULL,
// MPI_BYTE) stay on this side; Go holds MPI_File and MPI_Info values only.

static MPI_Comm iob_file_comm(int c) { return c == 0 ? MPI_COMM_SELF : MPI_COMM_WORLD; }

// access follows the Go constants: 0 CreateExcl, 1 WriteOnly, 2 ReadOnly.
static int iob_amode(int access) {
	switch (access) {
	case 0: return MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY | MPI_MODE_UNIQUE_OPEN;
	case 1: return MPI_MODE_WRONLY | MPI_MODE_UNIQUE_OPEN;
	default: return MPI_MODE_RDONLY | MPI_MODE_UNIQUE_OPEN;
	}
}

static MPI_Info iob_info_null(void) { return MPI_INFO_NULL; }
static int iob_info_is_null(MPI_Info info) { return info == MPI_INFO_NULL; }

static int iob_file_open(int comm, char *path, int access, MPI_Info info, MPI_File *fh) {
	return MPI_File_open(iob_file_comm(comm), path, iob_amode(access), info, fh);
}

// From watch_cgo.c: the errno of a write the library made and failed.
void iob_watch_begin(void);
int iob_watch_end(void);

// The data calls return the bytes moved, from the status, and in
// *failed the errno of a write(2) inside the call that failed.
static int iob_file_io(int op, MPI_File fh, MPI_Offset off, void *buf, int n, int *done, int *failed) {
	MPI_Status st;
	int rc;
	iob_watch_begin();
	switch (op) {
	case 0: rc = MPI_File_write_at(fh, off, buf, n, MPI_BYTE, &st); break;
	case 1: rc = MPI_File_write_at_all(fh, off, buf, n, MPI_BYTE, &st); break;
	case 2: rc = MPI_File_read_at(fh, off, buf, n, MPI_BYTE, &st); break;
	default: rc = MPI_File_read_at_all(fh, off, buf, n, MPI_BYTE, &st); break;
	}
	*failed = iob_watch_end();
	*done = 0;
	if (rc == MPI_SUCCESS) {
		rc = MPI_Get_count(&st, MPI_BYTE, done);
	}
	return rc;
}

static int iob_info_value(MPI_Info info, char *key, char *val, int *flag) {
#if MPI_VERSION >= 4
	int n = MPI_MAX_INFO_VAL + 1;
	return MPI_Info_get_string(info, key, &n, val, flag);
#else
	return MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, flag);
#endif
}

static int iob_library_version(char *buf, int *len) { return MPI_Get_library_version(buf, len); }

static int iob_error_class(int code) {
	int cls = MPI_ERR_UNKNOWN;
	MPI_Error_class(code, &cls);
	return cls;
}
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// MaxInfoKey and MaxInfoVal are this MPI's limits on a hint's key and
// value, in bytes (MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL).
const (
	MaxInfoKey = C.MPI_MAX_INFO_KEY
	MaxInfoVal = C.MPI_MAX_INFO_VAL
)

// LibraryVersion is the first line of MPI_Get_library_version: which MPI,
// and so which MPI-IO layer, the binary runs on ("Open MPI v4.1.4, ...").
func LibraryVersion() string {
	var buf [C.MPI_MAX_LIBRARY_VERSION_STRING]C.char
	var n C.int
	if C.iob_library_version(&buf[0], &n) != C.MPI_SUCCESS {
		return ""
	}
	line, _, _ := strings.Cut(C.GoStringN(&buf[0], n), "\n")
	return strings.TrimRight(line, "\x00 ,")
}

// File is a file opened through MPI-IO (an MPI_File). Like every World
// method, its methods must be called from the goroutine that called Init.
type File struct {
	w      *World
	fh     C.MPI_File
	path   string
	closed bool
}

// OpenFile opens path through MPI_File_open on comm with hints as the
// MPI_Info. On CommWorld it is a collective call: every rank opens the
// same path. Hints are checked with CheckHint first.
func (w *World) OpenFile(comm Comm, path string, access Access, hints []Hint) (*File, error) {
	if err := w.check("MPI_File_open"); err != nil {
		return nil, err
	}
	if comm != CommSelf && comm != CommWorld || access < CreateExcl || access > ReadOnly {
		return nil, fmt.Errorf("mpi: MPI_File_open %s: unknown Comm(%d) or Access(%d)", path, comm, access)
	}
	for _, h := range hints {
		if err := CheckHint(h); err != nil {
			return nil, fmt.Errorf("mpi: MPI_File_open %s: %w", path, err)
		}
	}
	info, err := newInfo(path, hints)
	if err != nil {
		return nil, err
	}
	if C.iob_info_is_null(info) == 0 {
		defer C.MPI_Info_free(&info)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	f := &File{w: w, path: path}
	if err := fileErr("MPI_File_open", path, C.iob_file_open(C.int(comm), cpath, C.int(access), info, &f.fh)); err != nil {
		return nil, err
	}
	return f, nil
}

// newInfo is an MPI_Info holding hints (MPI_Info_create, MPI_Info_set),
// or MPI_INFO_NULL for none; the caller frees it.
func newInfo(path string, hints []Hint) (C.MPI_Info, error) {
	info := C.iob_info_null()
	if len(hints) == 0 {
		return info, nil
	}
	if err := fileErr("MPI_Info_create", path, C.MPI_Info_create(&info)); err != nil {
		return info, err
	}
	for _, h := range hints {
		k, v := C.CString(h.Key), C.CString(h.Value)
		rc := C.MPI_Info_set(info, k, v)
		C.free(unsafe.Pointer(k))
		C.free(unsafe.Pointer(v))
		if err := fileErr("MPI_Info_set", path, rc); err != nil {
			C.MPI_Info_free(&info)
			return info, fmt.Errorf("%w (hint %s)", err, h)
		}
	}
	return info, nil
}

// Path is the path the file was opened as.
func (f *File) Path() string { return f.path }

// WriteAt writes p at byte offset off (MPI_File_write_at, independent)
// and returns the bytes written.
func (f *File) WriteAt(off int64, p []byte) (int, error) { return f.io(0, "MPI_File_write_at", off, p) }

// WriteAtAll is WriteAt as a collective call (MPI_File_write_at_all):
// every rank of the file's communicator makes it, with its own offset
// and length, zero included.
func (f *File) WriteAtAll(off int64, p []byte) (int, error) {
	return f.io(1, "MPI_File_write_at_all", off, p)
}

// ReadAt reads into p from byte offset off (MPI_File_read_at) and returns
// the bytes read, fewer than len(p) at the end of the file.
func (f *File) ReadAt(off int64, p []byte) (int, error) { return f.io(2, "MPI_File_read_at", off, p) }

// ReadAtAll is ReadAt as a collective call (MPI_File_read_at_all).
func (f *File) ReadAtAll(off int64, p []byte) (int, error) {
	return f.io(3, "MPI_File_read_at_all", off, p)
}

func (f *File) io(op int, fn string, off int64, p []byte) (int, error) {
	if err := f.usable(fn); err != nil {
		return 0, err
	}
	if len(p) > maxCount {
		return 0, errCount(fn, len(p))
	}
	var done, failed C.int
	err := fileErr(fn, f.path, C.iob_file_io(C.int(op), f.fh, C.MPI_Offset(off), bufPtr(p), C.int(len(p)), &done, &failed))
	return int(done), withHiddenErrno(err, fn, f.path, unix.Errno(failed))
}

// SetSize truncates or extends the file to n bytes (MPI_File_set_size,
// collective on the file's communicator).
func (f *File) SetSize(n int64) error {
	if err := f.usable("MPI_File_set_size"); err != nil {
		return err
	}
	return fileErr("MPI_File_set_size", f.path, C.MPI_File_set_size(f.fh, C.MPI_Offset(n)))
}

// Sync flushes the file's data to storage (MPI_File_sync, collective on
// the file's communicator); the MPI-IO counterpart of fsync.
func (f *File) Sync() error {
	if err := f.usable("MPI_File_sync"); err != nil {
		return err
	}
	return fileErr("MPI_File_sync", f.path, C.MPI_File_sync(f.fh))
}

// Hints are the hints the MPI library reports for the open file
// (MPI_File_get_info), in its order. What they prove depends on the
// library: some list the values they use, defaults included; others
// return the hints they were given, applied or not.
func (f *File) Hints() ([]Hint, error) {
	if err := f.usable("MPI_File_get_info"); err != nil {
		return nil, err
	}
	var info C.MPI_Info
	if err := fileErr("MPI_File_get_info", f.path, C.MPI_File_get_info(f.fh, &info)); err != nil {
		return nil, err
	}
	defer C.MPI_Info_free(&info)
	var n C.int
	if err := fileErr("MPI_Info_get_nkeys", f.path, C.MPI_Info_get_nkeys(info, &n)); err != nil {
		return nil, err
	}
	var key [C.MPI_MAX_INFO_KEY + 1]C.char
	var val [C.MPI_MAX_INFO_VAL + 1]C.char
	out := make([]Hint, 0, int(n))
	for i := range int(n) {
		if err := fileErr("MPI_Info_get_nthkey", f.path, C.MPI_Info_get_nthkey(info, C.int(i), &key[0])); err != nil {
			return nil, err
		}
		var flag C.int
		if err := fileErr("MPI_Info_get", f.path, C.iob_info_value(info, &key[0], &val[0], &flag)); err != nil {
			return nil, err
		}
		if flag != 0 {
			out = append(out, Hint{Key: C.GoString(&key[0]), Value: C.GoString(&val[0])})
		}
	}
	return out, nil
}

// Close closes the file (MPI_File_close, collective on the file's
// communicator). A second Close returns nil.
func (f *File) Close() error {
	if f.closed {
		return nil
	}
	if err := f.w.check("MPI_File_close"); err != nil {
		return err
	}
	f.closed = true
	return fileErr("MPI_File_close", f.path, C.MPI_File_close(&f.fh))
}

// usable fails on a closed file and, as every World method, on another
// thread than Init's or after Finalize.
func (f *File) usable(fn string) error {
	if f.closed {
		return fmt.Errorf("mpi: %s %s: the file is closed", fn, f.path)
	}
	return f.w.check(fn)
}

// errnoOfClass maps the MPI-IO error classes that have a POSIX
// counterpart.
var errnoOfClass = map[C.int]struct {
	name  string
	errno unix.Errno
}{
	C.MPI_ERR_FILE_EXISTS:  {"MPI_ERR_FILE_EXISTS", unix.EEXIST},
	C.MPI_ERR_NO_SUCH_FILE: {"MPI_ERR_NO_SUCH_FILE", unix.ENOENT},
	C.MPI_ERR_NO_SPACE:     {"MPI_ERR_NO_SPACE", unix.ENOSPC},
	C.MPI_ERR_QUOTA:        {"MPI_ERR_QUOTA", unix.EDQUOT},
	C.MPI_ERR_ACCESS:       {"MPI_ERR_ACCESS", unix.EACCES},
	C.MPI_ERR_READ_ONLY:    {"MPI_ERR_READ_ONLY", unix.EROFS},
	C.MPI_ERR_FILE_IN_USE:  {"MPI_ERR_FILE_IN_USE", unix.EBUSY},
	C.MPI_ERR_IO:           {"MPI_ERR_IO", unix.EIO},
}

// fileErr is nil for MPI_SUCCESS, else a *FileError with the class's
// errno where it has one.
func fileErr(fn, path string, rc C.int) error {
	if rc == C.MPI_SUCCESS {
		return nil
	}
	e := &FileError{Fn: fn, Path: path, Text: strings.TrimPrefix(mpiErr(fn, rc).Error(), "mpi: "+fn+": ")}
	cls := C.iob_error_class(rc)
	if m, ok := errnoOfClass[cls]; ok {
		e.Class, e.Errno = m.name, m.errno
	} else {
		e.Class = fmt.Sprintf("MPI error class %d", int(cls))
	}
	return e
}
