#!/usr/bin/env bash
# convert-bench.sh runs the convert package's Pack benchmarks and prints, for
# each element width, stride and chunk size, the median throughput of a plain
# copy() of the same dst size and the ratio of each kind to it:
#   native = Pack without byte swap (a copy, or a gather for stride > 1)
#   swap   = Pack with byte swap (-fconvert=big-endian on a little-endian host)
#   naive  = byte-by-byte loop, the cost of a generic per-element converter
#
# Usage: scripts/convert-bench.sh [go test flags...]
#   e.g. scripts/convert-bench.sh -tags purego   # the portable Go loops only
# Environment: BENCHTIME (default 200ms), COUNT (default 3), OUT, a file to
# keep the raw `go test` output in for benchstat (default: a temp file), and
# IN, a saved `go test -bench` output to summarise instead of running anew.
set -euo pipefail

cd "$(dirname "$0")/.."
if [[ -n "${IN:-}" ]]; then
	out=$IN
else
	out=${OUT:-$(mktemp "${TMPDIR:-/tmp}/convert-bench.XXXXXX")}
	go test -run '^$' -bench '^BenchmarkPack$' -benchtime="${BENCHTIME:-200ms}" \
		-count="${COUNT:-3}" "$@" ./convert/ >"$out"
fi

awk '
# BenchmarkPack/width=4/stride=1/kind=swap/chunk=1MiB-2  N  ns/op  MB/s "MB/s"
/^BenchmarkPack\// {
	split($1, part, "/")
	sub(/-[0-9]+$/, "", part[5]) # the GOMAXPROCS suffix
	key = part[2] " " part[3] " " part[5]
	kind = substr(part[4], 6)
	if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
	v[key, kind] = v[key, kind] " " $5
}
# median of a space-separated list of numbers
function median(list,   n, a, i, j, x) {
	n = split(list, a, " ")
	if (n == 0) return 0
	for (i = 2; i <= n; i++) {
		x = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
		a[j + 1] = x
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	printf "%-6s %-7s %-6s %10s %7s %7s %7s\n", "width", "stride", "chunk", "copy MB/s", "native", "swap", "naive"
	for (i = 1; i <= nkeys; i++) {
		k = keys[i]
		c = median(v[k, "copy"])
		if (c == 0) continue
		split(k, f, " ")
		for (j = 1; j <= 3; j++) sub(/^[a-z]+=/, "", f[j])
		printf "%-6s %-7s %-6s %10.0f %7.2f %7.2f %7.3f\n", f[1], f[2], f[3], c,
			median(v[k, "native"]) / c, median(v[k, "swap"]) / c, median(v[k, "naive"]) / c
	}
}' "$out"
echo "raw output: $out"
