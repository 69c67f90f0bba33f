#!/bin/sh
# Checks `iobench runtime hdf5` against a separately written HDF5 program
# doing the same writes (scripts/hdf5-writer-check.c): one H5Dwrite of a
# contiguous dataset of doubles, native or big-endian, HDF5's defaults.
#
#   scripts/hdf5-check.sh DIR [MIB] [ROUNDS] [FSYNC]
#
# DIR: where the data files go (/dev/shm for tmpfs, /tmp for ext4 here);
# MIB: data per run (default 64); ROUNDS: interleaved rounds (default 7);
# FSYNC: 1 to fsync inside the timing, as the disk profiles do (default 0).
#
# Each round runs one iobench round of the two cases (--repeat 1) and the
# standalone program once per case, alternating which goes first, both
# flushing the file system (syncfs) before each run, outside the timing.
# It prints per byte order the median MiB/s of each and their ratio, and
# fails when a ratio is outside 0.85-1.15. It runs bin/iobench (or
# $IOBENCH); the program is built with libhdf5 from pkg-config.
set -eu
dir=${1:?usage: scripts/hdf5-check.sh DIR [MIB] [ROUNDS] [FSYNC]}
mib=${2:-64}
rounds=${3:-7}
fsync=${4:-0}
iobench=${IOBENCH:-bin/iobench}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/interleave.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "$dir"/.hdf5-check-$$-*.h5' EXIT INT TERM
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -O2 -o "$tmp/check" "$here/hdf5-writer-check.c" $(pkg-config --cflags --libs hdf5)
fsync_flag=--fsync=false
[ "$fsync" = 1 ] && fsync_flag=--fsync

# A tiny write(2) sweep, so iobench needs no quick sweep in each round.
"$iobench" sweep --dir "$dir" --size 16MiB --sizes 1MiB --repeat 1 --no-progress --format json -o "$tmp/sweep.json" 2>/dev/null

iobench_round() {
	"$iobench" runtime hdf5 --dir "$dir" --size "${mib}MiB" --storage contiguous --layouts array --repeat 1 "$fsync_flag" \
		--from "$tmp/sweep.json" --format csv 2>/dev/null |
		awk -F, 'NR > 1 && $13 == "true" { print "iobench", $9, $15 }' >>"$tmp/runs"
}

standalone_round() {
	for order in native big-endian; do
		big=0
		[ "$order" = big-endian ] && big=1
		f="$dir/.hdf5-check-$$-$r.h5"
		sync -f "$dir"
		echo "standalone $order $("$tmp/check" "$f" $((mib * 131072)) "$big" "$fsync")" >>"$tmp/runs"
		rm -f "$f"
	done
}

interleave_rounds "$rounds"

awk -v rounds="$rounds" -v mib="$mib" "$awk_median$awk_ratio"'
{ vals[$1 " " $2] = vals[$1 " " $2] " " $3; orders[$2] = 1 }
END {
	bad = 0
	printf "%-11s %14s %14s %7s\n", "file type", "iobench MiB/s", "standalone", "ratio"
	for (o in orders) {
		a = median("iobench " o); b = median("standalone " o)
		ratio = a / b
		flag = off_ratio(ratio)
		if (flag != "") bad = 1
		printf "%-11s %14.1f %14.1f %7.3f%s\n", o, a, b, ratio, flag
	}
	printf "medians of %d interleaved rounds of %d MiB each\n", rounds, mib
	exit bad
}' "$tmp/runs"
