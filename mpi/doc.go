// Package mpi is the thin slice of MPI that iobench needs to run as many
// ranks under mpirun or srun and add up their bandwidth, IOR-style: rank and
// size, a barrier, reductions, gathering and broadcasting bytes, a clock, and
// abort.
//
// # Two builds
//
// Built with -tags mpi (and cgo), the package binds the system MPI through
// cgo. Without the tag it is pure Go and behaves as a single rank: Size is 1,
// Rank is 0, reductions return their input, Gather returns the one slice.
// The exported API is the same in both builds, so callers never need build
// tags of their own; Enabled tells them which build they are in.
//
// # Finding MPI
//
// The cgo build asks pkg-config for the module "mpi". Debian and Ubuntu
// provide mpi.pc through the alternatives system, pointing at ompi.pc
// (libopenmpi-dev) or mpich.pc (libmpich-dev), whichever MPI is the default,
// so the same build line works with Open MPI and MPICH. Elsewhere, put a
// directory holding an mpi.pc (a symlink to ompi.pc or mpich.pc will do) on
// PKG_CONFIG_PATH. On Debian:
//
//	apt-get install openmpi-bin libopenmpi-dev pkg-config
//	go build -tags mpi ./...
//
// # Threads
//
// MPI ties calls to OS threads, Go schedules goroutines on any thread. Init
// locks the calling goroutine to its OS thread. The contract for callers:
// make every MPI call (every World method) from the goroutine that called
// Init, typically main. Worker goroutines may do the I/O; they hand their
// numbers back to main, which does the reductions. All calls then come
// from one thread, MPI's main thread, so MPI_THREAD_FUNNELED is enough:
// Init asks for it and fails if the library grants less. In the MPI build
// every World method checks the contract and, on another thread, returns
// an error naming the MPI function instead of calling it.
//
// # Collectives
//
// Every World method except Rank, Size, Wtime and Abort is a collective
// call: all ranks must make it, in the same order, or the job hangs. An
// error returned by a collective is the same on every rank where the
// package can arrange it (for example a payload too large for MPI's int
// counts), so all ranks take the same branch.
//
// # MPI-IO
//
// OpenFile opens a file through MPI_File_open on MPI_COMM_SELF or
// MPI_COMM_WORLD with hints as an MPI_Info; a File writes and reads at
// offsets (MPI_File_write_at, _write_at_all, _read_at, _read_at_all),
// sets its size, syncs, reports its hints (MPI_File_get_info) and closes.
// On MPI_COMM_WORLD the _all calls, SetSize, Sync and Close are
// collective. Failed calls return a *FileError that unwraps to the POSIX
// errno of MPI's error class where there is one. Without the mpi tag
// OpenFile returns ErrNeedsMPIBuild.
//
// A data call is also a *FileError, with the errno, when a pwrite(2) or
// pwritev(2) the library made inside it failed, even if the call
// reported success: Open MPI 4's OMPIO reports such a write as 0 bytes
// written, and in a collective write the aggregating rank's failure is
// lost. The binary defines pwrite and pwritev, which the library's calls
// bind to; inside a data call they note the errno on the calling thread
// and write on where the kernel wrote less than asked, which OMPIO took
// for the end of its write (watch_cgo.c).
//
// # Jobs of their own
//
// SpawnChild starts an MPI program as a job of its own (MPI_Comm_spawn
// from the calling rank), which then answers requests (Child.Request)
// until closed: iobench's MPI-IO writer runs that way, since an MPI-IO
// component is chosen when MPI starts, and one job serves many runs
// because Open MPI 4 fails a spawn now and then when jobs are spawned one
// after another. IdleBarrier lets ranks wait for a long one without
// spinning on the CPUs the job needs. Without the mpi tag SpawnChild
// returns ErrNeedsMPIBuild.
//
// # The MPI tree
//
// Everything MPI lives under this directory: this package is the binding
// (it owns the binding only and must not import other iobench packages);
// mpi/cluster is the protocol built on it, who agrees on what and when;
// mpi/mpiio is the engine's file system over MPI-IO (--api mpiio).
package mpi
