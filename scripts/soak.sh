#!/usr/bin/env bash
# Runs the safety properties of the block and kernel bounds under fresh
# seeds, one seed after another, until the time is up or one fails: the
# tests' fixed seeds check the same cases on every run (what CI needs), a
# soak checks new ones (tests/support/test_seed.hpp).
#   scripts/soak.sh [MINUTES (default 60)] [FIRST SEED (default 1)]
# Builds the host tree in build/host (or $SOAK_BUILD_DIR) with its tests, as
# scripts/test.sh does. A seed runs every property of the list below once,
# about 40 s on one core; a failure prints the test's output and the command
# that reproduces it, and the script stops with status 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=${1:-60}
seed=${2:-1}
dir=${SOAK_BUILD_DIR:-$root/build/host}
if ! [[ $minutes =~ ^[1-9][0-9]*$ && $seed =~ ^[0-9]{1,18}$ ]]; then
  echo "usage: scripts/soak.sh [MINUTES >= 1] [FIRST SEED, 0 to 18 digits]" >&2
  exit 2
fi

# Every property that draws random cases and checks a bound against a
# simulator, an exact enumeration or a reference SIMT run, and the readers'
# and profile's properties that feed them.
tools_filter='BlockSimulator.*:CollectorAnyOrder.*:BarrierSlots.*:BlockAdversary.*:CollectorUnits.*'
tools_filter+=':ScheduleSearch.*:CoResidentBlocks.*:LaneDivergence.Random*:LaneFlow.Random*:PhaseProfile.Counted*'
tools_filter+=':Profile.WorstOfATraceBoundsEveryBlock:BlockAnalysis.WorstBlockChosenWhileReadingIsTheWorstBlock'
unit_filter='KernelWcet.ResidencyEqualsPlacingBlocksOneByOne'

bash "$root/scripts/build-host.sh" "$dir" -DGPUWCET_BUILD_TESTS=ON >/dev/null
tools=$dir/tests/gpuwcet_tools_tests
unit=$dir/tests/gpuwcet_unit_tests
# A filter that matches nothing passes: make sure each one still matches.
for check in "$tools:$tools_filter" "$unit:$unit_filter"; do
  binary=${check%%:*}
  count=$("$binary" --gtest_list_tests --gtest_filter="${check#*:}" | grep -c '^  ' || true)
  if [[ $count -eq 0 ]]; then
    echo "soak: no test of $(basename "$binary") matches its filter" >&2
    exit 2
  fi
done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
end=$((start + minutes * 60))
seeds=0
while [[ $(date +%s) -lt $end ]]; do
  t0=$(date +%s)
  for run in "$tools:$tools_filter" "$unit:$unit_filter"; do
    binary=${run%%:*}
    filter=${run#*:}
    if ! GPUWCET_TEST_SEED=$seed "$binary" --gtest_filter="$filter" --gtest_brief=1 >"$log" 2>&1; then
      cat "$log"
      echo "soak: seed $seed failed after $seeds seeds passed; to reproduce:"
      echo "  GPUWCET_TEST_SEED=$seed $binary --gtest_filter='$filter'"
      exit 1
    fi
  done
  seeds=$((seeds + 1))
  echo "seed $seed passed ($(($(date +%s) - t0)) s; $seeds seeds in $((($(date +%s) - start) / 60)) min)"
  seed=$((seed + 1))
done
echo "soak: $seeds seeds passed in $((($(date +%s) - start) / 60)) min (seeds $((seed - seeds)) to $((seed - 1)))"
