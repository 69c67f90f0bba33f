// Package mpiio is an iobench.FS whose data files are written and read
// through MPI-IO, as HDF5 and NetCDF write theirs: MPI_File_write_at
// (independent) or MPI_File_write_at_all (collective), a file per rank
// opened on MPI_COMM_SELF or one shared file opened on MPI_COMM_WORLD, as
// IOR's MPIIO backend does. Hints go to MPI_File_open; the ones the
// library reports back (MPI_File_get_info) are kept for the report.
//
// Naming, removal, the flush before a run and dropping cached pages stay
// with iobench.OSFS, so the engine's file-safety rules hold unchanged:
// files are created with MPI_MODE_CREATE|MPI_MODE_EXCL, opened again only
// after their identity is checked, and removed by the identity-checked
// unlink.
//
// It works in both builds; without the mpi tag every open fails with
// mpi.ErrNeedsMPIBuild, so callers refuse --api mpiio before a sweep.
//
// It must not import report, profile or urfave/cli.
package mpiio
