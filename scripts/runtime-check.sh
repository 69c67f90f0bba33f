#!/bin/sh
# Checks `iobench runtime gfortran --convert big-endian` against a
# separately written Fortran program doing the same writes
# (scripts/gfortran-writer-check.f90, compiled with -fconvert=big-endian).
#
#   scripts/runtime-check.sh DIR [MIB] [ROUNDS] [FSYNC] [BUFFERS]
#
# DIR: where the data files go (/dev/shm for tmpfs, /tmp for ext4 here);
# MIB: data per run (default 256); ROUNDS: interleaved rounds (default 7);
# FSYNC: 1 to fsync inside the timing, as the disk profiles do (default 0);
# BUFFERS: buffer sizes in bytes, comma-separated (default 131072,1048576).
#
# Each round runs one iobench round (--repeat 1, every case once) and the
# standalone program once per case, alternating which goes first, so both
# see the same drift of the machine; both flush the file system (syncfs)
# before each run, outside the timing. It prints, per layout and buffer, the median MiB/s of each, their
# ratio, and iobench's write(2) calls beside bytes / buffer; it fails when
# a ratio is outside 0.85-1.15 or a count differs.
set -eu
dir=${1:?usage: scripts/runtime-check.sh DIR [MIB] [ROUNDS] [FSYNC] [BUFFERS]}
mib=${2:-256}
rounds=${3:-7}
fsync=${4:-0}
buffers=${5:-131072,1048576}
iobench=${IOBENCH:-bin/iobench}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/interleave.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "$dir"/.runtime-check-$$-*.dat' EXIT INT TERM
gfortran -O2 -fconvert=big-endian -o "$tmp/check" "$here/gfortran-writer-check.f90"
elements=$((mib * 131072))
bytes=$((mib * 1048576))
fsync_flag=--fsync=false
[ "$fsync" = 1 ] && fsync_flag=--fsync

# A tiny write(2) sweep of the buffer sizes, so iobench needs no quick
# sweep of its own in each round.
"$iobench" sweep --dir "$dir" --size 16MiB --sizes "$buffers" --repeat 1 --no-progress \
	--format json -o "$tmp/sweep.json" 2>/dev/null

iobench_round() {
	"$iobench" runtime gfortran --dir "$dir" --size "${mib}MiB" --convert big-endian --buffers "$buffers" \
		--repeat 1 "$fsync_flag" --from "$tmp/sweep.json" --format csv 2>/dev/null |
		awk -F, 'NR > 1 { print "iobench", $2, $4, $7, $12 }' >>"$tmp/runs"
}

standalone_round() {
	for layout in array records; do
		rec=0
		[ "$layout" = records ] && rec=1024
		for b in $(echo "$buffers" | tr , ' '); do
			f="$dir/.runtime-check-$$-$r.dat"
			sync -f "$dir" # untimed, as iobench's --sync syncfs before each run
			m=$(GFORTRAN_UNFORMATTED_BUFFER_SIZE=$b "$tmp/check" "$f" "$elements" "$rec" "$fsync")
			rm -f "$f"
			echo "standalone $layout $b $m -" >>"$tmp/runs"
		done
	done
}

interleave_rounds "$rounds"

awk -v bytes="$bytes" -v rounds="$rounds" "$awk_median$awk_ratio"'
{ key = $2 " " $3; vals[$1 " " key] = vals[$1 " " key] " " $4; if ($1 == "iobench") { calls[key] = calls[key] " " $5; keys[key] = 1 } }
END {
	bad = 0
	printf "%-8s %9s %14s %14s %7s %12s %12s\n", "layout", "buffer", "iobench MiB/s", "standalone", "ratio", "calls", "bytes/buffer"
	for (key in keys) {
		split(key, k, " ")
		a = median("iobench " key); b = median("standalone " key)
		n = split(calls[key], c, " "); same = 1
		for (i = 1; i <= n; i++) if (c[i] != c[1]) same = 0
		want = int(bytes / k[2]) + (bytes % k[2] > 0)
		ratio = a / b
		flag = off_ratio(ratio)
		if (flag != "") bad = 1
		if (!same || c[1] != want) { flag = flag " !calls"; bad = 1 }
		printf "%-8s %9d %14.1f %14.1f %7.3f %12s %12d%s\n", k[1], k[2], a, b, ratio, c[1], want, flag
	}
	printf "medians of %d interleaved rounds of %d bytes each\n", rounds, bytes
	exit bad
}' "$tmp/runs"
