#!/usr/bin/env bash
# Instructions per call of the admission-time C API (docs/kernel-wcet.md,
# "Cost of a query"): builds the driver against a host build's libgpuwcet.a
# and counts each entry point under callgrind.
#   bench/query-cost/measure.sh [BUILD_DIR]   (default build/host)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/host}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -std=c99 -O2 -I"$root/capi/include" "$root/bench/query-cost/driver.c" \
  "$build/capi/libgpuwcet.a" "$build/src/libgpuwcet_core.a" -lstdc++ -o "$out/driver"
for fn in gpuwcet_profile_open gpuwcet_profile_find gpuwcet_kernel_wcet; do
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$fn" --toggle-collect="$fn" \
    "$out/driver" >/dev/null 2>&1
  n=$(callgrind_annotate "$out/cg.$fn" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  printf '%-24s %s instructions\n' "$fn" "$n"
done
