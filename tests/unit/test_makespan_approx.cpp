// The approximation of Eqs. (42)-(43) against the formula evaluated on the
// independent brute-force enumerator, and its published unsafety.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "brute_force_makespan.hpp"
#include "gpuwcet/makespan_approx.hpp"

namespace gpuwcet {
namespace {

struct Problem {
  std::vector<std::uint8_t> instr;
  MakespanInstance in;
};

Problem make(const std::string& kernel, std::uint64_t cl, std::uint64_t cc, std::uint64_t warps) {
  Problem p;
  for (char c : kernel) p.instr.push_back(c == 'L' ? 0 : 1);
  p.in.instr = p.instr;
  p.in.class_count = 2;
  p.in.capacity[0] = cl;
  p.in.capacity[1] = cc;
  p.in.warps = warps;
  return p;
}

Status approx(const Problem& p, std::uint64_t x, ApproxResult& r, SearchOptions o = {}) {
  std::size_t bytes = 0;
  const Status st = makespan_approx_arena_bytes(p.in, x, o, bytes);
  if (st != Status::ok) return st;
  std::vector<std::byte> arena(bytes);
  return approximate_makespan(p.in, x, o, arena, r);
}

std::uint64_t brute(const Problem& p, std::uint64_t warps) {
  std::vector<int> instr(p.instr.begin(), p.instr.end());
  testing::BruteForceMakespan bf(instr, {static_cast<int>(p.in.capacity[0]),
                                         static_cast<int>(p.in.capacity[1])});
  return bf.worst(static_cast<int>(warps));
}

TEST(MakespanApprox, LclIsTheCounterexample) {
  // T(2) = 4, so Eq. (43) gives 2 * 4 = 8 with x = 2, but the worst case is 9.
  ApproxResult r;
  ASSERT_EQ(approx(make("LCL", 1, 1, 4), 2, r), Status::ok);
  EXPECT_EQ(r.estimate, 8u);
  EXPECT_EQ(r.best_group, 2u);
  EXPECT_EQ(r.group_makespan, 4u);
  EXPECT_TRUE(r.exact_terms);
  EXPECT_EQ(brute(make("LCL", 1, 1, 4), 4), 9u);
}

TEST(MakespanApprox, EqualsTheFormulaOnBruteForceValues) {
  for (const char* k : {"LLC", "LCL", "LLCLL", "CLC", "LC"}) {
    for (std::uint64_t cl = 1; cl <= 2; ++cl) {
      for (std::uint64_t w = 1; w <= 6; ++w) {
        for (std::uint64_t x = 1; x <= 4; ++x) {
          const Problem p = make(k, cl, 1, w);
          ApproxResult r;
          ASSERT_EQ(approx(p, x, r), Status::ok);
          std::uint64_t expect = ~std::uint64_t{0};
          for (std::uint64_t y = 1; y <= std::min(x, w); ++y) {
            expect = std::min(expect, ((w + y - 1) / y) * brute(p, y));
          }
          EXPECT_EQ(r.estimate, expect) << k << " cl=" << cl << " W=" << w << " x=" << x;
        }
      }
    }
  }
}

TEST(MakespanApprox, BudgetAndBadInput) {
  const Problem p = make("LLCLL", 1, 1, 12);
  SearchOptions o;
  o.max_nodes = 1;
  ApproxResult r;
  const Status st = approx(p, 6, r, o);
  EXPECT_TRUE(st == Status::budget_exhausted || st == Status::ok);
  EXPECT_EQ(r.exact_terms, st == Status::ok);
  EXPECT_GT(r.estimate, 0u);
  std::size_t bytes = 0;
  EXPECT_EQ(makespan_approx_arena_bytes(p.in, 0, o, bytes), Status::invalid_argument);
  ASSERT_EQ(makespan_approx_arena_bytes(p.in, 3, o, bytes), Status::ok);
  std::vector<std::byte> arena(bytes - 1);
  EXPECT_EQ(approximate_makespan(p.in, 3, o, arena, r), Status::buffer_too_small);
  EXPECT_EQ(approx(make("LC", 1, 1, 0), 2, r), Status::zero_warps);
}

}  // namespace
}  // namespace gpuwcet
