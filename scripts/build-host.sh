#!/usr/bin/env bash
# Configures and builds the host tree in build/host (or $1), warnings as errors.
# Extra arguments are passed to CMake's configure step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build/host}
shift || true
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUWCET_WARNINGS_AS_ERRORS=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
