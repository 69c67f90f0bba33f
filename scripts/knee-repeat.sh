#!/bin/sh
# knee-repeat.sh: run N default sweeps in a row and print, per sweep, the
# knee, its interval, whether it is established, the rounds and the cost of
# the adaptive rounds as a multiple of the first round. The repeatability
# target: no two established knees more than one size step apart; cost at
# most 3x one round. It runs $IOBENCH, else the iobench on PATH, else one
# it builds for the run.
#
#   scripts/knee-repeat.sh DIR [N [extra sweep flags...]]
#   scripts/knee-repeat.sh /data 5 --size 256MiB
set -eu
dir=${1:?usage: knee-repeat.sh DIR [N [sweep flags...]]}
n=${2:-5}
shift; [ $# -gt 0 ] && shift
command -v jq >/dev/null || { echo "knee-repeat.sh: needs jq (apt-get install jq)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=${IOBENCH:-$(command -v iobench || echo "$out/iobench")}
[ -x "$bin" ] || go build -o "$bin" "$(dirname "$0")/.."
printf '%-4s %-10s %-22s %-12s %-7s %-9s %s\n' run "knee (B)" "interval (B)" established rounds "cost/r1" stop
i=1
while [ "$i" -le "$n" ]; do
	"$bin" sweep --dir "$dir" --no-progress --format json -o "$out/$i.json" "$@" 2>"$out/$i.log" ||
		{ cat "$out/$i.log" >&2; exit 1; }
	jq -r --arg i "$i" '[$i,
	    (.knee.write_size // 0 | tostring),
	    "[\(.knee.ci_low_write_size // 0), \(.knee.ci_high_write_size // 0)]",
	    (.knee.established | tostring),
	    (.adaptive.rounds // .config.repeat | tostring),
	    (if .adaptive then (.adaptive.spent_seconds / .adaptive.first_round_seconds * 100 | round / 100 | tostring) + "x" else "-" end),
	    (.adaptive.stop // "-")] | @tsv' "$out/$i.json" |
	    awk -F'\t' '{printf "%-4s %-10s %-22s %-12s %-7s %-9s %s\n",$1,$2,$3,$4,$5,$6,$7}'
	i=$((i + 1))
done
