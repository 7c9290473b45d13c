#!/usr/bin/env python3
"""Code, data and stack budget of the Cortex-M build of gpuwcet.

Sizes come from arm-none-eabi-size on the archives of the core and the C API
and on the firmware images. Stack: the worst call-graph path from each public
C API entry point, over the frames and call edges GCC writes with
-fstack-usage -fcallgraph-info=su (ports/cortex-m/toolchain.cmake), including
the calls GCC itself emits (memset, __aeabi_uldivmod). Functions outside the
library (newlib, libgcc) have no .ci file: their frames are read from the
prologues in a linked image's disassembly (push, vpush, sub sp, pre-decrement
stores), and their own calls from its bl/b.w instructions.

Recursion makes a path unbounded and is reported as such. An indirect call
(the search's progress callback) cannot be followed: the figure then holds up
to the call, and the caller's callback adds its own stack on top.

  firmware_report.py BUILD_DIR                 print the tables
  firmware_report.py BUILD_DIR --write DOC     replace the generated part of DOC
  firmware_report.py BUILD_DIR --check LIMITS  fail when a figure exceeds its limit
"""
import argparse
import glob
import os
import re
import subprocess
import sys

SIZE = "arm-none-eabi-size"
OBJDUMP = "arm-none-eabi-objdump"
BEGIN = "<!-- BEGIN GENERATED: ports/cortex-m/firmware_report.py -->"
END = "<!-- END GENERATED -->"
INDIRECT = "__indirect_call"
# GSL contract violations (Expects, span bounds) end in std::terminate: not a
# path of a correct program, and it never returns; not counted.
TERMINATE = "_ZSt9terminatev"
# Indirect calls whose targets the source fixes: the C API's closed-form
# wrapper calls one of the two closed-form bounds through a pointer
# (capi/src/capi_makespan.cpp). Other indirect calls are the caller's
# progress callback and are reported as such.
KNOWN_INDIRECT = {
    "closed_form": [r"safe_pessimistic_makespan", r"paper_pessimistic_estimate"],
}
# Aliases the disassembly shows under another name (same address in libgcc).
ALIASES = {"__aeabi_ldiv0": "__aeabi_idiv0"}
CPU_FLAGS = ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]


def parse_ci(paths):
    """Frames (bytes, qualifier) and call edges of the library's functions."""
    frames, edges = {}, {}
    node = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"(.*)\}')
    edge = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = node.match(line)
                if m and "shape" not in m.group(3):
                    size = re.search(r"\\n(\d+) bytes \(([a-z,]+)\)$", m.group(2))
                    if size:
                        bytes_, qual = int(size.group(1)), size.group(2)
                        old = frames.get(m.group(1), (0, ""))
                        # Local functions of two files may share a name: keep the larger.
                        frames[m.group(1)] = max(old, (bytes_, qual))
                    continue
                m = edge.match(line)
                if m:
                    edges.setdefault(m.group(1), set()).add(m.group(2))
    return frames, edges


def runtime_libraries():
    """newlib-nano and libgcc of the Cortex-M4F multilib."""
    def ask(flag):
        return subprocess.run(["arm-none-eabi-gcc"] + CPU_FLAGS + [flag], check=True,
                              capture_output=True, text=True).stdout.strip()
    return [ask("-print-file-name=libc_nano.a"), ask("-print-libgcc-file-name")]


def parse_elf(path):
    """Frames and calls of every function of an image or archive, from its
    prologues; calls from bl/b.w and, in archives, from their relocations."""
    out = subprocess.run([OBJDUMP, "-dr", "--no-show-raw-insn", path], check=True,
                         capture_output=True, text=True).stdout
    frames, calls, current = {}, {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            current = m.group(1)
            frames[current], calls[current] = 0, set()
            continue
        if current is None or "\t" not in line:
            continue
        reloc = re.search(r"R_ARM_THM_(CALL|JUMP24)\s+(\S+)", line)
        if reloc:
            calls[current].add(reloc.group(2))
            continue
        ins = line.split("\t", 1)[1].split("@")[0].strip()
        m = re.match(r"(push|stmdb\s+sp!,)\s*\{([^}]*)\}", ins)
        if m or ins.startswith("push"):
            regs = re.search(r"\{([^}]*)\}", ins).group(1)
            frames[current] += 4 * count_regs(regs)
        elif ins.startswith("vpush"):
            regs = re.search(r"\{([^}]*)\}", ins).group(1)
            frames[current] += 8 * count_regs(regs)
        elif re.match(r"sub(\.w)?\s+sp,\s*(sp,\s*)?#(\d+)", ins):
            frames[current] += int(re.match(r"sub(\.w)?\s+sp,\s*(sp,\s*)?#(\d+)", ins).group(3))
        elif re.search(r"\[sp, #-(\d+)\]!", ins):
            frames[current] += int(re.search(r"\[sp, #-(\d+)\]!", ins).group(1))
        m = re.match(r"(bl|blx|b\.w|b)\s+[0-9a-f]+ <([^>+]+)>", ins)
        if m and m.group(2) != current:
            calls[current].add(m.group(2))
        if re.match(r"blx\s+r\d+", ins):
            calls[current].add(INDIRECT)
    return frames, calls


def count_regs(regs):
    n = 0
    for part in regs.split(","):
        part = part.strip()
        m = re.match(r"([a-z]+)(\d+)-[a-z]+(\d+)", part)
        n += int(m.group(3)) - int(m.group(2)) + 1 if m else 1
    return n


def public_entry_points(root):
    names = set()
    for header in glob.glob(os.path.join(root, "capi", "include", "*.h")):
        with open(header, encoding="utf-8") as f:
            text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
        names.update(re.findall(r"\b(gpuwcet_[a-z0-9_]+)\s*\(", text))
    return names


def worst_stack(entry, frames, edges, ext_frames, ext_calls):
    """(bytes, notes): the deepest path from entry; notes say recursion/indirect."""
    memo = {}

    def visit(fn, path):
        if fn in path:
            return None, {"recursion via " + fn}
        if fn in memo:
            return memo[fn]
        if fn == INDIRECT:
            return 0, {"plus the stack of the caller's progress callback"}
        if fn == TERMINATE:
            return 0, set()
        if fn in frames:
            own, callees = frames[fn][0], edges.get(fn, set())
            notes = set() if frames[fn][1] == "static" else {fn + " frame " + frames[fn][1]}
        elif ALIASES.get(fn) in ext_frames:
            own, callees, notes = ext_frames[ALIASES[fn]], set(), set()
        elif fn in ext_frames:
            own, callees, notes = ext_frames[fn], ext_calls.get(fn, set()), set()
        else:
            return 0, {"unknown frame of " + fn}
        for key, targets in KNOWN_INDIRECT.items():
            if key in fn and INDIRECT in callees:
                resolved = {t for t in frames for pattern in targets if re.search(pattern, t)}
                callees = (set(callees) - {INDIRECT}) | resolved
        deepest = 0
        for callee in callees:
            depth, more = visit(callee, path | {fn})
            notes |= more
            if depth is None:
                deepest = None
            elif deepest is not None:
                deepest = max(deepest, depth)
        result = (None if deepest is None else own + deepest, notes)
        memo[fn] = result
        return result

    return visit(entry, frozenset())


def sizes(paths):
    out = subprocess.run([SIZE, "-t"] + paths, check=True, capture_output=True,
                         text=True).stdout.splitlines()
    rows = {}
    for line in out[1:]:
        f = line.split()
        rows[os.path.basename(f[5]) if len(f) > 5 else f[-1]] = tuple(int(x) for x in f[:3])
    return rows


def report(build, root):
    ci = sorted(glob.glob(os.path.join(build, "src", "CMakeFiles", "gpuwcet_core.dir", "**", "*.ci"),
                          recursive=True) +
                glob.glob(os.path.join(build, "capi", "CMakeFiles", "gpuwcet_capi.dir", "**", "*.ci"),
                          recursive=True))
    if not ci:
        sys.exit(f"no .ci files under {build}: configure with ports/cortex-m/toolchain.cmake")
    frames, edges = parse_ci(ci)
    elf = os.path.join(build, "tests", "target", "target_checks.elf")
    ext_frames, ext_calls = {}, {}
    for lib in runtime_libraries():
        f, c = parse_elf(lib)
        ext_frames.update(f)
        ext_calls.update(c)
    figures, rows = {}, []
    for name in sorted(public_entry_points(root)):
        if name not in frames:
            continue
        depth, notes = worst_stack(name, frames, edges, ext_frames, ext_calls)
        figures["stack." + name] = depth
        rows.append((name, depth, notes))
    archives = [os.path.join(build, "src", "libgpuwcet_core.a"),
                os.path.join(build, "capi", "libgpuwcet.a")]
    archive_sizes = sizes(archives)["(TOTALS)"]
    figures.update({"archives.text": archive_sizes[0], "archives.data": archive_sizes[1],
                    "archives.bss": archive_sizes[2]})
    images = [os.path.join(build, "examples", "admission-c", "admission_c.elf"), elf]
    image_rows = []
    for p in [p for p in images if os.path.exists(p)]:
        out = subprocess.run([SIZE, p], check=True, capture_output=True, text=True).stdout.split("\n")[1].split()
        image_rows.append((os.path.relpath(p, build), int(out[0]), int(out[1]), int(out[2])))
    for name, text, data, bss in image_rows:
        figures[os.path.basename(name) + ".text"] = text
    return figures, rows, archive_sizes, image_rows


def markdown(rows, archive_sizes, image_rows):
    lines = ["| | text | data | bss |", "|---|---:|---:|---:|",
             "| libgpuwcet_core.a + libgpuwcet.a (all objects) | %d | %d | %d |" % archive_sizes]
    for name, t, d, b in image_rows:
        lines.append(f"| {name} (whole image, newlib-nano and semihosting included) | {t} | {d} | {b} |")
    lines += ["", "| C API entry point | worst stack (bytes) | note |", "|---|---:|---|"]
    for name, depth, notes in rows:
        shown = "unbounded" if depth is None else str(depth)
        lines.append(f"| `{name}` | {shown} | {'; '.join(sorted(notes))} |")
    return "\n".join(lines) + "\n"


def read_limits(path):
    limits = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                key, value = line.split()
                limits[key] = int(value)
    return limits


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--write", metavar="DOC")
    ap.add_argument("--check", metavar="LIMITS")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    figures, rows, archive_sizes, image_rows = report(args.build, root)
    table = markdown(rows, archive_sizes, image_rows)
    print(table, end="")
    if args.write:
        with open(args.write, encoding="utf-8") as f:
            doc = f.read()
        start, stop = doc.index(BEGIN) + len(BEGIN), doc.index(END)
        with open(args.write, "w", encoding="utf-8") as f:
            f.write(doc[:start] + "\n" + table + doc[stop:])
    if args.check:
        limits = read_limits(args.check)
        failed = []
        for key, value in sorted(figures.items()):
            limit = limits.get(key, limits.get("stack.any") if key.startswith("stack.") else None)
            if limit is None:
                continue
            if value is None or value > limit:
                failed.append(f"{key} = {value if value is not None else 'unbounded'} > limit {limit}")
        for line in failed:
            print("firmware budget exceeded: " + line)
        if failed:
            return 1
        print(f"firmware budget: every figure within {args.check}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
