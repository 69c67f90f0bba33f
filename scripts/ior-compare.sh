#!/usr/bin/env bash
# ior-compare.sh runs IOR's MPIIO backend and iobench --api mpiio on the
# same work, interleaved, and prints each aggregate write bandwidth and
# the ratio iobench / IOR for four layouts: a file per process and one
# shared file, each with independent and collective writes. Two ratios:
# of the medians, and the median of each iobench run over the IOR run
# just before it, which a machine's drift affects less.
#
# The work: NP ranks, each writing BLOCK in calls of XFER, fsync inside
# the timing (IOR -e, iobench --fsync: MPI_File_sync before close), timed
# from open to close, aggregate = all bytes over the earliest start to the
# latest end (both tools compute it so). The data: IOR writes one
# XFER-byte buffer again and again, which stays in the CPU cache; iobench
# does the same with --source window (SOURCE=array writes a BLOCK-byte
# array per rank instead, which on tmpfs costs 10 to 15% more time in the
# copy from memory: a different work, not the same one).
#
# Usage: scripts/ior-compare.sh IOR_BINARY IOBENCH_MPI_BINARY DIR
# Environment: NP (2), XFER (1m), BLOCK (256m), REPS (5), SOURCE (window).
#
# IOR_BINARY is an IOR you already have, built against the same MPI as
# iobench (your site's module, `module load ior`, or your own build); this
# project carries no recipe for building it. iobench's MPI build:
# go build -tags mpi -o bin/iobench-mpi .
set -euo pipefail
. "$(dirname "$0")/ior-lib.sh"
[ -x "${1:-}" ] || { echo "usage: $0 IOR_BINARY IOBENCH_MPI_BINARY DIR: IOR_BINARY must be the path of an IOR you have (${1:-none given} is not executable)" >&2; exit 2; }

ior=${1:?usage: $0 IOR_BINARY IOBENCH_MPI_BINARY DIR}
iob=${2:?usage: $0 IOR_BINARY IOBENCH_MPI_BINARY DIR}
dir=${3:?usage: $0 IOR_BINARY IOBENCH_MPI_BINARY DIR}
np=${NP:-2}
xfer=${XFER:-1m}
block=${BLOCK:-256m}
reps=${REPS:-5}
source=${SOURCE:-window}

mpi_launch "$np"
# iobench spells sizes as IOR does (1m = 1 MiB).
iosize=${xfer^^}iB
iobytes=${block^^}iB

# ior_run FLAGS... prints IOR's write bandwidth, MiB/s.
ior_run() {
	"${launch[@]}" "$ior" -a MPIIO -t "$xfer" -b "$block" -w -e -i 1 -o "$dir/ior-test" "$@" |
		ior_write_mibs
}

# iob_run FLAGS... prints iobench's aggregate write bandwidth, MiB/s.
iob_run() {
	"${launch[@]}" "$iob" sweep --api mpiio --dir "$dir" --sizes "$iosize" --size "$iobytes" --fsync \
		--source "$source" --repeat 1 --warmup=false --profile generic --no-progress --format json "$@" 2>/dev/null |
		python3 -c 'import json,sys; print("%.1f" % json.load(sys.stdin)["results"][0]["mib_per_s"])'
}

printf '| layout | IOR flags | iobench flags | IOR MiB/s median (runs) | iobench MiB/s median (runs) | ratio of medians | median pair ratio [min, max] |\n|---|---|---|---|---|---:|---:|\n'
for layout in "file per process, independent|-F|" \
	"file per process, collective|-F -c|--collective" \
	"shared file, independent||--shared-file" \
	"shared file, collective|-c|--shared-file --collective"; do
	IFS='|' read -r name iflags bflags <<<"$layout"
	iors=() iobs=()
	for _ in $(seq "$reps"); do
		# shellcheck disable=SC2086 # the flags are words
		iors+=("$(ior_run $iflags)")
		# shellcheck disable=SC2086
		iobs+=("$(iob_run $bflags)")
	done
	compare_runs
	printf '| %s | `%s` | `%s` | %s (%s) | %s (%s) | %s | %.2f [%.2f, %.2f] |\n' "$name" "${iflags:--}" "${bflags:--}" \
		"$mi" "${iors[*]}" "$mb" "${iobs[*]}" "$ratio" "$pair" "$pair_min" "$pair_max"
done
