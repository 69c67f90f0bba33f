#!/usr/bin/env bash
# What a converting writer costs: native vs --convert big-endian sweeps at one
# write size, interleaved, on tmpfs (memory speed, the worst case for
# conversion overhead) and on a disk directory with --fsync.
# Usage: scripts/convert-overhead.sh [DISK_DIR] [SIZE] [REPS]
#   DISK_DIR  a directory on a disk file system (default: a temp dir under $HOME)
#   SIZE      bytes per run (default 512MiB); REPS pairs per case (default 5)
# Targets: big-endian >= 75% of native on tmpfs, >= 95% on disk with --fsync.
set -euo pipefail
disk=${1:-}
size=${2:-512MiB}
reps=${3:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
made=""
if [ -z "$disk" ]; then
	disk=$(mktemp -d "$HOME/.iobench-overhead.XXXXXX")
	made=$disk
fi
# Remove only what this script made; a DISK_DIR given is left alone.
trap 'rm -rf "$work" ${made:+"$made"}' EXIT
(cd "$top" && go build -o "$work/iobench" .)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

once() { # DIR CONVERT EXTRA...
	local dir=$1 conv=$2; shift 2
	"$work/iobench" sweep --dir "$dir" --size "$size" --sizes 1MiB --convert "$conv" \
		--profile generic --format csv --no-progress "$@" 2>/dev/null | awk -F, 'NR==2 {print $10}'
}

compare() { # LABEL DIR EXTRA...
	local label=$1 dir=$2; shift 2
	: >"$work/n"; : >"$work/b"
	for r in $(seq "$reps"); do
		if ((r % 2)); then
			once "$dir" native "$@" >>"$work/n"; once "$dir" big-endian "$@" >>"$work/b"
		else
			once "$dir" big-endian "$@" >>"$work/b"; once "$dir" native "$@" >>"$work/n"
		fi
	done
	local n b
	n=$(median <"$work/n"); b=$(median <"$work/b")
	printf '%-28s %12.1f %12.1f %8.3f\n' "$label" "$n" "$b" "$(awk -v b="$b" -v n="$n" 'BEGIN {print b / n}')"
}

printf '1 MiB writes, %s per run, %d interleaved pairs, median MiB/s\n' "$size" "$reps"
printf '%-28s %12s %12s %8s\n' "case" "native" "big-endian" "ratio"
compare "tmpfs (/dev/shm)" /dev/shm --sync none
compare "disk ($(stat -f -c %T "$disk")) --fsync" "$disk" --fsync
