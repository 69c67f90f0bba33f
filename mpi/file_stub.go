//go:build !mpi

package mpi

// MaxInfoKey and MaxInfoVal are MPI's limits on a hint's key and value;
// in this build, which opens no files, those of MPICH.
const (
	MaxInfoKey = 255
	MaxInfoVal = 1024
)

// LibraryVersion is the MPI library's version line; "" in this build.
func LibraryVersion() string { return "" }

// File is a file opened through MPI-IO. This build, without the mpi tag,
// cannot open one: OpenFile returns ErrNeedsMPIBuild.
type File struct{}

// OpenFile opens a file through MPI_File_open; here it fails with
// ErrNeedsMPIBuild.
func (w *World) OpenFile(comm Comm, path string, access Access, hints []Hint) (*File, error) {
	return nil, ErrNeedsMPIBuild
}

// Path is the path the file was opened as.
func (f *File) Path() string { return "" }

// WriteAt writes p at offset off (MPI_File_write_at); here it fails.
func (f *File) WriteAt(off int64, p []byte) (int, error) { return 0, ErrNeedsMPIBuild }

// WriteAtAll writes p at offset off, collectively; here it fails.
func (f *File) WriteAtAll(off int64, p []byte) (int, error) { return 0, ErrNeedsMPIBuild }

// ReadAt reads into p from offset off (MPI_File_read_at); here it fails.
func (f *File) ReadAt(off int64, p []byte) (int, error) { return 0, ErrNeedsMPIBuild }

// ReadAtAll reads into p from offset off, collectively; here it fails.
func (f *File) ReadAtAll(off int64, p []byte) (int, error) { return 0, ErrNeedsMPIBuild }

// SetSize sets the file's size (MPI_File_set_size); here it fails.
func (f *File) SetSize(n int64) error { return ErrNeedsMPIBuild }

// Sync flushes the file (MPI_File_sync); here it fails.
func (f *File) Sync() error { return ErrNeedsMPIBuild }

// Hints are the hints MPI_File_get_info reports; here it fails.
func (f *File) Hints() ([]Hint, error) { return nil, ErrNeedsMPIBuild }

// Close closes the file (MPI_File_close); here it fails.
func (f *File) Close() error { return ErrNeedsMPIBuild }
