#!/usr/bin/env bash
# Installs the built tree into a scratch prefix, then builds and runs a
# consumer against it with find_package and with pkg-config.
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/include/gpuwcet.h"
test -f "$work/prefix/lib/pkgconfig/gpuwcet.pc" || test -f "$work/prefix/lib64/pkgconfig/gpuwcet.pc"
cmake -S "$source_dir/tests/install" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer_c"
"$work/build/consumer_cpp"
# pkg-config: a plain C compile and link line must be enough.
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib64/pkgconfig"
cc -std=c99 "$source_dir/tests/install/consumer.c" $(pkg-config --cflags --libs gpuwcet) -lstdc++ \
  -o "$work/consumer_pc"
"$work/consumer_pc"
echo "install test: ok"
