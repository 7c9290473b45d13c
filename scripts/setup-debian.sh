#!/usr/bin/env bash
# Installs every Debian 12 package the build, the tests and the ports need.
# Safe to run again: apt-get skips what is already there.
set -euo pipefail

sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi

host_packages=(
  build-essential cmake pkg-config git
  libmsgsl-dev            # Microsoft GSL, used by the core
  libglpk-dev             # optional ILP fallback on hosted targets
  libgtest-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev   # host tools only
  clang libclang-rt-14-dev  # libFuzzer targets and sanitizers
  valgrind
)

# Cross targets: the ports are built and tested under emulation in CI.
# GoogleTest for aarch64 is compiled from Debian's source package; python3
# runs the Cortex-M firmware budget report.
cross_packages=(
  g++-aarch64-linux-gnu qemu-user googletest
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
  qemu-system-arm python3
)

want=("${host_packages[@]}")
if [ "${GPUWCET_SKIP_CROSS:-0}" != "1" ]; then want+=("${cross_packages[@]}"); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# GLPK for the Jetson port comes from Debian's arm64 multiarch archive.
need_arm64_glpk=0
if [ "${GPUWCET_SKIP_CROSS:-0}" != "1" ]; then
  dpkg-query -W -f='${Status}' libglpk-dev:arm64 2>/dev/null | grep -q "install ok installed" || need_arm64_glpk=1
fi

if [ ${#missing[@]} -eq 0 ] && [ $need_arm64_glpk -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

if [ $need_arm64_glpk -eq 1 ]; then
  $sudo_cmd dpkg --add-architecture arm64
  missing+=("libglpk-dev:arm64")
fi
echo "setup: installing ${missing[*]}"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
