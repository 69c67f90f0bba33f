#!/usr/bin/env bash
# runtime-ior-compare.sh runs IOR's MPIIO backend and `iobench runtime
# mpiio` on the same contiguous collective case, interleaved, and prints
# each aggregate write bandwidth and the ratio iobench / IOR, for a file
# per process and one shared file. Two ratios: of the medians, and the
# median of each iobench run over the IOR run just before it.
#
# The case: NP ranks, each writing BLOCK in MPI_File_write_at_all calls of
# XFER from a contiguous buffer, call k of rank r at (k*NP + r)*XFER in a
# shared file (IOR: -b XFER -s BLOCK/XFER segments), fsync inside the
# timing (IOR -e, iobench --fsync), through the MPI-IO component COMPONENT
# (OMPI_MCA_io, for both). iobench's figure is its default case: the
# component with no hint set, as IOR runs it. iobench writes from
# SOURCE: window (the default here) writes one call's data again and
# again, as IOR writes its one buffer; array writes each rank's whole
# data, as `iobench runtime mpiio` does by default. Both time the span
# from the first rank's open to the last rank's close. Give each rank a
# core: with more ranks than cores the scheduling of waiting ranks can set
# the figures (it did for OMPIO's shared file, 3 ranks on 2 cores).
#
# Usage: scripts/runtime-ior-compare.sh IOR_BINARY IOBENCH_MPI_BINARY DIR
# Environment: NP (3), XFER (1m), BLOCK (64m), REPS (5), COMPONENT (ompio),
# SOURCE (window).
#
# IOR_BINARY is an IOR you already have, built against the same MPI as
# iobench; this project carries no recipe for building it. iobench's MPI
# build: go build -tags mpi -o bin/iobench-mpi .
set -euo pipefail
. "$(dirname "$0")/ior-lib.sh"
usage="usage: $0 IOR_BINARY IOBENCH_MPI_BINARY DIR"
[ -x "${1:-}" ] || { echo "$usage: IOR_BINARY must be the path of an IOR you have (${1:-none given} is not executable)" >&2; exit 2; }
ior=$1
iob=${2:?$usage}
dir=${3:?$usage}
np=${NP:-3}
xfer=${XFER:-1m}
block=${BLOCK:-64m}
reps=${REPS:-5}
component=${COMPONENT:-ompio}
source=${SOURCE:-window}

cores=$(nproc)
[ "$np" -le "$cores" ] || echo "$0: warning: NP=$np ranks on $cores cores: the scheduling of waiting ranks, not the file system, may set the figures" >&2

mpi_launch "$np"
bytes() { numfmt --from=iec "${1^^}"; }
segments=$(($(bytes "$block") / $(bytes "$xfer")))

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# One write(2) sweep, so that each iobench run needs no quick sweep.
"$iob" sweep --dir "$dir" --size 16MiB --sizes 1MiB --repeat 1 --no-progress --format json -o "$tmp/sweep.json" 2>/dev/null

# ior_run FLAGS... prints IOR's write bandwidth, MiB/s.
ior_run() {
	OMPI_MCA_io=$component "${launch[@]}" -x OMPI_MCA_io "$ior" -a MPIIO -c -t "$xfer" -b "$xfer" -s "$segments" -w -e -i 1 \
		-o "$dir/ior-test" "$@" | ior_write_mibs
}

# iob_run LAYOUT prints the MiB/s of iobench's default case.
iob_run() {
	"${launch[@]}" "$iob" runtime mpiio --dir "$dir" --size "${block^^}iB" --call-size "${xfer^^}iB" --components "$component" \
		--source "$source" --layouts "$1" --modes collective --memory contiguous --repeat 1 --fsync --from "$tmp/sweep.json" --profile generic \
		--no-progress --format json 2>/dev/null |
		python3 -c 'import json,sys; print("%.1f" % [c for c in json.load(sys.stdin)["summary"]["cases"] if c["default"]][0]["mib_per_s"])'
}

printf '| layout | IOR flags | IOR MiB/s median (runs) | iobench MiB/s median (runs) | ratio of medians | median pair ratio [min, max] |\n|---|---|---|---|---:|---:|\n'
for layout in "file per process|-F|per-rank" "shared file||shared"; do
	IFS='|' read -r name iflags blayout <<<"$layout"
	iors=() iobs=()
	for _ in $(seq "$reps"); do
		# shellcheck disable=SC2086 # the flags are words
		iors+=("$(ior_run $iflags)")
		iobs+=("$(iob_run "$blayout")")
	done
	compare_runs
	printf '| %s | `-c %s` | %s (%s) | %s (%s) | %s | %.2f [%.2f, %.2f] |\n' "$name" "${iflags:--}" \
		"$mi" "${iors[*]}" "$mb" "${iobs[*]}" "$ratio" "$pair" "$pair_min" "$pair_max"
done
echo "$np ranks x $block in calls of $xfer, collective, $component, iobench's source $source, fsync inside the timing; $reps interleaved runs each"
