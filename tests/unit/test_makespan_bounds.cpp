// Closed-form makespan bounds: the paper's examples, the two published
// counterexamples, and safety against an independent brute-force enumerator.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "brute_force_makespan.hpp"
#include "gpuwcet/makespan_bounds.hpp"

namespace gpuwcet {
namespace {

struct Instance {
  SmDescription sm;
  TransformedShape shape;
  std::vector<int> instr;
};

// Kernel over {L, C}; sigma_L = sl, sigma_C = sc given as units over S = 32.
Instance make(const std::string& kernel, std::uint32_t l_units, std::uint32_t c_units) {
  Instance in;
  in.sm.warp_size = 32;
  EXPECT_EQ(in.sm.add_class('L', l_units), Status::ok);
  EXPECT_EQ(in.sm.add_class('C', c_units), Status::ok);
  EXPECT_EQ(analyze_kernel(in.sm, kernel, in.shape), Status::ok);
  std::vector<std::uint8_t> cls(in.shape.length);
  std::size_t n = 0;
  EXPECT_EQ(transform_to_classes(in.sm, kernel, cls, n), Status::ok);
  in.instr.assign(cls.begin(), cls.end());
  return in;
}

std::uint64_t safe_bound(const Instance& in, std::uint64_t w) {
  std::uint64_t c = 0;
  EXPECT_EQ(safe_pessimistic_makespan(in.shape, w, c), Status::ok);
  return c;
}

std::uint64_t paper(const Instance& in, std::uint64_t w) {
  std::uint64_t c = 0;
  EXPECT_EQ(paper_pessimistic_estimate(in.shape, w, c), Status::ok);
  return c;
}

std::uint64_t brute(const Instance& in, int w) {
  testing::BruteForceMakespan bf(in.instr, {static_cast<int>(in.shape.capacity[0]),
                                            static_cast<int>(in.shape.capacity[1])});
  return bf.worst(w);
}

TEST(MakespanBounds, CounterexampleLLSigma2W4) {
  // Published finding: `LL`, sigma_L = 2, W = 4. Eqs. (5)-(7) give
  // ceil(4/2) * 2 = 4, but a work-conserving schedule takes 5.
  const Instance in = make("LL", 64, 32);
  EXPECT_EQ(paper(in, 4), 4u);
  EXPECT_EQ(brute(in, 4), 5u);  // the enumerator confirms the 5-cycle schedule
  EXPECT_GE(safe_bound(in, 4), 5u);
}

TEST(MakespanBounds, PaperEstimateIsWTimesIWhenEverySigmaIsOne) {
  // With every sigma = 1 the paper's formula is W * I (fully serial), e.g.
  // the Fig. 1 kernel `LLC` with W = 4: 12 cycles; our safe bound agrees there.
  const Instance in = make("LLC", 32, 32);
  EXPECT_EQ(paper(in, 4), 12u);
  EXPECT_EQ(safe_bound(in, 4), 12u);
  EXPECT_GE(safe_bound(in, 4), brute(in, 4));
  EXPECT_EQ(brute(in, 4), 9u);  // Fig. 2: the worst case of `LLC`, W = 4, is 9 cycles
}

TEST(MakespanBounds, Figure1TransformationFeedsTheBound) {
  // `LC` with L = 16, C = 32 is `LLC` with unit capacities (Fig. 1).
  const Instance a = make("LC", 16, 32);
  const Instance b = make("LLC", 32, 32);
  for (std::uint64_t w = 1; w <= 8; ++w) EXPECT_EQ(safe_bound(a, w), safe_bound(b, w));
}

TEST(MakespanBounds, SafeBoundIsAtLeastWorstCaseOnAllSmallInstances) {
  // Every string over {L, C} up to length 6, sigma_L and sigma_C in
  // {1/2, 1, 2, 3}, W up to 8: the bound is never below the enumerated worst
  // case, the lower bound never above it, and the paper's estimate is below
  // the worst case somewhere only when a sigma exceeds 1.
  const std::uint32_t units[] = {16, 32, 64, 96};
  int paper_unsafe_sigma1 = 0;
  int paper_unsafe_total = 0;
  int checked = 0;
  for (int len = 1; len <= 6; ++len) {
    for (int bits = 0; bits < (1 << len); ++bits) {
      std::string k;
      for (int i = 0; i < len; ++i) k += (bits >> i & 1) ? 'C' : 'L';
      for (std::uint32_t lu : units) {
        for (std::uint32_t cu : units) {
          const Instance in = make(k, lu, cu);
          if (in.shape.length > 8) continue;  // keep the enumeration small
          for (int w = 1; w <= 8; ++w) {
            const std::uint64_t worst = brute(in, w);
            ASSERT_GE(safe_bound(in, w), worst) << k << " L=" << lu << " C=" << cu << " W=" << w;
            std::uint64_t lower = 0;
            ASSERT_EQ(makespan_lower_bound(in.shape, w, lower), Status::ok);
            ASSERT_LE(lower, worst) << k << " L=" << lu << " C=" << cu << " W=" << w;
            if (paper(in, w) < worst) {
              ++paper_unsafe_total;
              if (lu <= 32 && cu <= 32) ++paper_unsafe_sigma1;
            }
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(paper_unsafe_total, 0);   // the finding is real
  EXPECT_EQ(paper_unsafe_sigma1, 0);  // and needs some sigma > 1
}

TEST(MakespanBounds, SingleWarpIsExact) {
  const Instance in = make("LCLLC", 96, 64);
  std::uint64_t lower = 0;
  ASSERT_EQ(makespan_lower_bound(in.shape, 1, lower), Status::ok);
  EXPECT_EQ(safe_bound(in, 1), 5u);
  EXPECT_EQ(lower, 5u);
}

TEST(MakespanBounds, BadInput) {
  const Instance in = make("LC", 32, 32);
  std::uint64_t c = 0;
  EXPECT_EQ(safe_pessimistic_makespan(in.shape, 0, c), Status::zero_warps);
  EXPECT_EQ(paper_pessimistic_estimate(in.shape, 0, c), Status::zero_warps);
  EXPECT_EQ(makespan_lower_bound(in.shape, 0, c), Status::zero_warps);
  EXPECT_EQ(safe_pessimistic_makespan(in.shape, ~0ull, c), Status::overflow);
  EXPECT_EQ(paper_pessimistic_estimate(in.shape, ~0ull, c), Status::overflow);
  const Instance two = make("LLC", 32, 32);  // W * count[L] = W * 2 overflows
  EXPECT_EQ(makespan_lower_bound(two.shape, ~0ull, c), Status::overflow);
}

}  // namespace
}  // namespace gpuwcet
