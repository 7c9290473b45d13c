#!/usr/bin/env bash
# Firmware-safety check: the given static archives (the Cortex-M builds of
# gpuwcet_core and gpuwcet_capi) may not reference heap, exception, unwinding
# or I/O machinery. Lists every symbol they need from outside themselves and
# fails when one is forbidden.
#   check-firmware-symbols.sh [--nm arm-none-eabi-nm] lib1.a [lib2.a ...]
set -euo pipefail
nm=arm-none-eabi-nm
if [ "${1:-}" = "--nm" ]; then nm=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [--nm NM] archive..." >&2; exit 2; }

# Heap: malloc family and operator new/delete (_Znw*, _Zna*, _Zdl*, _Zda*).
# Exceptions and unwinding: __cxa_* (throw, allocate_exception, begin_catch,
# also guards and atexit), _Unwind_*, the personality routines. I/O: stdio.
forbidden='^(malloc|calloc|realloc|free|aligned_alloc|posix_memalign|memalign|_malloc_r|_free_r|_calloc_r|_realloc_r|_Znw.*|_Zna.*|_Zdl.*|_Zda.*|__cxa_.*|_Unwind_.*|__gxx_personality_v0|__aeabi_unwind_cpp_pr[0-9]|abort|printf|fprintf|sprintf|snprintf|vprintf|vfprintf|vsnprintf|puts|fputs|putchar|fwrite|fopen|fclose|_write|_read)$'

defined=$("$nm" --defined-only -g "$@" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u)
needed=$("$nm" -u "$@" | awk 'NF == 2 && $1 == "U" {print $2}' | sort -u)
external=$(comm -23 <(echo "$needed") <(echo "$defined"))

echo "firmware check: $* need from outside:"
if [ -n "$external" ]; then
  paste <(echo "$external") <(echo "$external" | c++filt) | awk -F'\t' '{ if ($1 == $2) print "  " $1; else print "  " $1 "  (" $2 ")" }'
fi
violations=$(echo "$external" | grep -E "$forbidden" || true)
if [ -n "$violations" ]; then
  echo "firmware check FAILED: forbidden references (heap, exceptions, unwinding or I/O):"
  echo "$violations" | c++filt | sed 's/^/  /'
  exit 1
fi
echo "firmware check passed: no heap, exception, unwinding or I/O references"
