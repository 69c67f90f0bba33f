#!/bin/sh
# app-truth.sh: hold app's estimates against the program itself. It builds
# the example programs in examples/ (a C stdio small-record writer, a
# Fortran writer of small records through a small buffer, a C writer that
# fsyncs, an MPI-IO writer where mpicc and mpirun are present), runs
# `iobench app --` and `iobench tune --` on each in DIR, and prints per
# program the advised setting, app's saving on the write(2) curve ("curve
# s"), its estimate (through the runtime's own writer where app priced it
# so, as tune reports it: "est. s"), the measured saving with the measured
# ratio and its interval, and estimate / measured.
# Targets (issue 36): tune establishes the C program's saving on ext4 and
# tmpfs; estimate / measured within 0.75..1.33 wherever a saving is
# established; app never advises a change tune measures as a loss.
#
#   scripts/app-truth.sh DIR [MiB]        # default 256 MiB per program
#   TUNE_FLAGS="--time-budget 5m" PROGS=stdio-records scripts/app-truth.sh /dev/shm
set -eu
dir=${1:?usage: app-truth.sh DIR [MiB]}
mib=${2:-256}
here=$(cd "$(dirname "$0")/.." && pwd)
command -v jq >/dev/null || { echo "app-truth.sh: needs jq (apt-get install jq)" >&2; exit 1; }
work=$(mktemp -d "$dir/app-truth.XXXXXX")
trap 'rm -rf "$work"' EXIT
bin=${IOBENCH:-$work/iobench}
[ -x "$bin" ] || (cd "$here" && go build -o "$bin" .)
cc -O2 -o "$work/stdio-records" "$here/examples/stdio-records.c"
cc -O2 -o "$work/fsync-writer" "$here/examples/fsync-writer.c"
progs="stdio-records fsync-writer"
if command -v gfortran >/dev/null; then
	gfortran -O2 -o "$work/fortran-records" "$here/examples/fortran-records.f90"
	progs="$progs fortran-records"
fi
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
	mpicc -O2 -o "$work/mpiio-records" "$here/examples/mpiio-records.c"
	progs="$progs mpiio-records"
fi
progs=${PROGS:-$progs} # PROGS="stdio-records fortran-records": only these
printf '%-16s %-48s %9s %9s %9s %7s %15s %8s %s\n' program "advised setting" "curve s" "est. s" "meas. s" ratio "ratio interval" "est/meas" verdict
for p in $progs; do
	run="$work/$p.d"
	mkdir "$run"
	set -- "$work/$p" "$mib"
	envs=""
	case $p in
	fortran-records) envs="GFORTRAN_UNFORMATTED_BUFFER_SIZE=8192" ;; # a small buffer: ~4 KiB calls
	fsync-writer) set -- "$work/$p" $((mib / 4)) ;;
	mpiio-records) set -- mpirun --allow-run-as-root --oversubscribe -np 2 "$work/$p" "$mib" ;;
	esac
	(cd "$run" && env $envs "$bin" app --format json -o "$work/$p.app.json" -- "$@" >/dev/null 2>"$work/$p.app.log") ||
		{ cat "$work/$p.app.log" >&2; exit 1; }
	# tune starts where app did: without app's outputs, which every run
	# would otherwise truncate inside its timing
	find "$run" -mindepth 1 -delete
	(cd "$run" && env $envs "$bin" tune --format json -o "$work/$p.tune.json" ${TUNE_FLAGS:-} -- "$@" >/dev/null 2>"$work/$p.tune.log") ||
		{ cat "$work/$p.tune.log" >&2; exit 1; }
	jq -r --arg p "$p" --slurpfile app "$work/$p.app.json" '
	    (.arms[0].median_seconds) as $base |
	    ([.arms[] | select(.estimate != null)][0] // [.arms[1:][] | select(.runs > 0)][0] // {name: "-", runs: 0}) as $a |
	    ($app[0].estimate.saving_seconds // 0) as $curve |
	    ($a.estimate.saving_seconds // $app[0].program.runtime_price.saving_seconds // $curve) as $est |
	    (if $a.runs > 0 then $base - $a.median_seconds else 0 end) as $meas |
	    [$p, $a.name,
	     ($curve * 1000 | round / 1000 | tostring),
	     ($est * 1000 | round / 1000 | tostring),
	     ($meas * 1000 | round / 1000 | tostring),
	     (if $a.screen then "x" + ($a.screen.ratio * 1000 | round / 1000 | tostring) else "-" end),
	     (if $a.screen and $a.screen.bounded then "\($a.screen.ratio_low * 100 | round / 100)-\($a.screen.ratio_high * 100 | round / 100)" else "-" end),
	     (if $meas > 0 and $est > 0 then ($est / $meas * 100 | round / 100 | tostring) else "-" end),
	     (if (.arms | length) == 1 then "no candidate: told why (cannot_set)"
	      elif $a.screen and $a.screen.decided then $a.screen.direction else "not established" end) + (if .winner then "; winner " + .winner else "" end)]
	    | @tsv' "$work/$p.tune.json" |
		awk -F'\t' '{ printf "%-16s %-48s %9s %9s %9s %7s %15s %8s %s\n", $1, substr($2, 1, 48), $3, $4, $5, $6, $7, $8, $9 }'
done
