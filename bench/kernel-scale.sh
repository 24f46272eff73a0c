#!/usr/bin/env bash
# The map and reduce steps over a large part of Linux 6.1: what docs/scale.md extrapolates a
# whole kernel from. Uses the tree scripts/real-code prepares (defconfig, `make prepare`, built
# with clang-19 so the compile database has clang's flags), builds kernel/, mm/, lib/ and fs/
# to record their commands, then runs one map step per TU (`check --summaries`, N at a time,
# each timed on its own: wall time and peak memory) and the report over all the summaries.
#
#   bench/kernel-scale.sh [--work DIR] [-j N] [--out DIR] [--lockwright BIN]
#
# Writes OUT/kernel-scale.csv (one row per TU: seconds, peak KiB, summary bytes, lines read)
# and OUT/kernel-scale.txt (median, p95, totals, the report's time and memory).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=/work/realcode
out=$root/bench/results/latest
jobs=2
lockwright=${LOCKWRIGHT_BUILD_DIR:-$root/build}/bin/lockwright
while [[ $# -gt 0 ]]; do
  case $1 in
    --work) work=$2; shift ;;
    -j) jobs=$2; shift ;;
    --out) out=$2; shift ;;
    --lockwright) lockwright=$2; shift ;;
    *) echo "kernel-scale.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
linux=$work/linux-source-6.1
[[ -f $linux/.config ]] || { echo "kernel-scale.sh: no configured tree in $linux: run scripts/real-code $work first" >&2; exit 2; }
mkdir -p "$out"
# The database, the summaries and the timings stay under WORK (the summaries are large).
scratch=$work/kernel-scale
rm -rf "$scratch" && mkdir -p "$scratch"

# The commands of every file defconfig builds in these directories (make -k: a file that does
# not build with clang is left out of the database, not fatal).
(cd "$linux" && make -s CC=clang-19 -j"$jobs" -k kernel/ mm/ lib/ fs/ >/dev/null 2>&1 || true
 python3 scripts/clang-tools/gen_compile_commands.py -d . -o "$scratch/compile_commands.json")
python3 - "$scratch/compile_commands.json" "$scratch/sources.txt" <<'EOF'
import json, re, sys
files = sorted({e["file"] for e in json.load(open(sys.argv[1]))
                if re.search(r"/linux-source-6\.1/(kernel|mm|lib|fs)/", e["file"])})
open(sys.argv[2], "w").write("\n".join(files) + "\n")
EOF
echo "kernel-scale: $(wc -l < "$scratch/sources.txt") TUs of kernel/, mm/, lib/, fs/"

# One map step per TU, timed alone; N of them at a time.
mkdir -p "$scratch/summaries"
export LW="$lockwright" DB="$scratch" SUMS="$scratch/summaries"
xargs -P "$jobs" -I{} sh -c '/usr/bin/time -f "%e %M" -o "$DB/time.$(echo {} | tr / _)" \
  "$LW" check --quiet --no-cache --checks="-*,layout-*" -p "$DB" --summaries "$SUMS" {} >/dev/null 2>&1 || true' \
  < "$scratch/sources.txt"
/usr/bin/time -f "%e %M" -o "$scratch/report.time" "$lockwright" report --quiet "$SUMS" > "$scratch/report.txt" 2>/dev/null || true
# How the reduce step grows: the report over the first quarter and half of the summaries.
ls "$SUMS"/*.lwsum.json > "$scratch/all-summaries.txt"
total=$(wc -l < "$scratch/all-summaries.txt")
for part in 4 2; do
  head -n $((total / part)) "$scratch/all-summaries.txt" | xargs /usr/bin/time -f "%e %M" -o "$scratch/report.$part.time" \
    "$lockwright" report --quiet > /dev/null 2>&1 || true
done
python3 - "$scratch" "$out" <<'EOF'
import glob, json, os, statistics, sys
scratch, out = sys.argv[1], sys.argv[2]
rows = []
for src in open(os.path.join(scratch, "sources.txt")).read().split():
    name = src.replace("/", "_")
    t = os.path.join(scratch, "time." + name)
    if not os.path.exists(t):
        continue
    parts = open(t).read().split()
    secs, kib = float(parts[-2]), int(parts[-1])
    summary = os.path.join(scratch, "summaries", name.lstrip("_") + ".lwsum.json")
    size = os.path.getsize(summary) if os.path.exists(summary) else 0
    lines = 0
    if size:
        for path, _ in json.load(open(summary)).get("inputs", []):
            try:
                lines += sum(1 for _ in open(path, errors="replace"))
            except OSError:
                pass
    rows.append((src, secs, kib, size, lines))
with open(os.path.join(out, "kernel-scale.csv"), "w") as f:
    f.write("source,seconds,peak_kib,summary_bytes,lines_read\n")
    for r in rows:
        f.write("%s,%.2f,%d,%d,%d\n" % r)
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
secs = [r[1] for r in rows]; kib = [r[2] for r in rows]; size = [r[3] for r in rows if r[3]]
rep = open(os.path.join(scratch, "report.time")).read().split()
text = [
    "TUs: %d (summaries written: %d)" % (len(rows), len(size)),
    "map seconds per TU: median %.2f, p95 %.2f, max %.2f, total %.0f" % (statistics.median(secs), pct(secs, 95), max(secs), sum(secs)),
    "map peak memory per TU (MiB): median %.0f, p95 %.0f, max %.0f" % (statistics.median(kib) / 1024, pct(kib, 95) / 1024, max(kib) / 1024),
    "summary size (KiB): median %.0f, p95 %.0f, total %.1f MiB" % (statistics.median(size) / 1024, pct(size, 95) / 1024, sum(size) / 2**20),
    "lines read per TU (headers included): median %d" % statistics.median([r[4] for r in rows]),
    "report over all summaries: %s s, peak %.0f MiB" % (rep[-2], int(rep[-1]) / 1024),
]
for part in (4, 2):
    p = open(os.path.join(scratch, "report.%d.time" % part)).read().split()
    text.append("report over 1/%d of the summaries: %s s, peak %.0f MiB" % (part, p[-2], int(p[-1]) / 1024))
open(os.path.join(out, "kernel-scale.txt"), "w").write("\n".join(text) + "\n")
print("\n".join(text))
EOF
