// Package binary names the I/O runtimes a program uses (libgfortran,
// glibc stdio, Open MPI, MPICH, HDF5, the Intel Fortran runtime, and
// libstdc++ and Python, whose buffers no setting reaches) from its
// executable and the shared objects it loaded, so that iobench can point
// at the buffering knob that actually applies to that program.
package binary
