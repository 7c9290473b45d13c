#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang and runs each for a
# bounded number of inputs from its seed corpus tests/fuzz/corpus/<target>.
# A crash, sanitizer report or an exception other than ToolError fails.
#   FUZZ_RUNS (default 20000) and FUZZ_SECONDS (default 20) bound each run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath -m "${1:-$root/build/fuzz}")
runs=${FUZZ_RUNS:-20000}
seconds=${FUZZ_SECONDS:-20}
targets=(fuzz_accelsim fuzz_ptx fuzz_ptx_flow fuzz_native_trace fuzz_hardware_file fuzz_gpgpusim_config fuzz_profile
         fuzz_manifest fuzz_makespan_config fuzz_capi_block fuzz_capi_makespan)

CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGPUWCET_BUILD_FUZZERS=ON -DGPUWCET_BUILD_EXAMPLES=OFF -DGPUWCET_GLPK=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
  name=${t#fuzz_}
  # New inputs go to a scratch corpus; the seeds in the tree stay as they are.
  mkdir -p "$work/$name"
  echo "== $t: $runs runs or ${seconds}s"
  if ! (cd "$work" && "$dir/tests/fuzz/$t" -runs="$runs" -max_total_time="$seconds" \
         -max_len=4096 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$dir/" \
         "$work/$name" "$root/tests/fuzz/corpus/$name" >"$work/$name.log" 2>&1); then
    tail -n 40 "$work/$name.log"
    echo "$t failed (reproducer written to $dir/)"
    exit 1
  fi
  grep -E '^Done|^#[0-9]+ +DONE' "$work/$name.log" | tail -n 1 || true
done
echo "== fuzz targets passed"
