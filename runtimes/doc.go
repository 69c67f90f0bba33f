// Package runtimes measures writes made by a real I/O runtime instead of
// by iobench's own write(2) loop: libgfortran's unformatted stream I/O
// and C stdio (glibc), and the libraries MPI-IO (Open MPI's OMPIO and
// ROMIO) and HDF5. It closes the loop between the write(2) sweep and the
// advice drawn from it: does GFORTRAN_UNFORMATTED_BUFFER_SIZE, a setvbuf
// buffer, a ROMIO hint, OMPIO's bytes_per_agg or an H5P setting of the
// recommended size give the gain the sweep predicted, and how many
// write(2) calls does the runtime really issue?
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
//   - each runtime's buffering rule as a pure function that predicts the
//     write(2) calls (Predict; PredictMPIIO and PredictHDF5 for the
//     libraries, from ROMIO's, OMPIO's and HDF5's sources), which the
//     tests check against the calls the writers count in /proc/self/io;
//   - the libraries' cases: which settings run where their rules say they
//     can change the calls (MPIIOCases, HDF5Cases), and what packing
//     strided memory costs MPI-IO (PackCost);
//   - a plan of shuffled, interleaved rounds over layout x byte order x
//     buffer (Plan) and the loop that runs it (Writer.Measure);
//   - the summary of its samples against a write(2) sweep: medians and
//     intervals, gains over the runtime's default, the gains the sweep
//     predicts, whether they agree, and the buffer each layout needs by
//     the runtime's rule (Summarize, Advice).
//
// It is a library: it imports neither urfave/cli nor os.Stdout/os.Stderr,
// prints nothing, and takes a context for cancellation. The command that
// drives it (iobench runtime) reads flags, names the data files with
// iobench.UniquePrefix, runs the write(2) sweep when no saved one is given,
// and reports through package report.
package runtimes
