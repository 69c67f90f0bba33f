//go:build mpi && !cgo

package mpi

// The mpi tag binds the system MPI through cgo. Building with it while cgo
// is off would silently give a binary without MPI, so fail here instead:
// set CGO_ENABLED=1 (with a C compiler and MPI's pkg-config files), or drop
// -tags mpi for the pure-Go single-rank build.
const _ = mpi_tag_requires_cgo_enabled__set_CGO_ENABLED_1_or_drop_tag_mpi
