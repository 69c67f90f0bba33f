// Package runtimes measures writes made by a real I/O runtime instead of
// by iobench's own write(2) loop: libgfortran's unformatted stream I/O
// and C stdio (glibc), and the libraries MPI-IO (Open MPI's OMPIO and
// ROMIO) and HDF5, running the plans package libcheck makes.
//
// It owns:
//   - small writer programs, embedded as source (src/writer.f90,
//     src/writer.c, src/mpiio.c, src/hdf5.c, sharing src/procio.h) and
//     compiled with the system compiler (mpicc; libhdf5 through
//     pkg-config or h5cc) into a private temporary directory (Build,
//     Writer.Close); the MPI-IO writer runs as an MPI job of its own,
//     started by a Launcher, since a component is chosen at MPI_Init;
//   - one timed run of a writer on a new data file, with the data file
//     removed on every exit path, cancellation included (Writer.Run);
//   - the pure parser of the writers' one-line report (ParseReport);
//   - the loop that runs a libcheck.Plan round by round (Writer.Measure)
//     and the price of a program's writes through a writer (Writer.Price).
//
// It is a library: it imports neither urfave/cli nor os.Stdout/os.Stderr,
// prints nothing, and takes a context for cancellation. The command that
// drives it (iobench runtime) reads flags, names the data files with
// iobench.UniquePrefix, runs the write(2) sweep when no saved one is given,
// and reports through package report.
package runtimes
