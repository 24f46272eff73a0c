#!/usr/bin/env bash
# The checker's cost on real code: fetches Concurrency Kit and liburcu with
# apt-get source (a deb-src entry is needed), builds each under bear for a
# compilation database, then runs bench/checker.py on both.
#
#   bench/checker.sh [--work DIR] [--runs 5] [--out DIR] [--lockwright BIN]
#   bench/checker.sh --quick --out DIR   the bundled test database, one run (the test suite)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${LOCKWRIGHT_BENCH_WORK:-$HOME/.cache/lockwright-bench}
out=$root/bench/results/latest
runs=5
quick=0
lockwright=${LOCKWRIGHT_BUILD_DIR:-$root/build}/bin/lockwright
while [[ $# -gt 0 ]]; do
  case $1 in
    --work) work=$2; shift ;;
    --runs) runs=$2; shift ;;
    --out) out=$2; shift ;;
    --lockwright) lockwright=$2; shift ;;
    --quick) quick=1 ;;
    *) echo "checker.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
py=/usr/bin/python3
[[ -x $py ]] || py=python3

if [[ $quick -eq 1 ]]; then
  # Two TUs in two directories with same-named headers: enough to run every mode.
  db=$out/bundled-db
  rm -rf "$db" && mkdir -p "$db"
  cp -r "$root/test/check/Inputs/database/." "$db/"
  printf '[{"directory":"%s/one","file":"main.c","command":"cc -std=c11 -c main.c"},{"directory":"%s/two","file":"main.c","command":"cc -std=c11 -I.. -c main.c"}]' \
    "$db" "$db" > "$db/compile_commands.json"
  exec "$py" "$root/bench/checker.py" --out "$out" --runs 1 --lockwright "$lockwright" bundled="$db"
fi

need() { command -v "$1" >/dev/null || { echo "checker.sh: needs $1 ($2)" >&2; exit 2; }; }
need bear "apt-get install bear"
need clang-tidy-19 "apt-get install clang-tidy-19"
need autoreconf "apt-get install autoconf automake libtool (liburcu regenerates its build files)"
mkdir -p "$work"
cd "$work"
for pkg in ck liburcu; do
  if ! ls -d "$work"/"$pkg"-*/ >/dev/null 2>&1; then
    apt-get source "$pkg" || { echo "checker.sh: apt-get source $pkg failed: add a deb-src entry" >&2; exit 2; }
  fi
done
ck=$(ls -d "$work"/ck-*/ | head -1)
urcu=$(ls -d "$work"/liburcu-*/ | head -1)
if [[ ! -s $ck/compile_commands.json ]]; then
  (cd "$ck" && ./configure >/dev/null && bear -- make -j"$(nproc)" >/dev/null &&
   bear --append -- make -k -j"$(nproc)" -C regressions all >/dev/null || true)
fi
if [[ ! -s $urcu/compile_commands.json ]]; then
  (cd "$urcu" && ./configure >/dev/null && bear -- make -j"$(nproc)" >/dev/null &&
   bear --append -- make -k -j"$(nproc)" -C tests check TESTS= >/dev/null || true)
fi
exec "$py" "$root/bench/checker.py" --out "$out" --runs "$runs" --lockwright "$lockwright" ck="$ck" liburcu="$urcu"
