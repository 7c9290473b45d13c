// An independent reference for the split-warp tests: SimtRun executes a
// random kernel (random_simt_kernels.hpp) lane by lane as one warp of a
// block, with GPGPU-Sim's reconvergence stack (simt_stack::update in its
// abstract_hardware_model.cc: the fall-through group is written first and
// the taken one runs first; a group at the top entry's join point waits
// there; a split turns the top entry into one that waits at the branch's
// join point, unless that is the top's own; lanes that exit leave every
// entry) and each branch's join point found by brute force: the
// instruction closest to it that every path from it to the exit passes,
// the exit itself when none (guarded exits make that happen). GPGPU-Sim
// drops exiting lanes from the top entry only, but the same follows: no
// lane can exit between a branch and a join point other than the exit, so
// an entry below that still holds such lanes waits at the exit and never
// runs again. It feeds
// every instruction it runs to a LaneValueAnalysis as a GPGPU-Sim trace
// line, and checks each global or shared load against what the analysis
// charges: at least the 32-byte sectors (global) or bank passes (shared,
// GPGPU-Sim's count: the most distinct 4-byte words in one of 32 banks)
// that the active lanes' real addresses need.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet_tools/lane_values.hpp"
#include "random_simt_kernels.hpp"

namespace gpuwcet::tools::random_kernels {

// Each instruction's successors; node code.size() is the final ret, and
// code.size() + 1 the exit.
inline std::vector<std::vector<int>> successors(const Program& p) {
  const int n = static_cast<int>(p.code.size());
  std::vector<std::vector<int>> s(static_cast<std::size_t>(n + 2));
  for (int i = 0; i < n; ++i) {
    const Ins& in = p.code[static_cast<std::size_t>(i)];
    auto& out = s[static_cast<std::size_t>(i)];
    if (in.kind == Ins::bra) out = {in.target, i + 1};
    else if (in.kind == Ins::jmp) out = {in.target};
    else if (in.kind == Ins::exit) out = in.guard != 0 ? std::vector<int>{n + 1, i + 1} : std::vector<int>{n + 1};
    else out = {i + 1};
  }
  s[static_cast<std::size_t>(n)] = {n + 1};
  return s;
}

// Immediate post-dominator of every node by the definition: d
// post-dominates x when the exit cannot be reached from x without passing
// d; the immediate one is the post-dominator every other one post-dominates.
inline std::vector<int> immediate_post_dominators(const std::vector<std::vector<int>>& succ) {
  const int nodes = static_cast<int>(succ.size());
  const int exit = nodes - 1;
  std::vector<std::vector<int>> pred(succ.size());
  for (int x = 0; x < nodes; ++x) {
    for (int y : succ[static_cast<std::size_t>(x)]) pred[static_cast<std::size_t>(y)].push_back(x);
  }
  // avoid[d][x]: x reaches the exit without passing d.
  std::vector<std::vector<bool>> avoid(succ.size(), std::vector<bool>(succ.size(), false));
  for (int d = 0; d < exit; ++d) {
    auto& reach = avoid[static_cast<std::size_t>(d)];
    std::vector<int> work{exit};
    reach[static_cast<std::size_t>(exit)] = true;
    while (!work.empty()) {
      const int y = work.back();
      work.pop_back();
      for (int x : pred[static_cast<std::size_t>(y)]) {
        if (x == d || reach[static_cast<std::size_t>(x)]) continue;
        reach[static_cast<std::size_t>(x)] = true;
        work.push_back(x);
      }
    }
  }
  auto pdom = [&](int d, int x) {
    return d == exit || !avoid[static_cast<std::size_t>(d)][static_cast<std::size_t>(x)];
  };
  std::vector<int> ipdom(succ.size(), -1);
  for (int x = 0; x < exit; ++x) {
    for (int d = 0; d <= exit; ++d) {
      if (d == x || !pdom(d, x)) continue;
      bool closest = true;
      for (int e = 0; e <= exit && closest; ++e) {
        if (e != x && e != d && pdom(e, x) && !pdom(e, d)) closest = false;
      }
      if (closest) {
        ipdom[static_cast<std::size_t>(x)] = d;
        break;
      }
    }
  }
  return ipdom;
}

// A block of one whole warp.
inline BlockShape one_warp(std::mt19937_64&) { return BlockShape{kLanes, 1, 1}; }

// Blocks of which a kernel may run one warp: several warps (tid.x past 32,
// or repeating within the warp with tid.y), a partial last warp (40, 48,
// 33, 20 x 3 threads), or a single partial warp (16, 8 x 2).
inline BlockShape random_block(std::mt19937_64& rng) {
  static const BlockShape kBlocks[] = {{64, 1, 1}, {96, 1, 1}, {16, 4, 1}, {8, 8, 1}, {32, 2, 1},
                                       {48, 2, 1}, {4, 8, 2},  {40, 1, 1}, {48, 1, 1}, {20, 3, 1},
                                       {33, 1, 1}, {16, 1, 1}, {8, 2, 1}};
  return kBlocks[rng() % std::size(kBlocks)];
}

inline std::uint32_t random_warp(std::mt19937_64& rng, BlockShape s) {
  const std::uint32_t threads = s.x * s.y * s.z;
  return static_cast<std::uint32_t>(rng() % ((threads + kLanes - 1) / kLanes));
}

struct SimtRun {
  using Mask = std::vector<bool>;
  const Program& p;
  BlockShape shape;
  std::uint32_t warp;
  LaneValueAnalysis analysis;
  std::vector<std::vector<std::int64_t>> regs =
      std::vector<std::vector<std::int64_t>>(kRegs, std::vector<std::int64_t>(kLanes, 0));
  // Whether a lane's register holds a value it wrote (from written values).
  std::vector<Mask> written = std::vector<Mask>(kRegs, Mask(kLanes, true));
  std::map<int, Mask> pred;  // predicate registers
  // Kernel parameters: two integers and whether each float one is nonzero.
  std::vector<std::int64_t> params;
  std::vector<bool> float_params;
  // Global memory: one value per address, hashed, the same everywhere, a
  // step at an address, one per sector parity, or a step then hashed; so
  // loaded data may differ between lanes, split them along their
  // addresses, or be the same in every lane though the analysis cannot
  // tell.
  std::uint64_t memory_seed;
  int memory_kind;
  std::int64_t memory_step;
  int checked = 0;     // accesses checked
  int undercounts = 0;  // of which charged too little
  std::string first_undercount;
  // A lane read a register it never wrote, or a value wrapped around its
  // 32 bits: outside what the analysis assumes (docs/trace-formats.md).
  bool outside = false;
  bool ended = false;    // every lane left within the step limit

  // Warp `warp` of a block of `shape`; the analysis is told the shape only
  // when `shape_known`.
  SimtRun(const Program& prog, std::mt19937_64& g, BlockShape s = BlockShape{kLanes, 1, 1},
          std::uint32_t w = 0, bool shape_known = true)
      : p(prog), shape(s), warp(w), analysis(shape_known ? s : BlockShape{}), memory_seed(g()) {
    for (int l = 0; l < kLanes; ++l) regs[0][static_cast<std::size_t>(l)] = thread(l) % shape.x;
    params = {static_cast<std::int64_t>(g() % 300), static_cast<std::int64_t>(g() % 300)};
    for (int k = kFirstLate; k < kRegs; ++k) written[k].assign(kLanes, false);
    memory_kind = static_cast<int>(g() % 5);
    memory_step = static_cast<std::int64_t>(g() % 400);
    float_params = {g() % 2 == 0, g() % 2 == 0};
  }

  std::int64_t thread(int lane) const { return std::int64_t{warp} * kLanes + lane; }

  std::int64_t memory(std::int64_t address) const {
    const auto hash = static_cast<std::int64_t>(
        ((static_cast<std::uint64_t>(address) ^ memory_seed) * 0x9E3779B97F4A7C15ull) >> 58);
    switch (memory_kind) {
      case 0: return hash;
      case 1: return memory_step % 40;
      case 2: return address < memory_step ? 0 : 40;
      case 3: return ((address >> 5) & 1) * 20;
      default: return address < memory_step ? 3 : hash;
    }
  }

  static bool compare(const std::string& op, std::int64_t x, std::int64_t y) {
    if (op == "lt") return x < y;
    if (op == "le") return x <= y;
    if (op == "gt") return x > y;
    if (op == "ge") return x >= y;
    if (op == "eq") return x == y;
    return x != y;
  }

  // What the active lanes' addresses in %r<a> cost: 32-byte sectors, or
  // the most distinct words in one shared bank.
  std::size_t real_cost(const Ins& in, const Mask& mask) const {
    std::set<std::int64_t> sectors;
    std::map<std::int64_t, std::set<std::int64_t>> bank_words;
    for (std::size_t l = 0; l < kLanes; ++l) {
      if (!mask[l]) continue;
      const std::int64_t address = regs[in.a][l];
      sectors.insert(address >> 5);
      const std::int64_t word = address >> 2;  // floor, as for the sectors
      bank_words[word & (kSharedBanks - 1)].insert(word);
    }
    if (in.kind != Ins::load_shared) return sectors.size();
    std::size_t passes = 0;
    for (const auto& [bank, words] : bank_words) passes = std::max(passes, words.size());
    return passes;
  }

  // Feeds instruction i, run by the lanes of `running`, to the analysis and
  // executes it.
  void execute(int i, const Mask& running) {
    const Ins& in = p.code[static_cast<std::size_t>(i)];
    // A guarded instruction acts in the lanes whose guard holds.
    Mask mask = running;
    if (in.guard != 0) {
      for (std::size_t l = 0; l < kLanes; ++l) mask[l] = running[l] && pred[in.guard][l] != in.guard_negated;
    }
    const PtxInstruction w = ptx_of(in);
    const std::vector<std::string_view> operands(w.operands.begin(), w.operands.end());
    const TraceLocation at{0x1000 + kPtxInstructionBytes * static_cast<std::uint64_t>(i), "r.ptx", in.line, {}};
    const AccessCost cost = analysis.step(w.opcode, w.guard, operands, at);
    auto each = [&](auto f) {
      for (std::size_t l = 0; l < kLanes; ++l) {
        if (mask[l]) f(l);
      }
    };
    // Past a lane reading a register it never wrote, accesses are not
    // checked.
    auto reads = [&](int reg) {
      if (reg >= 0) each([&](std::size_t l) { outside = outside || !written[static_cast<std::size_t>(reg)][l]; });
    };
    // Registers are 32-bit (.s32): a value wraps as PTX wraps it, and from
    // then on accesses are not checked.
    auto set = [&](auto value, auto defined) {
      each([&](std::size_t l) {
        const std::int64_t v = value(l);
        regs[in.dst][l] = static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
        outside = outside || regs[in.dst][l] != v;
        written[in.dst][l] = defined(l);
      });
    };
    auto setp = [&](auto holds) {
      pred[in.p].resize(kLanes);
      each([&](std::size_t l) { pred[in.p][l] = holds(l); });
    };
    // The first source register's value and whether it was written.
    auto A = [&](std::size_t l) { return regs[in.a][l]; };
    auto wa = [&](std::size_t l) { return bool(written[in.a][l]); };
    switch (in.kind) {
      case Ins::mov_tid:
      case Ins::bra:
      case Ins::jmp:
      case Ins::exit:
      case Ins::bar:  // one warp: the barrier waits for nothing, whatever its lanes
      case Ins::load_float_param:
        break;
      case Ins::mov_tid_y:
        set([&](std::size_t l) { return thread(static_cast<int>(l)) / shape.x % shape.y; },
            [](std::size_t) { return true; });
        break;
      case Ins::mov_const:
        set([&](std::size_t) { return in.c; }, [](std::size_t) { return true; });
        break;
      case Ins::load_param:
        set([&](std::size_t) { return params[static_cast<std::size_t>(in.c)]; }, [](std::size_t) { return true; });
        break;
      case Ins::setp_float:
        setp([&](std::size_t) { return float_params[static_cast<std::size_t>(in.c - 1)]; });
        break;
      case Ins::add:
        reads(in.a);
        reads(in.b);
        set([&](std::size_t l) { return A(l) + regs[in.b][l]; },
            [&](std::size_t l) { return wa(l) && bool(written[in.b][l]); });
        break;
      case Ins::add_const:
        reads(in.a);
        set([&](std::size_t l) { return A(l) + in.c; }, [&](std::size_t l) { return wa(l); });
        break;
      case Ins::mul_const:
        reads(in.a);
        set([&](std::size_t l) { return A(l) * in.c; }, [&](std::size_t l) { return wa(l); });
        break;
      case Ins::max:
      case Ins::min: {
        reads(in.a);
        reads(in.b);
        auto second = [&](std::size_t l) { return in.b < 0 ? in.c : regs[in.b][l]; };
        set([&](std::size_t l) { return in.kind == Ins::max ? std::max(A(l), second(l)) : std::min(A(l), second(l)); },
            [&](std::size_t l) { return wa(l) && (in.b < 0 || bool(written[in.b][l])); });
        break;
      }
      case Ins::selp:
        reads(in.a);
        reads(in.b);
        set([&](std::size_t l) { return pred[in.p][l] ? A(l) : regs[in.b][l]; },
            [&](std::size_t l) { return pred[in.p][l] ? wa(l) : bool(written[in.b][l]); });
        break;
      case Ins::load_data:
      case Ins::load:
      case Ins::load_shared: {
        reads(in.a);
        bool defined = true;
        each([&](std::size_t l) { defined = defined && wa(l); });
        if (defined && !outside) {
          const std::size_t real = real_cost(in, mask);
          ++checked;
          if (cost.passes < real && undercounts++ == 0) {
            first_undercount = "line " + std::to_string(in.line) + ": charged " + std::to_string(cost.passes) +
                               ", real " + std::to_string(real);
          }
        }
        if (in.kind == Ins::load_data) set([&](std::size_t l) { return memory(A(l)); }, [&](std::size_t l) { return wa(l); });
        break;
      }
      case Ins::setp:
        reads(in.a);
        setp([&](std::size_t l) {
          return in.unsigned_cmp ? compare(in.cmp, static_cast<std::uint32_t>(A(l)), static_cast<std::uint32_t>(in.c))
                                 : compare(in.cmp, A(l), in.c);
        });
        break;
      case Ins::and_pred:
        setp([&](std::size_t l) { return pred[in.a][l] && pred[in.b][l]; });
        break;
    }
  }

  // Runs the warp to its end, or 100,000 instructions.
  void run() {
    struct Entry {
      int pc, join;
      Mask mask;
    };
    const int ret = static_cast<int>(p.code.size());
    const std::vector<int> ipdom = immediate_post_dominators(successors(p));
    constexpr int kBottom = -1;
    // The last warp of a block may be partial: its other lanes never run.
    const std::int64_t threads = std::int64_t{shape.x} * shape.y * shape.z;
    Mask present(kLanes);
    for (int l = 0; l < kLanes; ++l) present[static_cast<std::size_t>(l)] = thread(l) < threads;
    std::vector<Entry> stack{{0, kBottom, present}};
    auto any = [](const Mask& m) { return std::count(m.begin(), m.end(), true) > 0; };
    for (int steps = 0; !stack.empty() && steps < 100000; ++steps) {
      if (!any(stack.back().mask)) {  // its lanes have all left
        stack.pop_back();
        continue;
      }
      const int i = stack.back().pc;
      if (i > ret) {
        ADD_FAILURE() << "lanes left waiting at the exit";
        return;
      }
      const Mask mask = stack.back().mask;
      std::vector<int> next(kLanes, -1);  // -1: the lane leaves
      if (i == ret) {
        analysis.step("ret", "", {}, TraceLocation{0x1000 + kPtxInstructionBytes * static_cast<std::uint64_t>(i), "r.ptx", p.line, {}});
      } else {
        execute(i, mask);
        const Ins& in = p.code[static_cast<std::size_t>(i)];
        for (std::size_t l = 0; l < kLanes; ++l) {
          if (!mask[l]) continue;
          if (in.kind == Ins::exit) {
            next[l] = in.guard == 0 || pred[in.guard][l] != in.guard_negated ? -1 : i + 1;
          } else if (in.kind == Ins::bra) {
            next[l] = pred[in.p][l] != in.negate ? in.target : i + 1;
          } else if (in.kind == Ins::jmp) {
            next[l] = in.target;
          } else {
            next[l] = i + 1;
          }
        }
      }
      // Leaving lanes leave every entry.
      for (std::size_t l = 0; l < kLanes; ++l) {
        if (mask[l] && next[l] == -1) {
          for (Entry& e : stack) e.mask[l] = false;
        }
      }
      // The groups: the fall-through one first.
      Mask fall(kLanes, false), other(kLanes, false);
      int other_pc = -1;
      for (std::size_t l = 0; l < kLanes; ++l) {
        if (!mask[l] || next[l] == -1) continue;
        if (next[l] == i + 1) {
          fall[l] = true;
        } else {
          other[l] = true;
          other_pc = next[l];
        }
      }
      std::vector<std::pair<int, Mask>> groups;
      if (any(fall)) groups.emplace_back(i + 1, fall);
      if (any(other)) groups.emplace_back(other_pc, other);
      const int outer = stack.back().join;
      bool diverged = false;
      int join = 0;
      for (const auto& [pc, lanes] : groups) {
        if (pc == outer) continue;
        if (groups.size() > 1 && !diverged) {
          diverged = true;
          join = ipdom[static_cast<std::size_t>(i)];  // the exit node when none
          if (join != outer) {
            stack.back().pc = join;
            stack.push_back(Entry{0, 0, {}});
          }
        }
        if (diverged && pc == join) continue;
        stack.back() = Entry{pc, diverged ? join : outer, lanes};
        stack.push_back(Entry{0, 0, {}});
      }
      stack.pop_back();
    }
    ended = stack.empty();
  }
};

}  // namespace gpuwcet::tools::random_kernels
