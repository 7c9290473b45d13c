#!/usr/bin/env bash
# Single-warp bound of every GPGPU-Sim PTX trace of ../shared/data against the
# cycles GPGPU-Sim observed (docs/multiphase.md, "Single-warp accuracy"), as a
# Markdown table and the mean overestimation (over all traces, and without
# bfs's Kernel, whose addresses are data).
# Usage: bench/accuracy/single_warp.sh [--hw FILE] [--no-block-dim]
#                                      [--ptx-dir DIR | --no-ptx]
#                                      [path/to/gpuwcet]   (in any order;
#                                      default build/host/tools/gpuwcet)
#   --hw FILE        a hardware file instead of the gpgpusim.config next to each
#                    trace (the model variants of docs/multiphase.md)
#   --no-block-dim   read the traces without their launch shapes
#   --ptx-dir DIR    read each trace with the PTX file its lines name, when DIR
#                    holds it (--ptx: join points from the file; the data set
#                    does not carry these files); without it, as block-wcet
#                    does, the one next to the trace if there is one
#   --no-ptx         no PTX file, not even one next to a trace
# Each trace is read with the gpgpusim.config next to it and the launch shape
# of the run that produced it (shape_of below, as in
# tests/tools/test_real_traces.cpp).
# Needs python3 (for the JSON).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
hw_args=()
use_shape=1
ptx_dir=
no_ptx=0
gpuwcet=
# Options and the path in any order: an option after the path must not be
# dropped quietly (the table would then be the default model's).
while [ $# -gt 0 ]; do
  case $1 in
    --hw) [ $# -ge 2 ] || { echo "--hw needs a file" >&2; exit 2; }; hw_args=(--hw "$2"); shift 2 ;;
    --no-block-dim) use_shape=0; shift ;;
    --ptx-dir) [ $# -ge 2 ] || { echo "--ptx-dir needs a folder" >&2; exit 2; }; ptx_dir=$2; shift 2 ;;
    --no-ptx) no_ptx=1; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) [ -z "$gpuwcet" ] || { echo "one gpuwcet path, not '$gpuwcet' and '$1'" >&2; exit 2; }
       gpuwcet=$1; shift ;;
  esac
done
[ -z "$ptx_dir" ] || [ "$no_ptx" = 0 ] || { echo "give --ptx-dir or --no-ptx, not both" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed" >&2; exit 1; }
gpuwcet=${gpuwcet:-$root/build/host/tools/gpuwcet}
[ -x "$gpuwcet" ] || { echo "no gpuwcet at $gpuwcet: build it, or give its path" >&2; exit 1; }
data=$root/../shared/data/gpgpusim-ptx-traces
[ -d "$data" ] || { echo "no $data" >&2; exit 1; }
# Every trace of the data set comes from a run that launched one block of 32
# threads: gridDim (1,1,1), blockDim (32,1,1) in the GPGPU-Sim logs published
# with the traces (LJeanmougin/TraceParser, sim_run_11.0/*/ORIN-PTX/*.o1*;
# streamcluster has no log, its instruction counts are multiples of 32).
shape_of() { echo 32; }
echo "| benchmark | kernel trace | instructions | block dim | PTX file | observed | bound | over |"
echo "|---|---|---|---|---|---|---|---|"
rows=$(for f in "$data"/*/*.trace; do
  shape=$(shape_of "$f")
  shape_args=(--block-dim "$shape")
  [ "$use_shape" = 1 ] || { shape_args=(); shape=unknown; }
  # By default block-wcet's own choice: the PTX file next to the trace if
  # it lies there (the JSON's ptx_file says).
  ptx_args=()
  [ "$no_ptx" = 1 ] && ptx_args=(--no-ptx)
  if [ -n "$ptx_dir" ]; then
    named=$(sed -n '1s/.*(\(.*\):[0-9]*).*/\1/p' "$f")
    ptx_args=(--no-ptx)
    [ -f "$ptx_dir/$named" ] && ptx_args=(--ptx "$ptx_dir/$named")
  fi
  "$gpuwcet" block-wcet "$f" "${hw_args[@]}" "${shape_args[@]}" "${ptx_args[@]}" --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
o, b = d["observed_cycles"], d["bound"]
n = sum(1 for line in open(sys.argv[1]) if line.startswith("warp"))
bench = sys.argv[1].split("/")[-2].split("-")[0]
name = sys.argv[1].split("/")[-1][:36]
ptx = "no" if d["ptx_file"] is None else "until a step it cannot follow" if d["notes"] else "yes"
print(f"| {bench} | {name} | {n} | {sys.argv[2]} | {ptx} | {o} | {b} | {100 * (b - o) / o:+.1f}% |")
' "$f" "$shape" || exit 1
done)
echo "$rows"
echo
echo "$rows" | python3 -c '
import sys
rows = [l.split("|") for l in sys.stdin if l.startswith("|")]
over = [float(r[8].strip().rstrip("%")) for r in rows]
rest = [float(r[8].strip().rstrip("%")) for r in rows if "_Z6KernelP4Node" not in r[2]]
print(f"mean {sum(over) / len(over):+.1f}% over {len(over)} traces, "
      f"{sum(rest) / len(rest):+.1f}% without bfs Kernel, lowest {min(over):+.1f}%")
'
