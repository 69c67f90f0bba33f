#!/bin/sh
# knee-repeat.sh: run N default sweeps in a row and print, per sweep, the
# knee, its interval, whether it is established, the rounds, the cost of
# the adaptive rounds as a multiple of the first round, the size the
# verdict recommends (the knee, or the smallest size measured not worse
# than the plateau when the knee is not established: "safe") and the
# verdict on libgfortran's two buffers and C stdio's ("keep", or "set" and
# the bytes). A last line says whether the runs agree: every recommended
# size within one size step of the others, and the same runtime verdicts
# (a set value, too, within one step). The repeatability target: they
# agree N of N; cost at most 3x one round. It runs $IOBENCH, else the
# iobench on PATH, else one it builds for the run.
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
row='%-4s %-9s %-20s %-6s %-6s %-7s %-12s %-14s %-12s %-12s %s\n'
printf "$row" run "knee (B)" "interval (B)" estab rounds cost/r1 stop "recommended" "gf unform" "gf form" stdio
i=1
while [ "$i" -le "$n" ]; do
	"$bin" sweep --dir "$dir" --no-progress --format json -o "$out/$i.json" "$@" 2>"$out/$i.log" ||
		{ cat "$out/$i.log" >&2; exit 1; }
	# verdict of one default: keep, or set=BYTES; "-" when not judged
	jq -r --arg i "$i" '
	    def act($rt; $case): ([.verdict.defaults[]? | select(.runtime == $rt and .case == $case)
	        | if .set > 0 then "set=\(.set)" else "keep" end] | first // "-");
	    [$i,
	    (.knee.write_size // 0 | tostring),
	    "[\(.knee.ci_low_write_size // 0),\(.knee.ci_high_write_size // 0)]",
	    (.knee.established | tostring),
	    (.adaptive.rounds // .config.repeat | tostring),
	    (if .adaptive then (.adaptive.spent_seconds / .adaptive.first_round_seconds * 100 | round / 100 | tostring) + "x" else "-" end),
	    (.adaptive.stop // "-"),
	    (if .verdict.writes then "\(.verdict.writes.recommended_write_size)" +
	        (if .verdict.writes.recommended_from == "safe_size" then "(safe)" else "" end) else "none" end),
	    act("libgfortran"; "unformatted"), act("libgfortran"; "formatted"), act("stdio"; "")] | @tsv' "$out/$i.json" >>"$out/rows.tsv"
	tail -n 1 "$out/rows.tsv" | awk -F'\t' -v f="$row" '{printf f,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11}'
	i=$((i + 1))
done
# Agreement: sizes (the recommended one, and each set value) within a
# factor 2 of one another; keep and set never mixed in a column.
awk -F'\t' -v n="$n" '
	function num(s) { sub(/^set=/, "", s); sub(/\(safe\)$/, "", s); return s + 0 }
	function kind(s) { return s ~ /^set=/ ? "set" : s }
	{
		for (c = 8; c <= 11; c++) {
			v = (c == 8) ? "size" : kind($c)
			if (NR == 1) want[c] = v
			if (v != want[c]) bad[c] = 1
			x = num($c)
			if (v == "size" || v == "set") {
				if (!(c in lo) || x < lo[c]) lo[c] = x
				if (!(c in hi) || x > hi[c]) hi[c] = x
			}
		}
		if ($8 == "none") none = 1
	}
	END {
		split("recommended size,libgfortran unformatted,libgfortran formatted,C stdio", name, ",")
		ok = !none
		for (c = 8; c <= 11; c++) {
			if (bad[c] || (c in hi && hi[c] > 2 * lo[c])) { ok = 0; why = why " " name[c - 7] ";" }
		}
		agree = ok ? n : 0
		printf "agree: %s: %d of %d (recommended size within one step, same libgfortran and stdio verdicts)%s\n",
			ok ? "yes" : "no", agree, n, ok ? "" : "; differ:" why
	}' "$out/rows.tsv"
