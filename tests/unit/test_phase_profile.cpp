// Algorithm 1 (phase_profile.hpp), the presets and the block bounds.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"

namespace gpuwcet {
namespace {

FunctionalUnit unit(const char* name, std::uint32_t initiation, std::uint32_t latency) {
  FunctionalUnit u;
  std::strncpy(u.name.data(), name, kUnitNameSize - 1);
  u.initiation = initiation;
  u.latency = latency;
  return u;
}

Instruction op(std::uint16_t u, std::vector<std::uint16_t> dst, std::vector<std::uint16_t> src) {
  Instruction i;
  i.unit = u;
  for (auto d : dst) i.dst[i.dst_count++] = d;
  for (auto s : src) i.src[i.src_count++] = s;
  return i;
}

Instruction kind_only(OpKind k) {
  Instruction i;
  i.kind = k;
  return i;
}

// The paper's Example 3 (Fig. 2).
HardwareDescription example3_hw() {
  HardwareDescription hw;
  hw.unit_count = 3;
  hw.units[0] = unit("FU0", 2, 6);
  hw.units[1] = unit("FU1", 3, 4);
  hw.units[2] = unit("FU2", 2, 4);
  return hw;
}

std::vector<Instruction> example3_code() {
  return {op(0, {0}, {}), op(1, {1}, {}), op(1, {2}, {}), op(2, {3}, {0}),
          kind_only(OpKind::exit)};
}

struct Profiled {
  Status status;
  ProfileResult result;
  std::vector<Phase> phases;
  std::vector<SectionSummary> sections;
};

Profiled profile(const HardwareDescription& hw, const std::vector<Instruction>& code,
                 std::size_t regs = 16, std::size_t max_phases = 64, std::size_t max_sections = 8) {
  Profiled p;
  std::vector<std::byte> arena(profile_arena_bytes(regs));
  p.phases.resize(max_phases);
  p.sections.resize(max_sections);
  p.status = profile_warp(hw, code, regs, arena, p.phases, p.sections, p.result);
  p.phases.resize(std::min(max_phases, p.result.phase_count));
  p.sections.resize(std::min(max_sections, p.result.section_count));
  return p;
}

TEST(PhaseProfile, Example3OfThePaper) {
  const Profiled p = profile(example3_hw(), example3_code());
  ASSERT_EQ(p.status, Status::ok);
  ASSERT_EQ(p.phases.size(), 4u);
  const std::array<std::array<std::uint64_t, 2>, 4> expect{{{0, 7}, {7, 8}, {8, 10}, {10, 14}}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(p.phases[i].start, expect[i][0]) << i;
    EXPECT_EQ(p.phases[i].start + p.phases[i].length, expect[i][1]) << i;
    EXPECT_EQ(p.phases[i].kind, i % 2 == 0 ? PhaseKind::execution : PhaseKind::idle) << i;
  }
  EXPECT_EQ(p.result.total_cycles, 14u);
  ASSERT_EQ(p.sections.size(), 1u);
  EXPECT_EQ(p.sections[0].execution, 9u);
  EXPECT_EQ(p.sections[0].idle, 5u);
  EXPECT_EQ(p.sections[0].issues, 4u);
  EXPECT_EQ(p.sections[0].length, 14u);
  EXPECT_EQ(p.sections[0].held[0], 1u);
  EXPECT_EQ(p.sections[0].held[1], 4u);
  EXPECT_EQ(p.result.instructions, 5u);
}

TEST(PhaseProfile, BarrierSplitsSectionsAtTheDrain) {
  std::vector<Instruction> code = example3_code();
  code.insert(code.begin() + 1, kind_only(OpKind::barrier));
  const Profiled p = profile(example3_hw(), code);
  ASSERT_EQ(p.status, Status::ok);
  ASSERT_EQ(p.sections.size(), 2u);
  EXPECT_EQ(p.sections[0].length, 8u);  // i0: held 2, written at 8
  EXPECT_EQ(p.sections[0].execution, 2u);
  EXPECT_EQ(p.sections[0].idle, 6u);
  EXPECT_EQ(p.phases[2].start, 8u);
  EXPECT_EQ(p.phases[2].section, 1u);
  EXPECT_EQ(p.result.total_cycles, p.sections[0].length + p.sections[1].length);
}

TEST(PhaseProfile, CountsPhasesWithoutStorage) {
  Profiled p;
  std::vector<std::byte> arena(profile_arena_bytes(16));
  std::array<SectionSummary, 1> sections{};
  const auto code = example3_code();
  EXPECT_EQ(profile_warp(example3_hw(), code, 16, arena, {}, sections, p.result), Status::ok);
  EXPECT_EQ(p.result.phase_count, 4u);
  std::array<Phase, 2> few{};
  EXPECT_EQ(profile_warp(example3_hw(), code, 16, arena, few, sections, p.result),
            Status::buffer_too_small);
  EXPECT_EQ(few[1].start, 7u);
  EXPECT_EQ(sections[0].length, 14u);
}

// Without a section buffer the call still runs, to tell the caller how many
// sections and phases to provide.
TEST(PhaseProfile, SizingCallCountsSectionsAndPhases) {
  std::vector<Instruction> code = example3_code();
  code.insert(code.begin() + 1, kind_only(OpKind::barrier));
  std::vector<std::byte> arena(profile_arena_bytes(16));
  ProfileResult r;
  EXPECT_EQ(profile_warp(example3_hw(), code, 16, arena, {}, {}, r), Status::buffer_too_small);
  EXPECT_EQ(r.section_count, 2u);
  const Profiled full = profile(example3_hw(), code);
  ASSERT_EQ(full.status, Status::ok);
  EXPECT_EQ(r.phase_count, full.result.phase_count);
  EXPECT_EQ(r.total_cycles, full.result.total_cycles);
  EXPECT_EQ(r.instructions, full.result.instructions);
  // Bad input is still reported as such.
  code = {kind_only(OpKind::barrier), op(7, {0}, {})};
  EXPECT_EQ(profile_warp(example3_hw(), code, 16, arena, {}, {}, r), Status::not_found);
}

TEST(PhaseProfile, RejectsBadInput) {
  const auto hw = example3_hw();
  ProfileResult r;
  std::array<SectionSummary, 1> sections{};
  std::vector<std::byte> arena(profile_arena_bytes(16));
  std::vector<Instruction> code{op(5, {0}, {})};
  EXPECT_EQ(profile_warp(hw, code, 16, arena, {}, sections, r), Status::not_found);
  code = {op(0, {20}, {})};
  EXPECT_EQ(profile_warp(hw, code, 16, arena, {}, sections, r), Status::invalid_argument);
  code = {op(0, {1}, {})};
  EXPECT_EQ(profile_warp(hw, code, 16, gsl::span<std::byte>(arena.data(), 8), {}, sections, r),
            Status::buffer_too_small);
  HardwareDescription bad = hw;
  bad.units[1].initiation = 0;
  EXPECT_EQ(profile_warp(bad, code, 16, arena, {}, sections, r), Status::invalid_argument);
  code = {kind_only(OpKind::barrier), op(0, {1}, {})};
  EXPECT_EQ(profile_warp(hw, code, 16, arena, {}, sections, r), Status::buffer_too_small);
  EXPECT_EQ(r.section_count, 2u);
}

// Register ids are 16-bit: a larger count is refused before any arena size
// is computed from it (24 * 2^61 bytes wraps to 0 in 64 bits, which once let
// a 64-byte arena pass and the register words overrun it).
TEST(PhaseProfile, RegisterCountIsLimitedToSixteenBitIds) {
  const auto hw = example3_hw();
  const std::vector<Instruction> code{op(0, {1}, {1})};
  EXPECT_NE(profile_arena_bytes(kMaxRegisterCount), 0u);
  EXPECT_EQ(profile_arena_bytes(kMaxRegisterCount + 1), 0u);
  std::vector<std::byte> arena(profile_arena_bytes(kMaxRegisterCount));
  std::array<SectionSummary, 1> sections{};
  ProfileResult r;
  std::uint64_t cycles = 0;
  EXPECT_EQ(profile_warp(hw, code, kMaxRegisterCount, arena, {}, sections, r), Status::ok);
  const std::size_t wrapping = std::size_t{1} << (8 * sizeof(std::size_t) - 3);
  for (const std::size_t count : {kMaxRegisterCount + 1, wrapping, ~std::size_t{0}}) {
    std::array<std::byte, 64> small{};
    EXPECT_EQ(profile_warp(hw, code, count, small, {}, sections, r), Status::invalid_argument)
        << count;
    EXPECT_EQ(warp_alone_cycles(hw, code, count, small, true, cycles), Status::invalid_argument)
        << count;
  }
  EXPECT_EQ(profile_warp(hw, code, kMaxRegisterCount + 1, arena, {}, sections, r),
            Status::invalid_argument);
}

TEST(PhaseProfile, SharedResourceSerialisesUnits) {
  HardwareDescription hw;
  hw.unit_count = 2;
  hw.units[0] = unit("a", 3, 1);
  hw.units[1] = unit("b", 3, 1);
  hw.units[1].resource = 0;  // same pipeline as unit 0
  const Profiled p = profile(hw, {op(0, {0}, {}), op(1, {1}, {})});
  ASSERT_EQ(p.status, Status::ok);
  EXPECT_EQ(p.result.total_cycles, 7u);  // b issues at 3, written at 3 + 3 + 1
  EXPECT_EQ(p.sections[0].held[0], 4u);
}

TEST(HardwarePresets, AmpereNumbersAndNames) {
  HardwareDescription hw;
  ASSERT_EQ(make_hardware_preset("rtx3070", 200, hw), Status::ok);
  EXPECT_EQ(validate(hw), Status::ok);
  const int int_div = find_unit(hw, "int_div");
  ASSERT_GE(int_div, 0);
  EXPECT_EQ(hw.units[int_div].latency, 21u);
  EXPECT_EQ(hw.units[find_unit(hw, "fp_div")].initiation, 2u);
  EXPECT_EQ(hw.units[find_unit(hw, "dp_div")].initiation, 130u);
  EXPECT_EQ(hw.units[find_unit(hw, "mem")].latency, 200u);
  EXPECT_EQ(unit_resource(hw, find_unit(hw, "int_add")), unit_resource(hw, find_unit(hw, "int_mul")));
  EXPECT_EQ(find_unit(hw, "nope"), -1);
  EXPECT_EQ(find_unit(hw, nullptr), -1);
  HardwareDescription orin;
  ASSERT_EQ(make_hardware_preset("orin-sm", 5, orin), Status::ok);
  EXPECT_EQ(orin.units[find_unit(orin, "sfu")].latency, 21u);
  EXPECT_EQ(make_hardware_preset("volta", 5, orin), Status::not_found);
}

TEST(BlockBound, SingleWarpIsItsLength) {
  const Profiled p = profile(example3_hw(), example3_code());
  BlockBound b;
  ASSERT_EQ(block_bound(p.sections, 1, 1, b), Status::ok);
  EXPECT_EQ(b.general_upper_bound, 14u);
  EXPECT_EQ(b.safe_upper_bound, 14u);
  EXPECT_EQ(b.lower_bound, 14u);
}

TEST(BlockBound, GeneralUpperBoundAddsOthersExecution) {
  const Profiled p = profile(example3_hw(), example3_code());
  std::vector<SectionSummary> s(3, p.sections[0]);
  BlockBound b;
  ASSERT_EQ(block_bound(s, 3, 1, b), Status::ok);
  EXPECT_EQ(b.general_upper_bound, 14u + 2 * 9u);
  // 14 + 2 * (4 issues + 1 + 4 + 1 held) = 34
  EXPECT_EQ(b.safe_upper_bound, 34u);
  EXPECT_EQ(block_bound(s, 0, 1, b), Status::zero_warps);
  EXPECT_EQ(block_bound(s, 2, 1, b), Status::invalid_argument);
  EXPECT_EQ(block_bound(s, 3, 0, b), Status::invalid_argument);
  s[0].length = ~std::uint64_t{0} - 1;
  EXPECT_EQ(block_bound(s, 3, 1, b), Status::overflow);
}

// Held cycles outside the resource mask were dropped from the other warps'
// sums, and a length below the phases cut the warp's own term: both gave a
// smaller bound than the summaries imply, so both are refused.
TEST(BlockBound, RejectsSummariesProfilingCannotMake) {
  const Profiled p = profile(example3_hw(), example3_code());
  std::vector<SectionSummary> s(2, p.sections[0]);
  BlockBound b;
  ASSERT_EQ(block_bound(s, 2, 1, b), Status::ok);
  const BlockBound good = b;
  s[1].held[7] = 100;  // resource 7 is in no mask: nobody reads it
  ASSERT_EQ(block_bound(s, 2, 1, b), Status::ok);
  EXPECT_EQ(b.safe_upper_bound, good.safe_upper_bound);
  s[0].resource_mask |= 1u << 7;  // warp 0 uses it: warp 1's stray cycles would be dropped
  EXPECT_EQ(block_bound(s, 2, 1, b), Status::malformed_data);
  s[1].resource_mask |= 1u << 7;
  ASSERT_EQ(block_bound(s, 2, 1, b), Status::ok);
  EXPECT_EQ(b.safe_upper_bound, good.safe_upper_bound + 100);  // warp 0's term has them
  const BlockBound last = b;
  s = std::vector<SectionSummary>(2, p.sections[0]);
  s[0].length = s[0].execution + s[0].idle - 1;
  EXPECT_EQ(block_bound(s, 2, 1, b), Status::malformed_data);
  s[0].execution = ~std::uint64_t{0};
  EXPECT_EQ(block_bound(s, 2, 1, b), Status::malformed_data);
  EXPECT_EQ(b.safe_upper_bound, last.safe_upper_bound);  // untouched on failure
}

}  // namespace
}  // namespace gpuwcet
