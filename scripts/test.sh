#!/usr/bin/env bash
# Second command of the README, and what CI runs: installs what is missing,
# then builds and runs every test on every target:
#   1. host build, warnings as errors, all tests (unit, property, C API, CLI, install)
#   2. the same tests under AddressSanitizer and UndefinedBehaviorSanitizer,
#      and the core with the C checks under MemorySanitizer (clang)
#   3. the ports: aarch64 under qemu-user, Cortex-M4 under qemu-system-arm
#   4. every libFuzzer target for a bounded number of runs (clang, from setup)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup-debian.sh

jobs=$(nproc)
run_ctest() {
  local dir=$1
  # No tests found is a failure: a cached GPUWCET_BUILD_TESTS=OFF once let
  # the host run pass with none.
  (cd "$dir" && ctest -j"$jobs" --output-on-failure --no-tests=error --timeout 900)
}

echo "== host build and tests"
# Tests are switched on explicitly: quickstart.sh configures the same tree
# with them off, and CMake keeps that in its cache.
bash scripts/build-host.sh "$root/build/host" -DGPUWCET_BUILD_TESTS=ON -DGPUWCET_BUILD_BENCHMARKS=ON
run_ctest "$root/build/host"

echo "== host tests under AddressSanitizer + UndefinedBehaviorSanitizer"
bash scripts/build-host.sh "$root/build/asan" -DGPUWCET_BUILD_TESTS=ON -DGPUWCET_SANITIZE=address,undefined \
  -DGPUWCET_BUILD_EXAMPLES=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_ctest "$root/build/asan"

# Caller memory (arenas, result arrays) starts uninitialised under
# MemorySanitizer: the core must read no byte it has not written. Only the C
# checks run there (CMakeLists.txt, GPUWCET_C_TESTS_ONLY).
echo "== core and C API checks under MemorySanitizer (clang)"
CC=clang CXX=clang++ bash scripts/build-host.sh "$root/build/msan" -DGPUWCET_BUILD_TESTS=ON \
  -DGPUWCET_SANITIZE=memory -DGPUWCET_BUILD_TOOLS=OFF -DGPUWCET_BUILD_EXAMPLES=OFF \
  -DGPUWCET_BUILD_BENCHMARKS=OFF -DGPUWCET_GLPK=OFF
MSAN_OPTIONS=halt_on_error=1 run_ctest "$root/build/msan"

if [ -x scripts/test-ports.sh ] || [ -f scripts/test-ports.sh ]; then
  echo "== ports under emulation"
  bash scripts/test-ports.sh
fi
# setup-debian.sh installs clang: a missing one is an error, not a skip.
echo "== fuzz targets"
bash scripts/test-fuzz.sh
echo "== all targets passed"
