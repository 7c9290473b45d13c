// The kernel-string transformation (ECRTS 2012, Sec. 3, Fig. 1) and input validation.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "gpuwcet/kernel_string.hpp"

namespace gpuwcet {
namespace {

SmDescription sm_of(std::uint32_t warp_size, std::initializer_list<UnitClass> classes) {
  SmDescription sm;
  sm.warp_size = warp_size;
  for (const auto& c : classes) EXPECT_EQ(sm.add_class(c.symbol, c.units), Status::ok);
  return sm;
}

std::string transformed(const SmDescription& sm, const std::string& kernel) {
  std::array<char, 256> buf{};
  std::size_t n = 0;
  EXPECT_EQ(transform_to_symbols(sm, kernel, buf, n), Status::ok);
  return std::string(buf.data(), n);
}

TEST(KernelString, Figure1LcWithHalfLoadUnitsBecomesLlc) {
  // Fig. 1 of the paper: L = 16, C = 32, S = 32 turns `LC` into `LLC`.
  const SmDescription sm = sm_of(32, {{'L', 16}, {'C', 32}});
  EXPECT_EQ(transformed(sm, "LC"), "LLC");
  TransformedShape shape;
  ASSERT_EQ(analyze_kernel(sm, "LC", shape), Status::ok);
  EXPECT_EQ(shape.length, 3u);
  EXPECT_EQ(shape.capacity[0], 1u);
  EXPECT_EQ(shape.capacity[1], 1u);
}

TEST(KernelString, RationalSigmaSplitsIntoSubWarpsWithCapacity) {
  // sigma_L = 48/32 = 3/2: each L becomes two half-warp instructions, three served per cycle.
  const SmDescription sm = sm_of(32, {{'L', 48}, {'C', 64}, {'S', 4}});
  EXPECT_EQ(sm.sigma(0).num, 3u);
  EXPECT_EQ(sm.sigma(0).den, 2u);
  EXPECT_EQ(sm.sigma(2).num, 1u);
  EXPECT_EQ(sm.sigma(2).den, 8u);
  EXPECT_EQ(transformed(sm, "LCS"), "LLCSSSSSSSS");
  TransformedShape shape;
  ASSERT_EQ(analyze_kernel(sm, "LCS", shape), Status::ok);
  EXPECT_EQ(shape.capacity[0], 3u);
  EXPECT_EQ(shape.capacity[1], 2u);
  EXPECT_EQ(shape.capacity[2], 1u);
  EXPECT_EQ(shape.count[2], 8u);
}

TEST(KernelString, ClassIndicesFollowDescriptionOrder) {
  const SmDescription sm = sm_of(32, {{'C', 32}, {'L', 16}});
  std::array<std::uint8_t, 8> buf{};
  std::size_t n = 0;
  ASSERT_EQ(transform_to_classes(sm, "LC", buf, n), Status::ok);
  ASSERT_EQ(n, 3u);
  EXPECT_EQ(buf[0], 1);
  EXPECT_EQ(buf[1], 1);
  EXPECT_EQ(buf[2], 0);
}

TEST(KernelString, BadInputGivesStatusAndPosition) {
  const SmDescription sm = sm_of(32, {{'L', 16}, {'C', 32}});
  TransformedShape shape;
  std::size_t at = 99;
  EXPECT_EQ(analyze_kernel(sm, "", shape), Status::empty_kernel);
  EXPECT_EQ(analyze_kernel(sm, "LCx", shape, &at), Status::unknown_symbol);
  EXPECT_EQ(at, 2u);
  EXPECT_EQ(analyze_kernel(sm, "LSC", shape, &at), Status::undescribed_class);
  EXPECT_EQ(at, 1u);
  std::array<char, 2> small{};
  std::size_t n = 0;
  EXPECT_EQ(transform_to_symbols(sm, "LC", small, n), Status::buffer_too_small);
  EXPECT_EQ(n, 0u);
}

TEST(SmDescription, RejectsBadDescriptions) {
  SmDescription sm;
  sm.warp_size = 32;
  EXPECT_EQ(sm.add_class('L', 0), Status::zero_units);
  EXPECT_EQ(sm.add_class('l', 4), Status::unknown_symbol);
  EXPECT_EQ(sm.add_class('L', 4), Status::ok);
  EXPECT_EQ(sm.add_class('L', 8), Status::duplicate_class);
  for (char c = 'A'; c < 'H'; ++c) EXPECT_EQ(sm.add_class(c, 1), Status::ok);
  EXPECT_EQ(sm.add_class('Z', 1), Status::too_many_classes);
  SmDescription no_size;
  EXPECT_EQ(no_size.validate(), Status::zero_warp_size);
  SmDescription raw;
  raw.warp_size = 32;
  raw.class_count = 2;
  raw.classes[0] = {'L', 1};
  raw.classes[1] = {'L', 2};
  EXPECT_EQ(raw.validate(), Status::duplicate_class);
  raw.class_count = 9;
  EXPECT_EQ(raw.validate(), Status::too_many_classes);
}

TEST(KernelString, HugeRepeatOverflowIsReported) {
  // sigma = 1 / (2^32 - 1) per instruction: fine; the length cannot overflow
  // with real string sizes, but the counting is checked all the same.
  const SmDescription sm = sm_of(0xFFFFFFFFu, {{'L', 1}});
  TransformedShape shape;
  ASSERT_EQ(analyze_kernel(sm, "LL", shape), Status::ok);
  EXPECT_EQ(shape.length, 2ull * 0xFFFFFFFFull);
}

}  // namespace
}  // namespace gpuwcet
