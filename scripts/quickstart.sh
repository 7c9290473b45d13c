#!/usr/bin/env bash
# First command of the README: installs what is missing, builds the library
# and the CLI, and bounds the bundled example kernel.
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
