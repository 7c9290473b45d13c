#!/usr/bin/env bash
# B_1, B_S and E that `gpuwcet compile` stores for the Accel-Sim traces of
# ../shared/data (docs/kernel-wcet.md, the figures after the worked
# example): one kernel per trace, the orin-sm preset at memory latency 200
# (compile's defaults), the worst block; printed by `gpuwcet inspect`.
# Usage: bench/accuracy/dataset_profiles.sh [path/to/gpuwcet]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gpuwcet=$(realpath "${1:-$root/build/release/tools/gpuwcet}")
data=$(realpath -m "$root/../shared/data/accelsim-traces")
if [ ! -d "$data" ]; then
  echo "no $data: nothing to measure" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# name, trace, threads per block
while read -r name trace threads; do
  printf '[[kernel]]\nname = "%s"\nblock_threads = %s\ntrace = "%s/%s"\n\n' \
    "$name" "$threads" "$data" "$trace" >> "$work/m.toml"
done <<'LIST'
kernel1 dataset-debug-kernel1.traceg 32
kernel3 dataset-debug-kernel3.traceg 32
kernel4 dataset-debug-kernel4.traceg 32
kernel5 dataset-debug-kernel5.traceg 32
ffma10 ffma-loop10-sm90.traceg 32
vectoradd vectoradd-sm80.traceg 256
LIST
"$gpuwcet" compile "$work/m.toml" -o "$work/p.gwp" >/dev/null
"$gpuwcet" inspect "$work/p.gwp" | grep -E '^kernel|block bound alone|beside other|interference'
