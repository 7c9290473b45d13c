// Join points from the PTX file against an independent reference: the
// random kernels of random_simt_kernels.hpp, printed as a PTX file, run by a
// SIMT interpreter that follows GPGPU-Sim's stack update rule for rule
// (simt_stack::update in its abstract_hardware_model.cc: the fall-through
// group is written first and the taken one runs first; a group at the top
// entry's join point waits there; a split turns the top entry into one that
// waits at the branch's join point, unless that is the top's own; lanes that
// exit leave every entry), with each branch's join point found by brute
// force: the instruction closest to it that every path from it to the exit
// passes, the exit itself when none (guarded exits make that happen). The
// analysis follows the printed file (LaneValueAnalysis::follow); every
// global access the interpreter runs must cost at most what it charges.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gpuwcet_tools/ptx_control_flow.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "random_simt_kernels.hpp"

using namespace gpuwcet::tools;
using namespace gpuwcet::tools::random_kernels;

namespace {

// The kernel as a PTX file: each instruction on its source line, a label
// on the line before each branch target, and a final ret.
std::string ptx_text(const Program& p) {
  std::vector<std::string> lines(p.line + 2);
  lines[1] = ".visible .entry k(";
  lines[2] = ")";
  lines[3] = "{";
  auto guard = [](int g, bool negated) {
    return g == 0 ? std::string() : fmt::format("@{}%p{} ", negated ? "!" : "", g);
  };
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    const Ins& in = p.code[i];
    const std::string g = guard(in.guard, in.guard_negated);
    const std::string d = r(in.dst), a = r(in.a), b = r(in.b), c = std::to_string(in.c);
    std::string text;
    switch (in.kind) {
      case Ins::mov_tid: text = "mov.u32 %r0, %tid.x;"; break;
      case Ins::mov_const: text = g + "mov.u32 " + d + ", " + c + ";"; break;
      case Ins::load_param: text = "ld.param.u32 " + d + ", [k_param_" + c + "];"; break;
      case Ins::add: text = g + "add.s32 " + d + ", " + a + ", " + b + ";"; break;
      case Ins::add_const: text = "add.s32 " + d + ", " + a + ", " + c + ";"; break;
      case Ins::mul_const: text = g + "mul.lo.s32 " + d + ", " + a + ", " + c + ";"; break;
      case Ins::max: case Ins::min:
        text = std::string(in.kind == Ins::max ? "max.s32 " : "min.s32 ") + d + ", " + a + ", " +
               (in.b < 0 ? c : b) + ";";
        break;
      case Ins::selp: text = "selp.b32 " + d + ", " + a + ", " + b + ", %p" + std::to_string(in.p) + ";"; break;
      case Ins::load_data: case Ins::load:
        text = g + "ld.global.u8 " + (in.kind == Ins::load ? std::string("%r99") : d) + ", [" + a + "];";
        break;
      case Ins::setp:
        text = "setp." + in.cmp + (in.unsigned_cmp ? ".u32" : ".s32") + " %p" + std::to_string(in.p) +
               ", " + a + ", " + c + ";";
        break;
      case Ins::bra: text = guard(in.p, in.negate) + "bra L" + std::to_string(in.target) + ";"; break;
      case Ins::jmp: text = "bra.uni L" + std::to_string(in.target) + ";"; break;
      case Ins::exit: text = g + "exit;"; break;
      case Ins::and_pred:
        text = fmt::format("and.pred %p{}, %p{}, %p{};", in.p, in.a, in.b);
        break;
      case Ins::bar: text = "bar.sync 0;"; break;
    }
    lines[in.line] = text;
    if (in.kind == Ins::bra || in.kind == Ins::jmp) {
      const std::size_t t = static_cast<std::size_t>(in.target);
      lines[(t < p.code.size() ? p.code[t].line : p.line) - 1] = "L" + std::to_string(in.target) + ":";
    }
  }
  lines[p.line] = "ret;";
  lines[p.line + 1] = "}";
  std::string out;
  for (std::size_t k = 1; k < lines.size(); ++k) out += lines[k] + "\n";
  return out;
}

// Each instruction's successors; node code.size() is the final ret, and
// code.size() + 1 the exit.
std::vector<std::vector<int>> successors(const Program& p) {
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
std::vector<int> immediate_post_dominators(const std::vector<std::vector<int>>& succ) {
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

struct FaithfulRun : SimtRun {
  using SimtRun::SimtRun;

  void run_gpgpusim() {
    struct Entry {
      int pc, join;
      std::vector<bool> mask;
    };
    const int ret = static_cast<int>(p.code.size());
    const std::vector<int> ipdom = immediate_post_dominators(successors(p));
    constexpr int kBottom = -1;
    std::vector<Entry> stack{{0, kBottom, std::vector<bool>(kLanes, true)}};
    auto any = [](const std::vector<bool>& m) { return std::count(m.begin(), m.end(), true) > 0; };
    for (int steps = 0; !stack.empty() && steps < 20000; ++steps) {
      if (!any(stack.back().mask)) {  // its lanes have all left
        stack.pop_back();
        continue;
      }
      const int i = stack.back().pc;
      if (i > ret) {
        ADD_FAILURE() << "lanes left waiting at the exit";
        break;
      }
      const std::vector<bool> mask = stack.back().mask;
      std::vector<int> next(kLanes, -1);  // -1: the lane leaves
      if (i == ret) {
        analysis.step("ret", "", {}, TraceLocation{0x1000 + 8 * static_cast<std::uint64_t>(i), "r.ptx", p.line});
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
      std::vector<bool> fall(kLanes, false), other(kLanes, false);
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
      std::vector<std::pair<int, std::vector<bool>>> groups;
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
  }
};

struct Counts {
  int accesses = 0, followed = 0, kernels = 0, outside = 0;
};

// `n` random kernels, each run as warp `warp_of(rng)` of a block of
// `shape_of(rng)`.
template <typename Shape, typename Warp>
Counts run_random_kernels(std::uint64_t seed, int n, Shape shape_of, Warp warp_of) {
  std::mt19937_64 rng(seed);
  Counts c;
  for (int k = 0; k < n; ++k) {
    const Program p = random_kernel(rng);
    const PtxControlFlow flow = PtxControlFlow::parse("r.ptx", ptx_text(p));
    const BlockShape shape = shape_of(rng);
    const std::uint32_t warp = warp_of(rng, shape);
    FaithfulRun run(p, rng, shape, warp);
    run.analysis.follow(&flow);
    try {
      run.run_gpgpusim();
    } catch (const ToolError& e) {
      // A lane read a register it never wrote: the branch the analysis took
      // for the same in every lane split the warp, and the trace leaves the
      // stack the analysis follows. It says so rather than go on unsound.
      EXPECT_TRUE(run.outside) << "kernel " << k << ": " << e.what() << "\n" << ptx_text(p);
      ++c.outside;
      continue;
    }
    c.accesses += run.checked;
    ++c.kernels;
    if (run.analysis.flow_left().empty()) ++c.followed;
  }
  return c;
}

TEST(LaneFlow, RandomKernelsWithTheirPtxFileNeverCostMoreThanCharged) {
  const Counts c = run_random_kernels(
      2027, 20000, [](std::mt19937_64&) { return BlockShape{kLanes, 1, 1}; },
      [](std::mt19937_64&, BlockShape) { return 0u; });
  EXPECT_GT(c.accesses, 5000) << c.accesses;
  EXPECT_LT(c.outside, c.kernels / 10) << c.outside;
  // Splits on data, guarded exits and all: the stack is followed to the end
  // of nearly every kernel (what stops it: more than kMaxFlowStacks stacks).
  EXPECT_GT(c.followed, c.kernels - c.kernels / 100) << c.followed << " of " << c.kernels;
}

// One warp of a bigger block: tid.x runs past 32 (64 and 96 threads), or
// repeats within the warp (16 x 4 and 8 x 8). Branches then split some warps
// of the block and not others, and the analysis follows each.
TEST(LaneFlow, RandomKernelsInOneWarpOfABlockNeverCostMoreThanCharged) {
  static const BlockShape kShapes[] = {{64, 1, 1}, {96, 1, 1}, {16, 4, 1}, {8, 8, 1}};
  const Counts c = run_random_kernels(
      2028, 8000, [](std::mt19937_64& rng) { return kShapes[rng() % 4]; },
      [](std::mt19937_64& rng, BlockShape s) {
        return static_cast<std::uint32_t>(rng() % (s.x * s.y * s.z / kLanes));
      });
  EXPECT_GT(c.accesses, 2000) << c.accesses;
  EXPECT_LT(c.outside, c.kernels / 10) << c.outside;
  EXPECT_GT(c.followed, c.kernels - c.kernels / 100) << c.followed << " of " << c.kernels;
}

}  // namespace
