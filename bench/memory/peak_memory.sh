#!/usr/bin/env bash
# Time and peak memory of the block commands on large traces
# (docs/multiphase.md, "Costs": Memory). Generates, in a scratch folder:
#   vectoradd-x100.traceg  the data set's vectoradd-sm80 blocks repeated 100
#                          times (19,600 blocks, about 108 MB)
#   one-warp-10m.trace     one native warp of 10 million instructions
#   one-warp-ptx-2m.trace  one GPGPU-Sim PTX warp of 2 million instructions
#   blocks-native.trace    4,000 native blocks of 8 warps of 100 instructions
# and runs each command of the table below once per gpuwcet given, printing
# wall time, peak resident memory (VmHWM) and peak anonymous memory (RssAnon,
# sampled every 20 ms: the heap, not the mapped trace file).
# Usage: bench/memory/peak_memory.sh GPUWCET [GPUWCET ...]
# Needs python3, pgrep (procps) and ../shared/data.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 GPUWCET [GPUWCET ...]" >&2; exit 2; }
data=$root/../shared/data/accelsim-traces/vectoradd-sm80.traceg
[ -f "$data" ] || { echo "no $data" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$data" "$work" <<'PY'
import random, re, sys
src, out = sys.argv[1], sys.argv[2]
text = open(src).read()
head, rest = text.split('#BEGIN_TB', 1)
blocks = ('#BEGIN_TB' + rest).split('#BEGIN_TB')[1:]
with open(out + '/vectoradd-x100.traceg', 'w') as f:
    f.write(head.replace('(196,1,1)', '(19600,1,1)'))
    n = 0
    for _ in range(100):
        for b in blocks:
            f.write('#BEGIN_TB' + re.sub(r'thread block = \d+,0,0', 'thread block = %d,0,0' % n, b, count=1))
            n += 1
ops = ['fp_mad r{} , r{} r{}', 'int_add r{} , r{} r{}', 'load r{} , r{} r{}', 'store , r{} r{} r{}',
       'load.shared r{} , r{} r{}', 'sfu r{} , r{} r{}']
rng = random.Random(1)
with open(out + '/one-warp-10m.trace', 'w') as f:
    f.write('block 0\nwarp 0\n')
    lines = []
    for i in range(10_000_000):
        lines.append(ops[rng.randrange(6)].format(rng.randrange(64), rng.randrange(64), rng.randrange(64)))
        if len(lines) == 100_000:
            f.write('\n'.join(lines) + '\n')
            lines = []
    f.write('exit\n')
# 4,000 native blocks of 8 warps of 100 instructions.
with open(out + '/blocks-native.trace', 'w') as f:
    for b in range(4000):
        lines = ['block {}'.format(b)]
        for w in range(8):
            lines.append('warp {}'.format(w))
            for i in range(100):
                lines.append(ops[rng.randrange(6)].format(rng.randrange(64), rng.randrange(64), rng.randrange(64)))
        f.write('\n'.join(lines) + '\n')
# One GPGPU-Sim PTX warp of 2 million straight-line instructions (addresses
# 8 bytes apart, one source line each), then its run's time.
ptx = ['add.s32 %r{}, %r{}, %r{};', 'mul.lo.s32 %r{}, %r{}, %r{};', 'add.f32 %f{}, %f{}, %f{};',
       'ld.global.f32 %f{}, [%rd{}+{}];', 'ld.shared.u32 %r{}, [%r{}+{}];', 'fma.rn.f32 %f{}, %f{}, %f{}, %f1;']
with open(out + '/one-warp-ptx-2m.trace', 'w') as f:
    lines = ['warp 0 :  PC=0x100 (k.ptx:10) mov.u32 %r1, %tid.x;']
    for i in range(1, 2_000_000):
        op = ptx[rng.randrange(6)]
        args = (rng.randrange(2, 64), rng.randrange(1, 64), 4 * rng.randrange(64)) if '[' in op else \
               (rng.randrange(2, 64), rng.randrange(1, 64), rng.randrange(1, 64))
        lines.append('warp 0 :  PC=0x{:x} (k.ptx:{}) {}'.format(0x100 + 8 * i, 10 + i, op.format(*args)))
        if len(lines) == 100_000:
            f.write('\n'.join(lines) + '\n')
            lines = []
    lines.append('warp 0 :  PC=0x{:x} (k.ptx:{}) ret;'.format(0x100 + 8 * 2_000_000, 10 + 2_000_000))
    f.write('\n'.join(lines) + '\nkernel_execution_time : 1\n')
PY
# measure LABEL COMMAND...: runs COMMAND (stdout discarded) and prints a row.
measure() {
  local label=$1; shift
  local t0=$(date +%s.%N) anon=0 hwm=0 a h
  bash -c "$*" > /dev/null 2>&1 &
  local shell=$! pid=""
  while kill -0 "$shell" 2> /dev/null; do
    # bash runs a lone command in its own process, a pipeline's in children.
    if [ -z "$pid" ] && [ "$(cat "/proc/$shell/comm" 2> /dev/null)" = gpuwcet ]; then pid=$shell; fi
    pid=${pid:-$(pgrep -n -P "$shell" -x gpuwcet || true)}
    if [ -n "$pid" ] && [ -r "/proc/$pid/status" ]; then
      a=$(awk '/^RssAnon/ {print $2}' "/proc/$pid/status" 2> /dev/null || echo 0)
      h=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2> /dev/null || echo 0)
      [ "${a:-0}" -gt "$anon" ] && anon=$a
      [ "${h:-0}" -gt "$hwm" ] && hwm=$h
    fi
    sleep 0.02
  done
  wait "$shell" || true
  local t1=$(date +%s.%N)
  printf '| %s | %.2f s | %d MB | %d MB |\n' "$label" "$(awk "BEGIN {print $t1 - $t0}")" \
    $((hwm / 1024)) $((anon / 1024))
}
ls -l "$work" | awk 'NR > 1 {printf "%s: %.0f MB\n", $9, $5 / 1e6}'
for g in "$@"; do
  echo
  echo "$g ($("$g" --version))"
  echo "| command | time | peak resident | peak anonymous |"
  echo "|---|---|---|---|"
  measure "block-wcet vectoradd-x100.traceg" "$g" block-wcet "$work/vectoradd-x100.traceg" --hw-preset orin-sm
  if "$g" block-wcet --help | grep -q "'-'"; then
    measure "cat vectoradd-x100.traceg \| block-wcet -" "cat $work/vectoradd-x100.traceg | $g block-wcet - --hw-preset orin-sm"
  fi
  measure "block-wcet blocks-native.trace" "$g" block-wcet "$work/blocks-native.trace" --hw-preset orin-sm
  if "$g" block-wcet --help | grep -q "'-'"; then
    measure "cat blocks-native.trace \| block-wcet -" "cat $work/blocks-native.trace | $g block-wcet - --hw-preset orin-sm"
  fi
  measure "block-wcet one-warp-ptx-2m.trace" "$g" block-wcet "$work/one-warp-ptx-2m.trace" --hw-preset orin-sm
  if "$g" block-wcet --help | grep -q "'-'"; then
    measure "cat one-warp-ptx-2m.trace \| block-wcet -" "cat $work/one-warp-ptx-2m.trace | $g block-wcet - --hw-preset orin-sm"
  fi
  measure "block-wcet one-warp-10m.trace" "$g" block-wcet "$work/one-warp-10m.trace" --hw-preset orin-sm
  if "$g" block-wcet --help | grep -q "'-'"; then
    measure "cat one-warp-10m.trace \| block-wcet -" "cat $work/one-warp-10m.trace | $g block-wcet - --hw-preset orin-sm"
  fi
  measure "phases one-warp-10m.trace --json" "$g" phases "$work/one-warp-10m.trace" --hw-preset orin-sm --json
  measure "block-wcet one-warp-10m.trace --svg" "$g" block-wcet "$work/one-warp-10m.trace" --hw-preset orin-sm --svg "$work/t.svg"
  echo "SVG: $(stat -c %s "$work/t.svg") bytes"
done
