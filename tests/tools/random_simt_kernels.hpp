// Random structured kernels for the split-warp tests (straight code, if /
// if-else on the thread index, on loaded data or on both (and.pred), counted loops, block
// barriers anywhere, guarded writes, loads and exits, registers some lanes
// never write), laid out as GPGPU-Sim prints PTX (one instruction per source
// line, a blank line before every basic block, labels on their own lines),
// and SimtRun, which executes them lane by lane, feeds every instruction to
// a LaneValueAnalysis and checks each global access it runs against what
// the analysis charges for it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet_tools/lane_values.hpp"

namespace gpuwcet::tools::random_kernels {

constexpr int kLanes = 32;
// %r0 = tid; %r1-%r4 written freely; %r5, %r6 count loops; %r7, %r8 written
// freely but not by every lane first.
constexpr int kRegs = 9;
constexpr int kFirstLate = 7;
using Lanes = std::vector<std::int64_t>;

// One linear PTX instruction.
struct Ins {
  enum Kind { exit, mov_tid, mov_const, load_param, add, add_const, mul_const, max, min, selp, load_data, load, setp, and_pred, bra, jmp, bar } kind;
  int dst = 0, a = 0, b = 0;
  std::int64_t c = 0;
  std::string cmp;     // setp
  bool unsigned_cmp = false;  // setp: .u32, the 32-bit patterns compared unsigned
  bool negate = false;  // bra: @!%p
  int target = -1;      // bra / jmp: instruction index
  int p = 1;            // setp / and_pred / bra: predicate register (one per condition)
                        // and_pred: %p<p> = %p<a> and %p<b>
  int guard = 0;        // other instructions: @%p<guard> (0: none)
  bool guard_negated = false;
  int join = -1;        // bra: where its split lanes meet again
  std::uint64_t line = 0;
};

inline Ins op(Ins::Kind k, int dst = 0, int a = 0, int b = 0, std::int64_t c = 0, std::string cmp = {}) {
  Ins i{};
  i.kind = k;
  i.dst = dst;
  i.a = a;
  i.b = b;
  i.c = c;
  i.cmp = std::move(cmp);
  return i;
}

// Random structured code, emitted with its source lines.
struct Program {
  std::vector<Ins> code;
  std::uint64_t line = 10;
  std::mt19937_64& rng;
  explicit Program(std::mt19937_64& r) : rng(r) {}

  int reg() { return static_cast<int>(rng() % kRegs); }
  int out() {  // never %r0 or a counter
    const int k = static_cast<int>(rng() % 6);
    return k < 4 ? 1 + k : kFirstLate + (k - 4);
  }
  void emit(Ins i) {
    i.line = line++;
    code.push_back(i);
  }
  void block_start(bool label) { line += label ? 2 : 1; }  // blank line (+ label)

  void statement(int depth) {
    if (rng() % 6 == 0) return guarded();
    const int pick = static_cast<int>(rng() % (depth < 2 ? 11 : 8));
    if (pick == 6) emit(rng() % 2 ? op(Ins::bar) : op(Ins::load_param, out(), 0, 0, static_cast<std::int64_t>(rng() % 2)));
    else if (pick == 7) clamp();
    else if (pick == 0) emit(op(Ins::mov_const, out(), 0, 0, static_cast<std::int64_t>(rng() % 5)));
    else if (pick == 1) emit(op(Ins::add, out(), reg(), reg()));
    else if (pick == 2) emit(op(Ins::add_const, out(), reg(), 0, static_cast<std::int64_t>(rng() % 9) - 4));
    else if (pick == 3) emit(op(Ins::mul_const, out(), reg(), 0, static_cast<std::int64_t>(rng() % 40)));
    else if (pick == 4) emit(op(Ins::load_data, out(), reg()));
    else if (pick == 5) emit(op(Ins::load, 0, reg()));
    else if (pick <= 9) conditional(depth);
    else loop(depth);
  }
  void body(int depth, int n) {
    for (int k = 0; k < n; ++k) statement(depth + 1);
  }
  // A write, a load or (rarely) an exit under a predicate that may differ
  // between lanes.
  void guarded() {
    const int p = condition();
    const int k = static_cast<int>(rng() % 11);
    Ins i = k == 0   ? op(Ins::exit)
            : k <= 2 ? op(Ins::mov_const, out(), 0, 0, static_cast<std::int64_t>(rng() % 5))
            : k <= 4 ? op(Ins::add, out(), reg(), reg())
            : k <= 6 ? op(Ins::mul_const, out(), reg(), 0, static_cast<std::int64_t>(rng() % 40))
            : k <= 8 ? op(Ins::load_data, out(), reg())
                     : op(Ins::load, 0, reg());
    i.guard = p;
    i.guard_negated = rng() % 2;
    emit(i);
  }
  int predicates = 0;
  // Sets a new predicate register, returned.
  int condition() {
    static const char* kCmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    // On the thread index (known per lane) or on any register.
    const int a = rng() % 2 ? 0 : reg();
    Ins i = op(Ins::setp, 0, a, 0, static_cast<std::int64_t>(rng() % 34) - 1, kCmp[rng() % 6]);
    i.unsigned_cmp = rng() % 4 == 0;
    i.p = ++predicates;
    emit(i);
    if (rng() % 5 != 0) return i.p;
    // And a comparison of any register, the same in every lane or not
    // (a parameter: a term the same in every lane but unknown).
    Ins j = op(Ins::setp, 0, reg(), 0, static_cast<std::int64_t>(rng() % 34) - 1, kCmp[rng() % 6]);
    j.p = ++predicates;
    emit(j);
    Ins both = op(Ins::and_pred, 0, i.p, j.p);
    both.p = ++predicates;
    emit(both);
    return both.p;
  }
  // max / min with a register or a constant; selp on a fresh comparison.
  void clamp() {
    const int kind = static_cast<int>(rng() % 3);
    if (kind == 2) {
      const int p = condition();
      Ins s = op(Ins::selp, out(), reg(), reg());
      s.p = p;
      emit(s);
      return;
    }
    Ins m = op(kind == 0 ? Ins::max : Ins::min, out(), reg(), rng() % 2 ? reg() : -1,
               static_cast<std::int64_t>(rng() % 40));
    emit(m);
  }
  void conditional(int depth) {
    const int p = condition();
    const bool has_else = rng() % 2;
    const std::size_t branch = code.size();
    Ins b = op(Ins::bra);
    b.p = p;
    emit(b);
    code[branch].negate = rng() % 2;
    block_start(false);
    body(depth, 1 + static_cast<int>(rng() % 3));
    // Sometimes a conditional jump straight to the join point: when every
    // lane of this path takes it, the stack switches to the other path.
    std::size_t early = 0;
    if (rng() % 3 == 0) {
      const int q = condition();
      early = code.size();
      Ins e = op(Ins::bra);
      e.p = q;
      emit(e);
      block_start(false);
    }
    std::size_t jump = 0;
    if (has_else) {
      jump = code.size();
      emit(op(Ins::jmp));
      block_start(true);
      code[branch].target = static_cast<int>(code.size());
      body(depth, 1 + static_cast<int>(rng() % 3));
    }
    block_start(true);  // END
    const int end = static_cast<int>(code.size());
    if (!has_else) code[branch].target = end;
    else code[jump].target = end;
    code[branch].join = end;
    if (early != 0) {
      code[early].target = end;
      code[early].join = end;
    }
  }
  void loop(int depth) {
    const int counter = 5 + depth;  // nested loops count with their own register
    emit(op(Ins::mov_const, counter, 0, 0, 0));
    block_start(true);  // LOOP
    const int head = static_cast<int>(code.size());
    body(depth, 1 + static_cast<int>(rng() % 3));
    emit(op(Ins::add_const, counter, counter, 0, 1));
    // The same trip count for every lane, or (counter + tid < k) one that
    // differs: lanes leave at different iterations and wait after the loop,
    // its join point, which no label marks.
    int tested = counter;
    if (rng() % 3 == 0) {
      tested = out();
      emit(op(Ins::add, tested, counter, 0));
    }
    Ins test = op(Ins::setp, 0, tested, 0, 1 + static_cast<std::int64_t>(rng() % 3), "lt");
    test.p = ++predicates;
    emit(test);
    const std::size_t back = code.size();
    Ins b = op(Ins::bra);
    b.p = test.p;
    emit(b);
    code[back].target = head;
    code[back].join = static_cast<int>(code.size());
    block_start(false);
  }
};

inline std::string r(int k) { return "%r" + std::to_string(k); }

struct SimtRun {
  const Program& p;
  LaneValueAnalysis analysis;
  std::vector<Lanes> regs = std::vector<Lanes>(kRegs, Lanes(kLanes, 0));
  // Whether a lane's register holds a value it wrote (from written values).
  std::vector<std::vector<bool>> written =
      std::vector<std::vector<bool>>(kRegs, std::vector<bool>(kLanes, true));
  std::map<int, std::vector<bool>> pred;  // predicate registers
  std::mt19937_64& rng;
  std::uint64_t memory_seed;
  int checked = 0;
  std::vector<std::int64_t> params;
  bool outside = false;  // a lane read a register it never wrote

  // Warp `warp` of a block of `shape` (tid.x only: the kernels read no
  // other index).
  SimtRun(const Program& prog, std::mt19937_64& g, BlockShape shape = BlockShape{kLanes, 1, 1},
          std::uint32_t warp = 0)
      : p(prog), analysis(shape), rng(g), memory_seed(g()) {
    for (int l = 0; l < kLanes; ++l) {
      regs[0][static_cast<std::size_t>(l)] = (warp * kLanes + static_cast<std::uint32_t>(l)) % shape.x;
    }
    params = {static_cast<std::int64_t>(g() % 300), static_cast<std::int64_t>(g() % 300)};
    for (int k = kFirstLate; k < kRegs; ++k) written[k].assign(kLanes, false);
  }

  static bool compare(const std::string& op, std::int64_t x, std::int64_t y) {
    if (op == "lt") return x < y;
    if (op == "le") return x <= y;
    if (op == "gt") return x > y;
    if (op == "ge") return x >= y;
    if (op == "eq") return x == y;
    return x != y;
  }

  // Feeds instruction i, run by `mask`, to the analysis and executes it.
  void execute(int i, const std::vector<bool>& running) {
    const Ins& in = p.code[static_cast<std::size_t>(i)];
    // A guarded instruction acts in the lanes whose guard holds.
    std::vector<bool> mask = running;
    std::string g;
    if (in.guard != 0) {
      g = (in.guard_negated ? "@!%p" : "@%p") + std::to_string(in.guard);
      for (std::size_t l = 0; l < kLanes; ++l) {
        mask[l] = running[l] && pred[in.guard][l] != in.guard_negated;
      }
    }
    const TraceLocation at{0x1000 + 8 * static_cast<std::uint64_t>(i), "r.ptx", in.line};
    const std::string d = r(in.dst), a = r(in.a), b = r(in.b), c = std::to_string(in.c);
    auto each = [&](auto f) {
      for (std::size_t l = 0; l < kLanes; ++l) {
        if (mask[l]) f(l);
      }
    };
    // A lane reading a register it never wrote is outside what the
    // analysis assumes (docs/trace-formats.md): stop checking this kernel.
    auto reads = [&](int reg) {
      if (reg < 0) return;
      each([&](std::size_t l) { outside = outside || !written[static_cast<std::size_t>(reg)][l]; });
    };
    switch (in.kind) {
      case Ins::add: case Ins::max: case Ins::min: case Ins::selp:
        reads(in.a);
        reads(in.b);
        break;
      case Ins::add_const: case Ins::mul_const: case Ins::load: case Ins::load_data: case Ins::setp:
        reads(in.a);
        break;
      default:
        break;
    }
    switch (in.kind) {
      case Ins::mov_tid:
        analysis.step("mov.u32", "", {"%r0", "%tid.x"}, at);
        break;
      case Ins::mov_const:
        analysis.step("mov.u32", g, {d, c}, at);
        each([&](std::size_t l) { regs[in.dst][l] = in.c; written[in.dst][l] = true; });
        break;
      case Ins::load_param: {
        // Kernel parameters: the same value all through the kernel.
        const std::string param = "[k_param_" + c + "]";
        analysis.step("ld.param.u32", "", {d, param}, at);
        each([&](std::size_t l) {
          regs[in.dst][l] = params[static_cast<std::size_t>(in.c)];
          written[in.dst][l] = true;
        });
        break;
      }
      case Ins::add:
        analysis.step("add.s32", g, {d, a, b}, at);
        each([&](std::size_t l) {
          regs[in.dst][l] = regs[in.a][l] + regs[in.b][l];
          written[in.dst][l] = written[in.a][l] && written[in.b][l];
        });
        break;
      case Ins::add_const:
        analysis.step("add.s32", "", {d, a, c}, at);
        each([&](std::size_t l) {
          regs[in.dst][l] = regs[in.a][l] + in.c;
          written[in.dst][l] = written[in.a][l];
        });
        break;
      case Ins::mul_const:
        analysis.step("mul.lo.s32", g, {d, a, c}, at);
        each([&](std::size_t l) {
          regs[in.dst][l] = regs[in.a][l] * in.c;
          written[in.dst][l] = written[in.a][l];
        });
        break;
      case Ins::max:
      case Ins::min: {
        const bool is_max = in.kind == Ins::max;
        const std::string second = in.b < 0 ? c : b;
        analysis.step(is_max ? "max.s32" : "min.s32", "", {d, a, second}, at);
        each([&](std::size_t l) {
          const std::int64_t x = regs[in.a][l], y = in.b < 0 ? in.c : regs[in.b][l];
          regs[in.dst][l] = is_max ? std::max(x, y) : std::min(x, y);
          written[in.dst][l] = written[in.a][l] && (in.b < 0 || written[in.b][l]);
        });
        break;
      }
      case Ins::selp:
        analysis.step("selp.b32", "", {d, a, b, "%p" + std::to_string(in.p)}, at);
        each([&](std::size_t l) {
          const bool first = pred[in.p][l];
          regs[in.dst][l] = first ? regs[in.a][l] : regs[in.b][l];
          written[in.dst][l] = first ? written[in.a][l] : written[in.b][l];
        });
        break;
      case Ins::load_data:
      case Ins::load: {
        // A byte at %ra in every active lane: the sectors they touch. A
        // data load leaves one value per lane in %rd.
        std::set<std::int64_t> sectors;
        bool defined = true;
        each([&](std::size_t l) {
          sectors.insert(regs[in.a][l] >> 5);
          defined = defined && written[in.a][l];
        });
        const std::string addr = "[" + a + "]";
        const AccessCost cost =
            analysis.step("ld.global.u8", g, {in.kind == Ins::load ? "%r99" : d, addr}, at);
        if (defined && !outside) {
          EXPECT_GE(cost.passes, sectors.size()) << "instruction " << i;
          ++checked;
        }
        if (in.kind == Ins::load_data) {
          // Memory holds one value per address (random per kernel).
          each([&](std::size_t l) {
            regs[in.dst][l] = static_cast<std::int64_t>(
                ((static_cast<std::uint64_t>(regs[in.a][l]) ^ memory_seed) * 0x9E3779B97F4A7C15ull) >> 58);
            written[in.dst][l] = written[in.a][l];
          });
        }
        break;
      }
      case Ins::setp:
        analysis.step("setp." + in.cmp + (in.unsigned_cmp ? ".u32" : ".s32"), "",
                      {"%p" + std::to_string(in.p), a, c}, at);
        pred[in.p].resize(kLanes);
        each([&](std::size_t l) {
          pred[in.p][l] = in.unsigned_cmp
                              ? compare(in.cmp, static_cast<std::uint32_t>(regs[in.a][l]),
                                        static_cast<std::uint32_t>(in.c))
                              : compare(in.cmp, regs[in.a][l], in.c);
        });
        break;
      case Ins::bra:
        analysis.step("bra", (in.negate ? "@!%p" : "@%p") + std::to_string(in.p), {"L"}, at);
        break;
      case Ins::jmp:
        analysis.step("bra.uni", "", {"L"}, at);
        break;
      case Ins::exit:
        analysis.step("exit", g, {}, at);
        break;
      case Ins::and_pred:
        analysis.step("and.pred", "", {"%p" + std::to_string(in.p), "%p" + std::to_string(in.a),
                                       "%p" + std::to_string(in.b)}, at);
        pred[in.p].resize(kLanes);
        each([&](std::size_t l) { pred[in.p][l] = pred[in.a][l] && pred[in.b][l]; });
        break;
      case Ins::bar:  // one warp: the barrier waits for nothing, whatever its lanes
        analysis.step("bar.sync", "", {"0"}, at);
        break;
    }
  }

  // GPGPU-Sim's reconvergence stack over the linear code.
  void run() {
    struct Entry {
      int pc, join;
      std::vector<bool> mask;
    };
    std::vector<Entry> stack{{0, static_cast<int>(p.code.size()), std::vector<bool>(kLanes, true)}};
    int steps = 0;
    while (!stack.empty() && ++steps < 20000) {
      Entry& top = stack.back();
      if (top.pc == top.join) {
        stack.pop_back();
        continue;
      }
      const int i = top.pc;
      const std::vector<bool> mask = top.mask;
      execute(i, mask);
      const Ins& in = p.code[static_cast<std::size_t>(i)];
      if (in.kind == Ins::exit) {
        // The lanes whose guard holds leave every entry; empty ones pop.
        for (std::size_t l = 0; l < kLanes; ++l) {
          if (mask[l] && (in.guard == 0 || pred[in.guard][l] != in.guard_negated)) {
            for (Entry& e : stack) e.mask[l] = false;
          }
        }
        stack.back().pc = i + 1;
        while (!stack.empty() &&
               std::count(stack.back().mask.begin(), stack.back().mask.end(), true) == 0) {
          stack.pop_back();
        }
        continue;
      }
      if (in.kind == Ins::jmp) {
        top.pc = in.target;
        continue;
      }
      if (in.kind != Ins::bra) {
        top.pc = i + 1;
        continue;
      }
      std::vector<bool> taken(kLanes, false), fall(kLanes, false);
      for (std::size_t l = 0; l < kLanes; ++l) {
        if (!mask[l]) continue;
        (pred[in.p][l] != in.negate ? taken : fall)[l] = true;
      }
      const bool any_taken = std::count(taken.begin(), taken.end(), true) > 0;
      const bool any_fall = std::count(fall.begin(), fall.end(), true) > 0;
      if (!any_taken || !any_fall) {
        top.pc = any_taken ? in.target : i + 1;
        continue;
      }
      // Split: this entry waits at the join; the highest lane's group is
      // pushed first, so the other one runs first; a group already at the
      // join just waits there.
      top.pc = in.join;
      const Entry t{in.target, in.join, taken}, f{i + 1, in.join, fall};
      std::size_t highest = kLanes - 1;
      while (!mask[highest]) --highest;
      const bool highest_taken = taken[highest];
      for (const Entry& e : highest_taken ? std::vector<Entry>{t, f} : std::vector<Entry>{f, t}) {
        if (e.pc != e.join) stack.push_back(e);
      }
    }
  }
};

// A kernel: tid into %r0, every other early register written by every lane
// (the analysis assumes no lane reads a register it never wrote,
// docs/trace-formats.md), then six random statements.
inline Program random_kernel(std::mt19937_64& rng) {
  Program p(rng);
  p.emit(op(Ins::mov_tid));
  for (int k = 1; k < kFirstLate; ++k) {
    p.emit(op(Ins::mov_const, k, 0, 0, static_cast<std::int64_t>(rng() % 4)));
  }
  for (int k = 0; k < 6; ++k) p.statement(0);
  return p;
}

}  // namespace gpuwcet::tools::random_kernels
