#!/usr/bin/env bash
# Builds and tests the ports under emulation (called by scripts/test.sh):
#   1. aarch64 Linux (Jetson class): every test, GLPK included, under qemu-user
#   2. bare-metal Cortex-M4: the C API checks and the admission example as
#      firmware images under qemu-system-arm (mps2-an386, semihosting), the
#      firmware-safety symbol check and the code/data/stack budget
# Build trees: build/ports-aarch64, build/ports-cortex-m. Set
# GPUWCET_SKIP_CROSS=1 to skip (no cross toolchains installed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${GPUWCET_SKIP_CROSS:-0}" = "1" ]; then
  echo "ports: skipped (GPUWCET_SKIP_CROSS=1)"
  exit 0
fi
for tool in aarch64-linux-gnu-g++ qemu-aarch64 arm-none-eabi-g++ qemu-system-arm python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "ports: $tool not found; run scripts/setup-debian.sh (or set GPUWCET_SKIP_CROSS=1)" >&2
    exit 1
  fi
done

jobs=$(nproc)
failed=()
start=$SECONDS

# port NAME TOOLCHAIN: configure, build (warnings as errors), run ctest.
port() {
  local name=$1 toolchain=$2 dir=$root/build/ports-$1 t0=$SECONDS
  echo "== port $name: configure and build in build/ports-$name"
  mkdir -p "$dir"
  if ! cmake -S "$root" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$root/$toolchain" \
         -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUWCET_WARNINGS_AS_ERRORS=ON \
         -DGPUWCET_BUILD_TESTS=ON >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log"
    failed+=("$name (configure)")
    return
  fi
  if ! cmake --build "$dir" -j"$jobs"; then
    failed+=("$name (build)")
    return
  fi
  echo "== port $name: ctest under emulation"
  if ! (cd "$dir" && ctest -j"$jobs" --output-on-failure --no-tests=error --timeout 600); then
    failed+=("$name (tests)")
  fi
  echo "== port $name: $((SECONDS - t0)) s"
}

port aarch64 ports/aarch64-linux-gnu/toolchain.cmake
port cortex-m ports/cortex-m/toolchain.cmake

if [ -d "$root/build/ports-cortex-m" ] && [ -f "$root/build/ports-cortex-m/src/libgpuwcet_core.a" ]; then
  echo "== port cortex-m: firmware budget (docs/firmware-budget.md)"
  python3 ports/cortex-m/firmware_report.py build/ports-cortex-m || true
fi

echo "== ports: $((SECONDS - start)) s"
if [ ${#failed[@]} -ne 0 ]; then
  echo "ports FAILED: ${failed[*]}"
  exit 1
fi
echo "ports passed: aarch64 (qemu-user), cortex-m4 (qemu-system-arm)"
