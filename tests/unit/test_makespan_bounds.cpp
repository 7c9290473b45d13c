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

std::uint64_t idle_bound(const Instance& in, std::uint64_t w) {
  std::vector<std::uint8_t> cls(in.instr.begin(), in.instr.end());
  std::uint64_t c = 0;
  EXPECT_EQ(order_aware_makespan_bound(in.shape, cls, w, c), Status::ok);
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
  // {1/2, 1, 2, 3}, W up to 8 (fewer on longer transformed strings): both
  // safe bounds are never below the enumerated worst case, the lower bound
  // never above it, and the paper's estimate is below the worst case
  // somewhere only when a sigma exceeds 1.
  const std::uint32_t units[] = {16, 32, 64, 96};
  int paper_unsafe_sigma1 = 0;
  int paper_unsafe_total = 0;
  int idle_tighter = 0;
  int checked = 0;
  for (int len = 1; len <= 6; ++len) {
    for (int bits = 0; bits < (1 << len); ++bits) {
      std::string k;
      for (int i = 0; i < len; ++i) k += (bits >> i & 1) ? 'C' : 'L';
      for (std::uint32_t lu : units) {
        for (std::uint32_t cu : units) {
          const Instance in = make(k, lu, cu);
          if (in.shape.length > 8) continue;  // keep the enumeration small
          // W up to 8 on transformed lengths up to 4, 5 up to length 6, 4 beyond (the
          // enumerator's states grow as C(W + I', I')).
          const int max_w = in.shape.length <= 4 ? 8 : in.shape.length <= 6 ? 5 : 4;
          for (int w = 1; w <= max_w; ++w) {
            const std::uint64_t worst = brute(in, w);
            ASSERT_GE(safe_bound(in, w), worst) << k << " L=" << lu << " C=" << cu << " W=" << w;
            const std::uint64_t idle = idle_bound(in, w);
            ASSERT_GE(idle, worst) << k << " L=" << lu << " C=" << cu << " W=" << w;
            ASSERT_LE(idle, safe_bound(in, w));
            if (idle < safe_bound(in, w)) ++idle_tighter;
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
  EXPECT_GT(idle_tighter, 0);         // the order-aware bound does improve somewhere
}

TEST(MakespanBounds, OrderAwareBoundIsExactOnThePaperStrings) {
  // Fig. 6's LLCLL (sigma 1/1) and Fig. 7's LCLCL with sigma_L = 1/2
  // (transformed LLCLLCLL): the bound equals the enumerated worst case for
  // every W the enumerator reaches (Fig. 7: except W = 2, 14 against 13),
  // while the safe pessimistic bound is W * I'.
  const Instance fig6 = make("LLCLL", 32, 32);
  const Instance fig7 = make("LCLCL", 16, 32);
  for (int w = 1; w <= 6; ++w) {
    EXPECT_EQ(idle_bound(fig6, static_cast<std::uint64_t>(w)), brute(fig6, w)) << "W=" << w;
    const std::uint64_t worst7 = brute(fig7, w);
    EXPECT_EQ(idle_bound(fig7, static_cast<std::uint64_t>(w)), worst7 + (w == 2 ? 1 : 0)) << "W=" << w;
  }
  // At the paper's sizes it is the formula of docs/makespan-search.md, B2.
  EXPECT_EQ(idle_bound(fig6, 600), 4u * 600u + 1u);
  EXPECT_EQ(idle_bound(fig7, 420), 6u * 420u + 2u);
}

TEST(MakespanBounds, SingleWarpIsExact) {
  const Instance in = make("LCLLC", 96, 64);
  std::uint64_t lower = 0;
  ASSERT_EQ(makespan_lower_bound(in.shape, 1, lower), Status::ok);
  EXPECT_EQ(safe_bound(in, 1), 5u);
  EXPECT_EQ(lower, 5u);
}

// ceil(W * count / capacity) without its product: W = 2^63, count 2,
// capacity 2 gives 2^63 (the product 2^64 does not fit); where (W mod c) *
// count cannot be formed (hand-made shape: capacity 2^40, count 2^30, W =
// 2^39 < capacity) that term, below count, is dropped and the bound stays a
// lower bound (here I' = 2^30). A capacity of 0 is refused.
TEST(MakespanBounds, LowerBoundWithoutItsProduct) {
  TransformedShape shape;
  shape.class_count = 1;
  shape.repeat[0] = 1;
  shape.capacity[0] = 2;
  shape.count[0] = 2;
  shape.length = 2;
  std::uint64_t c = 0;
  ASSERT_EQ(makespan_lower_bound(shape, std::uint64_t{1} << 63, c), Status::ok);
  EXPECT_EQ(c, std::uint64_t{1} << 63);
  shape.capacity[0] = std::uint64_t{1} << 40;
  shape.count[0] = shape.length = std::uint64_t{1} << 30;
  ASSERT_EQ(makespan_lower_bound(shape, std::uint64_t{1} << 39, c), Status::ok);
  EXPECT_EQ(c, std::uint64_t{1} << 30);  // the true value, ceil(2^69 / 2^40) = 2^29, is below I'
  shape.capacity[0] = 0;
  EXPECT_EQ(makespan_lower_bound(shape, 4, c), Status::invalid_argument);
}

// LL on 64 L units (capacity 2): 2 + floor((W - 1) * 2 / 2) = W + 1 for
// W = 2^63 + 5, although (W - 1) * 2 passes 64 bits.
TEST(MakespanBounds, SafeBoundFitsWhereverItsValueDoes) {
  const Instance in = make("LL", 64, 32);
  std::uint64_t c = 0;
  const std::uint64_t w = (std::uint64_t{1} << 63) + 5;
  ASSERT_EQ(safe_pessimistic_makespan(in.shape, w, c), Status::ok);
  EXPECT_EQ(c, w + 1);
  // The order-aware bound: B1 the same, B2 (L has capacity 2) not formed.
  const std::vector<std::uint8_t> cls(in.instr.begin(), in.instr.end());
  c = 0;
  ASSERT_EQ(order_aware_makespan_bound(in.shape, cls, w, c), Status::ok);
  EXPECT_EQ(c, w + 1);
  EXPECT_EQ(safe_pessimistic_makespan(in.shape, ~0ull, c), Status::overflow);  // 2^64
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
  std::vector<std::uint8_t> cls(two.instr.begin(), two.instr.end());
  EXPECT_EQ(order_aware_makespan_bound(two.shape, cls, 0, c), Status::zero_warps);
  EXPECT_EQ(order_aware_makespan_bound(two.shape, cls, ~0ull, c), Status::overflow);
  EXPECT_EQ(order_aware_makespan_bound(two.shape, gsl::span<const std::uint8_t>(cls.data(), 2), 4, c),
            Status::invalid_argument);  // shorter than the shape
  cls[0] = 7;
  EXPECT_EQ(order_aware_makespan_bound(two.shape, cls, 4, c), Status::invalid_argument);
  cls[0] = 1;  // LLC -> CLC: counts no longer match the shape
  EXPECT_EQ(order_aware_makespan_bound(two.shape, cls, 4, c), Status::invalid_argument);
}

}  // namespace
}  // namespace gpuwcet
