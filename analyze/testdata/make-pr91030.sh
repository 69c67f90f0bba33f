#!/bin/sh
# Regenerates pr91030-small.txt and pr91030-3runs.txt: the reference
# program of GCC PR libfortran/91030, built with N = 2,000,000 doubles
# (16 MB) so that a run takes well under a second, run in a scratch
# directory (it writes and removes out.dat there). Then
#   go test ./analyze/ -run TestFixtures -update
# rewrites the JSON and CSV fixtures from the new text.
#
# Usage, from the repository root: sh analyze/testdata/make-pr91030.sh
set -eu
src=${REFERENCE:-testdata/pr91030-bench.c}
out=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^#define N 250000000$/#define N 2000000/' "$src" >"$tmp/bench.c"
grep -q '^#define N 2000000$' "$tmp/bench.c"
gcc -O2 -o "$tmp/bench" "$tmp/bench.c"
mkdir "$tmp/run"
cd "$tmp/run"
"$tmp/bench" >"$out/pr91030-small.txt"
for i in 1 2 3; do "$tmp/bench"; done >"$out/pr91030-3runs.txt"
