#!/usr/bin/env bash
# First command of the README: installs what is missing, builds the library
# and the CLI, bounds the bundled example kernel (makespan model) and the
# bundled traced block (multi-phase analysis), and simulates that block.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
GPUWCET_SKIP_CROSS=${GPUWCET_SKIP_CROSS:-1} bash scripts/setup-debian.sh
bash scripts/build-host.sh "$root/build/host" -DGPUWCET_BUILD_TESTS=OFF
gpuwcet=$root/build/host/tools/gpuwcet
example=examples/kernels/llcll.toml
echo
echo "== gpuwcet makespan --config $example"
"$gpuwcet" makespan --config "$example"
echo
echo "== gpuwcet makespan --config $example --method exact --schedule"
"$gpuwcet" makespan --config "$example" --method exact --schedule --quiet
trace=examples/traces/two-warps.trace
echo
echo "== gpuwcet block-wcet $trace --hw-preset orin-sm"
"$gpuwcet" block-wcet "$trace" --hw-preset orin-sm
echo
echo "== gpuwcet simulate $trace --hw-preset orin-sm --svg build/host/two-warps.svg"
"$gpuwcet" simulate "$trace" --hw-preset orin-sm --svg "$root/build/host/two-warps.svg"
