#!/usr/bin/env bash
# Runs iobench and a plain C write(2) loop side by side, interleaved, per
# write size, and prints each one's median MiB/s and the ratio.
# Usage: scripts/compare-c.sh [DIR] [TOTAL] [REPS]
#   DIR    where to write (default /dev/shm: tmpfs, the harshest case, since
#          any overhead of the tool shows there)
#   TOTAL  bytes per run (default 268435456 = 256 MiB)
#   REPS   interleaved pairs per size (default 5)
set -euo pipefail
dir=${1:-/dev/shm}
total=${2:-268435456}
reps=${3:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O2 -o "$work/writeloop" "$top/scripts/writeloop.c"
(cd "$top" && go build -o "$work/iobench" .)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

iobench_once() {
	"$work/iobench" sweep --dir "$dir" --size "$total" --sizes "$1" --sync none \
		--format csv --no-progress 2>/dev/null | awk -F, 'NR==2 {print $10}'
}

printf 'dir %s, %d bytes per run, %d interleaved pairs per size\n' "$dir" "$total" "$reps"
printf '%12s %12s %12s %8s\n' "write_size" "C_MiB/s" "iobench_MiB/s" "ratio"
for bits in $(seq 10 26); do
	size=$((1 << bits))
	: >"$work/c"; : >"$work/g"
	for r in $(seq "$reps"); do
		if ((r % 2)); then
			"$work/writeloop" "$dir" "$total" "$size" >>"$work/c"
			iobench_once "$size" >>"$work/g"
		else
			iobench_once "$size" >>"$work/g"
			"$work/writeloop" "$dir" "$total" "$size" >>"$work/c"
		fi
	done
	c=$(median <"$work/c"); g=$(median <"$work/g")
	printf '%12d %12.1f %12.1f %8.3f\n' "$size" "$c" "$g" "$(awk -v g="$g" -v c="$c" 'BEGIN {print g / c}')"
done
