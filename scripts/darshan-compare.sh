#!/usr/bin/env bash
# darshan-compare.sh checks iobench app's per-module totals against
# darshan-parser's, log by log: records, distinct files, write calls,
# bytes written and the ten write-size bins of POSIX and MPI-IO (writes
# and bytes only for STDIO), summed from its per-record lines; and the
# same against its own totals (--total: total_*, --file: the file count).
# Prints one line per log and module, and a last line with the count of
# mismatches; exits 1 if there is any.
#
# Usage: scripts/darshan-compare.sh DARSHAN_PARSER IOBENCH LOG...
# DARSHAN_PARSER is a darshan-parser you already have (your site's module,
# or your own build of darshan-util); this project carries no recipe for
# building it. IOBENCH is iobench's binary (go build -o bin/iobench .).
# Needs python3.
set -euo pipefail
parser=${1:?usage: $0 DARSHAN_PARSER IOBENCH LOG...}
iob=${2:?usage: $0 DARSHAN_PARSER IOBENCH LOG...}
shift 2
[ -x "$parser" ] || { echo "$0: $parser is not an executable darshan-parser" >&2; exit 2; }
[ -x "$iob" ] || { echo "$0: $iob is not an executable iobench" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: $0 DARSHAN_PARSER IOBENCH LOG..." >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/darshan-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
bad=0
for log in "$@"; do
  "$parser" --show-incomplete "$log" > "$work/parser.txt"
  "$parser" --show-incomplete --total --file "$log" > "$work/total.txt"
  "$iob" app "$log" --format json > "$work/app.json"
  python3 - "$log" "$work/parser.txt" "$work/total.txt" "$work/app.json" <<'PY' || bad=$((bad + 1))
import json, re, sys
log, parser_out, total_out, app_out = sys.argv[1:]
bins = ["0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M", "10M_100M", "100M_1G", "1G_PLUS"]
writes = {"POSIX": ["POSIX_WRITES"], "MPI-IO": ["MPIIO_INDEP_WRITES", "MPIIO_COLL_WRITES", "MPIIO_SPLIT_WRITES", "MPIIO_NB_WRITES"], "STDIO": ["STDIO_WRITES"]}
nbytes = {"POSIX": "POSIX_BYTES_WRITTEN", "MPI-IO": "MPIIO_BYTES_WRITTEN", "STDIO": "STDIO_BYTES_WRITTEN"}
hist = {"POSIX": "POSIX_SIZE_WRITE_", "MPI-IO": "MPIIO_SIZE_WRITE_AGG_"}
want, records = {}, {}
for line in open(parser_out, errors="replace"):
    f = line.rstrip("\n").split("\t")
    if len(f) < 5 or f[0] not in writes:
        continue
    mod, rank, rid, counter, value = f[0], f[1], f[2], f[3], f[4]
    t = want.setdefault(mod, {"records": set(), "files": set(), "writes": 0, "bytes_written": 0, "bins": dict.fromkeys(bins, 0)})
    t["records"].add((rank, rid))
    t["files"].add(rid)
    v = int(float(value)) if counter in writes[mod] or counter == nbytes[mod] or counter.startswith(hist.get(mod, "-")) else 0
    v = max(v, 0)
    if counter in writes[mod]:
        t["writes"] += v
    elif counter == nbytes[mod]:
        t["bytes_written"] += v
    elif mod in hist and counter.startswith(hist[mod]) and counter[len(hist[mod]):] in bins:
        t["bins"][counter[len(hist[mod]):]] += v
# darshan-parser's own totals: total_COUNTER lines, then a "# total: FILES ..." line per module.
text = open(total_out, errors="replace").read()
totals = {k: int(float(v)) for k, v in re.findall(r"^total_(\w+): (\S+)$", text, re.M)}
prefix = {"POSIX": "POSIX_", "MPI-IO": "MPIIO_", "STDIO": "STDIO_"}
own = {}
for mod, p in prefix.items():
    at = text.find("total_" + p)
    if at < 0:
        continue
    files = re.search(r"^# total: (\d+) ", text[at:], re.M)
    own[mod] = {"writes": sum(max(totals.get(c, 0), 0) for c in writes[mod]),
                "bytes_written": totals.get(nbytes[mod], 0), "files": int(files.group(1)) if files else None,
                "bins": [totals.get(hist[mod] + b, 0) for b in bins] if mod in hist else None}
got = {m["module"]: m for m in json.load(open(app_out))["inputs"][0]["modules"]}
ok = True
for mod in sorted(set(own) | set(got)):
    o, g = own.get(mod), got.get(mod)
    if o is None or g is None:
        print(f"MISMATCH {log} {mod} (--total): in {'iobench' if o is None else 'darshan-parser'} only"); ok = False; continue
    mine = {"writes": g["writes"], "bytes_written": g["bytes_written"], "files": g["files"],
            "bins": [g["write_histogram"][b] for b in bins] if mod in hist else None}
    if mine != o:
        print(f"MISMATCH {log.rsplit('/', 1)[-1]} {mod} (--total): iobench {mine}; darshan-parser {o}"); ok = False
for mod in sorted(set(want) | set(got)):
    w, g = want.get(mod), got.get(mod)
    if w is None or g is None:
        print(f"MISMATCH {log} {mod}: in {'iobench' if w is None else 'darshan-parser'} only"); ok = False; continue
    wt = (len(w["records"]), len(w["files"]), w["writes"], w["bytes_written"], [w["bins"][b] for b in bins] if mod in hist else None)
    gt = (g["records"], g["files"], g["writes"], g["bytes_written"], [g["write_histogram"][b] for b in bins] if mod in hist else None)
    status = "ok" if wt == gt else "MISMATCH"
    ok = ok and wt == gt
    print(f"{status} {log.rsplit('/', 1)[-1]} {mod}: records {gt[0]} files {gt[1]} writes {gt[2]} bytes {gt[3]}" + (f" bins {' '.join(map(str, gt[4]))}" if gt[4] else "") + ("" if wt == gt else f"; darshan-parser {wt}"))
sys.exit(0 if ok else 1)
PY
done
echo "$bad of $# logs with a mismatch"
[ "$bad" = 0 ]
