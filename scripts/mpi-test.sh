#!/usr/bin/env bash
# mpi-test.sh builds the tests of package mpi with -tags mpi and runs them
# twice: alone, as a single MPI rank (singleton init), and as several ranks
# under mpirun; then the protocol of mpi/cluster on 1024 and 4096 fake
# ranks, without the race detector, which makes 4096 take minutes. It
# exits non-zero if any run fails or hangs.
#
# Usage: scripts/mpi-test.sh [test binary flags, e.g. -test.v]
# Environment:
#   MPI_TEST_NP       ranks for the mpirun run (default 3; oversubscribed,
#                     so more ranks than cores is fine)
#   MPI_TEST_TIMEOUT  seconds allowed for each run (default 60)
#
# Needs Go, a C compiler, pkg-config and an MPI whose pkg-config module is
# "mpi" (Debian and Ubuntu: Open MPI or MPICH). On Debian:
#   apt-get install -y openmpi-bin libopenmpi-dev pkg-config
set -euo pipefail

np=${MPI_TEST_NP:-3}
limit=${MPI_TEST_TIMEOUT:-60}
install_hint="apt-get update && apt-get install -y openmpi-bin libopenmpi-dev pkg-config"

say() { printf 'mpi-test: %s\n' "$*"; }
die() {
	say "FAIL: $*" >&2
	exit 1
}

# need CMD HINT fails with HINT unless CMD is on PATH.
need() {
	command -v "$1" >/dev/null 2>&1 || die "$1 not found; $2"
}

need go "install Go (see go.mod for the version)"
need "${CC:-gcc}" "cgo compiles the binding; install it with: apt-get install -y gcc"
need pkg-config "install it with: $install_hint"
need mpirun "install it with: $install_hint"
need timeout "install it with: apt-get install -y coreutils"
pkg-config --exists mpi ||
	die "pkg-config knows no module \"mpi\"; install it with: $install_hint (elsewhere, put a symlink mpi.pc -> ompi.pc or mpich.pc on PKG_CONFIG_PATH)"

cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say "building with -tags mpi against $(pkg-config --modversion mpi 2>/dev/null | head -n1) ($(mpirun --version 2>&1 | head -n1))"
CGO_ENABLED=1 go test -tags mpi -c -o "$tmp/mpi.test" ./mpi/ ||
	die "go test -tags mpi -c ./mpi/ did not build"
go test -c -o "$tmp/cluster.test" ./mpi/cluster/ ||
	die "go test -c ./mpi/cluster/ did not build"

# Launcher flags differ: Open MPI refuses root without --allow-run-as-root
# and more ranks than cores without --oversubscribe, and tags each output
# line with --tag-output; MPICH's Hydra oversubscribes by default and tags
# lines with -prepend-rank.
if mpirun --version 2>&1 | grep -q 'Open MPI'; then
	launch=(mpirun --oversubscribe --tag-output -np "$np")
	if [ "$(id -u)" = 0 ]; then
		launch+=(--allow-run-as-root)
	fi
	# Containers often forbid the cross-process reads (CMA) of the shared
	# memory transport; copying through the shared segment always works.
	export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
else
	launch=(mpirun -prepend-rank -n "$np")
fi

# run NAME CMD... runs one test run under the time limit and reports it.
run() {
	local name=$1
	shift
	say "running $name: $*"
	local rc=0
	timeout --kill-after=10 "$limit" "$@" || rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		die "$name: no result within ${limit}s (a rank hung in a collective?)"
	elif [ "$rc" != 0 ]; then
		die "$name: exit status $rc"
	fi
	say "PASS: $name"
}

# The tests change no files; run them from the temporary directory so a
# crashing rank leaves no core or log in the work tree.
cd "$tmp"
run "1 rank (singleton)" ./mpi.test "$@"
run "$np ranks under mpirun" "${launch[@]}" ./mpi.test "$@"
run "1024 and 4096 fake ranks" ./cluster.test -test.run '^TestScale$' "$@"
say "ok: package mpi passes as 1 rank and as $np ranks; the cluster protocol at 1024 and 4096 ranks"
