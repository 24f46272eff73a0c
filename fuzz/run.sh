#!/usr/bin/env bash
# Fuzzes lockwright's parsers with libFuzzer (the asan preset builds the targets).
#
#   fuzz/run.sh SECONDS [TARGET...]      each target (default: all) for SECONDS; new inputs go to
#                                        $LOCKWRIGHT_FUZZ_WORK/<target> (default build-asan/fuzz-work),
#                                        crashes to $LOCKWRIGHT_FUZZ_WORK/crashes/<target>; prints
#                                        execs, corpus size and coverage per target
#   fuzz/run.sh --replay BINARY TARGET   runs TARGET's seeds and regressions once (what ctest runs)
#
# Seeds: fuzz/corpus/<target>/ plus the repository's own inputs (specs for the spec targets, the
# lit tests' sources for the checker). A crash found becomes fuzz/regressions/<target>/<name>.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
targets_all=(spec_loader generator checker config baseline line_filter summary tune_recording sample_profile)

# The seed directories of a target, and the dictionary it mutates with (when it has one).
seed_dirs() {
  local t=$1
  [[ -d $here/corpus/$t ]] && echo "$here/corpus/$t"
  case $t in
    spec_loader|generator) echo "$root/specs/arch" ;;
  esac
}
seed_files() { # single files that seed a target, copied into its scratch corpus
  case $1 in
    spec_loader) ls "$root"/test/spec/errors/*.yaml ;;
    checker) ls "$root"/test/check/*.c "$root"/test/check/*.cpp ;;
    tune_recording) ls "$root"/test/tune/Inputs/*.csv ;;
    sample_profile) ls "$root"/test/check/Inputs/sample-profile/*.folded "$root"/test/check/Inputs/sample-profile/*.perf ;;
  esac
}
dict_of() {
  case $1 in
    spec_loader|generator) echo "$here/dict/yaml-spec.dict" ;;
    config) echo "$here/dict/yaml-config.dict" ;;
    baseline|line_filter|summary) echo "$here/dict/json.dict" ;;
    sample_profile) echo "$here/dict/profile.dict" ;;
  esac
}

# A directory holding every seed of a target (libFuzzer takes directories).
gather_seeds() {
  local t=$1 into=$2 d f
  mkdir -p "$into"
  while read -r d; do [[ -n $d ]] && cp -p "$d"/* "$into"/ 2>/dev/null || true; done < <(seed_dirs "$t")
  while read -r f; do [[ -n $f ]] && cp -p "$f" "$into"/; done < <(seed_files "$t")
}

if [[ ${1:-} == --replay ]]; then
  binary=$2 target=$3
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  gather_seeds "$target" "$scratch/seeds"
  inputs=("$scratch/seeds")
  [[ -d $here/regressions/$target ]] && inputs+=("$here/regressions/$target")
  echo "replaying the seeds and regressions of $target"
  exec "$binary" -runs=0 -rss_limit_mb=4096 -timeout=60 "${inputs[@]}"
fi

seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...] | fuzz/run.sh --replay BINARY TARGET}
shift
targets=("$@")
((${#targets[@]})) || targets=("${targets_all[@]}")
bin=${LOCKWRIGHT_FUZZ_BIN:-$root/build-asan/fuzz}
work=${LOCKWRIGHT_FUZZ_WORK:-$root/build-asan/fuzz-work}
printf '%-12s %8s %10s %8s %8s %8s %s\n' target seconds execs exec/s corpus cov crashes
for t in "${targets[@]}"; do
  [[ -x $bin/fuzz_$t ]] || { echo "fuzz/run.sh: $bin/fuzz_$t is not built (cmake --preset asan)" >&2; exit 1; }
  mkdir -p "$work/$t" "$work/crashes/$t"
  gather_seeds "$t" "$work/seeds/$t"
  dict=$(dict_of "$t")
  log="$work/$t.log"
  # ASan's reports abort; -fork would hide them in children, so one process per target.
  "$bin/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=60 -print_final_stats=1 \
      ${dict:+-dict="$dict"} -artifact_prefix="$work/crashes/$t/" \
      "$work/$t" "$work/seeds/$t" >"$log" 2>&1 || true
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  corpus=$(ls "$work/$t" | wc -l)
  crashes=$(ls "$work/crashes/$t" | wc -l)
  printf '%-12s %8s %10s %8s %8s %8s %s\n' "$t" "$seconds" "$execs" "$rate" "$corpus" "$cov" "$crashes"
done
