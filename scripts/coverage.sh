#!/usr/bin/env bash
# Statement coverage of every package, counting the end-to-end tests: the
# command's tests (internal/cli) run the iobench binary as a subprocess, and with
# IOBENCH_COVERDIR set TestMain builds it with -cover -coverpkg=./... and
# each run writes its counters there (GOCOVERDIR). Prints the per-package
# and total figures with the subprocess runs counted, and the total
# without them. As root the root-only tests (tmpfs mounts, faults,
# --drop-caches) run too; as a normal user they skip.
#
#   bash scripts/coverage.sh            # the figures
#   bash scripts/coverage.sh -o c.out   # also keep the merged profile,
#                                       # for go tool cover -html=c.out
set -euo pipefail
cd "$(dirname "$0")/.."

profile=
while [ $# -gt 0 ]; do
  case $1 in
    -o) profile=${2:?-o needs a file name}; shift 2 ;;
    *) echo "usage: $0 [-o profile]" >&2; exit 2 ;;
  esac
done
case $profile in
  "" | /*) ;;
  *) profile=$PWD/$profile ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/iobench-coverage-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/tests" "$work/binary" "$work/merged"

echo "== go test -cover -coverpkg=./... ./... (the binary built with -cover)"
IOBENCH_COVERDIR="$work/binary" go test -count=1 -cover -coverpkg=./... ./... \
  -args -test.gocoverdir="$work/tests"
if [ -z "$(ls -A "$work/binary")" ]; then
  echo "coverage.sh: the iobench runs wrote no coverage data to $work/binary" >&2
  exit 1
fi
go tool covdata merge -i="$work/tests,$work/binary" -o "$work/merged"

go tool covdata textfmt -i="$work/tests" -o "$work/tests.out"
go tool covdata textfmt -i="$work/merged" -o "$work/merged.out"

# Statements per package, from the profiles' lines "file:range statements
# count" (go tool covdata percent runs together the lines of a package
# without statements).
echo
printf '%-50s %12s %12s\n' package in-process +subprocess
awk '
  FNR == 1 { which = FILENAME ~ /merged[.]out$/; next }
  {
    pkg = $1; sub(/\/[^\/]*:.*$/, "", pkg)
    all[which, pkg] += $(NF-1); pkgs[pkg] = 1
    if ($NF > 0) hit[which, pkg] += $(NF-1)
  }
  END {
    for (p in pkgs)
      if (all[0, p] > 0 && all[1, p] > 0)
        printf "%-50s %11.1f%% %11.1f%%\n", p, 100 * hit[0, p] / all[0, p], 100 * hit[1, p] / all[1, p]
  }' "$work/tests.out" "$work/merged.out" | sort

total() { go tool cover -func="$1" | awk '$1 == "total:" { print $NF }'; }
echo
echo "total, subprocess runs counted:  $(total "$work/merged.out")"
echo "total, in-process tests only:    $(total "$work/tests.out")"
if [ -n "$profile" ]; then
  cp "$work/merged.out" "$profile"
  echo "merged profile: $profile"
fi
