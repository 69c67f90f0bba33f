#!/usr/bin/env bash
# The test command (README): installs what the tests need when run as root
# on Debian, then runs vet, the race-enabled unit and end-to-end tests, and
# the MPI tests under mpirun. Tests needing root skip cleanly otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  need=()
  command -v mpirun >/dev/null || need+=(openmpi-bin libopenmpi-dev)
  command -v pkg-config >/dev/null || need+=(pkg-config)
  { command -v pkg-config >/dev/null && pkg-config --exists hdf5; } || command -v h5cc >/dev/null || need+=(libhdf5-dev pkg-config)
  command -v mkfs.ext4 >/dev/null || need+=(e2fsprogs)
  command -v mkfs.xfs >/dev/null || need+=(xfsprogs)
  command -v gcc >/dev/null || need+=(gcc)
  command -v gfortran >/dev/null || need+=(gfortran)
  command -v strace >/dev/null || need+=(strace)
  command -v jq >/dev/null || need+=(jq)
  if [ ${#need[@]} -gt 0 ]; then
    echo "== installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi

echo "== go vet"
go vet ./...
# The iobench binary, and its MPI build, once for every package's tests.
bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT
go build -buildvcs=auto -o "$bins/iobench" .
export IOBENCH_TEST_BIN="$bins/iobench"
if command -v mpirun >/dev/null && command -v pkg-config >/dev/null; then
  go build -buildvcs=auto -tags mpi -o "$bins/iobench-mpi" .
  export IOBENCH_TEST_MPI_BIN="$bins/iobench-mpi"
fi
# The full layer: end-to-end runs of programs, compilers, strace and the
# documented commands (go test ./... alone is the fast layer).
export IOBENCH_TEST_FULL=1
# A generous binary timeout: on a loaded machine the command package's
# end-to-end tests take several times their idle time (about 6 minutes
# idle, 20-23 under scripts/stress-test.sh, 42-45 under two of them at
# once, where 45m ran out), and a slow machine is not a failing test
# (hangs are caught by internal/testkit/testwait's watchdogs).
echo "== go test -race"
go test -race -count=1 -timeout 90m ./...
# The simulations of many sweeps skip under -race (statistics, not
# concurrency, and seven times slower there): run them without it.
echo "== go test (the planner's and the verdict's simulations, every corrupted log, without -race)"
go test -count=1 -run 'TestAdaptiveTruth|TestPlanner|TestVerdictAgreesWithNumbers|TestAppCorruptLogsFailInOneLine' ./iobench/ ./report/render/ ./internal/cli/
if command -v mpirun >/dev/null && command -v pkg-config >/dev/null; then
  echo "== MPI tests: the binding under mpirun -np 3, then iobench sweeps under mpirun"
  bash scripts/mpi-test.sh
  OMPI_MCA_btl_vader_single_copy_mechanism=none go test -tags mpi -count=1 -timeout 30m -run MPI ./internal/cli
else
  echo "== MPI tests skipped: install openmpi-bin libopenmpi-dev pkg-config"
fi
