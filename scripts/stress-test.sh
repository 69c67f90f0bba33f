#!/usr/bin/env bash
# scripts/test.sh on a busy machine: one spinning process per core and a
# writer streaming 1 GiB files with fsync to the disk the tests write to,
# for as long as the tests run. Arguments go to scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=$(mktemp -d "${TMPDIR:-/tmp}/iobench-stress.XXXXXX")
load=()
stop_load() {
  [ ${#load[@]} -gt 0 ] && kill "${load[@]}" 2>/dev/null
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap stop_load EXIT

for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  load+=($!)
done
(while :; do
  dd if=/dev/zero of="$scratch/stream" bs=1M count=1024 conv=fsync status=none
done) &
load+=($!)

echo "== load: $(nproc) spinners, a 1 GiB fsync'd writer in $scratch"
start=$(date +%s)
bash scripts/test.sh "$@"
echo "== stress test passed in $(( $(date +%s) - start )) s"
