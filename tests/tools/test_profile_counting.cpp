// profile_warp counts phases without storing them (an empty `phases` span:
// the block queries and the C API) on its own path, apart from the one that
// writes them. Both must give the same section summaries, and those must be
// the sums of the phases written.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_generator.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

constexpr std::size_t kRegisters = 24;
constexpr std::size_t kMaxSections = 4;

void expect_same(const SectionSummary& a, const SectionSummary& b) {
  EXPECT_EQ(a.length, b.length);
  EXPECT_EQ(a.execution, b.execution);
  EXPECT_EQ(a.idle, b.idle);
  EXPECT_EQ(a.issues, b.issues);
  EXPECT_EQ(a.resource_mask, b.resource_mask);
  EXPECT_EQ(a.phase_count, b.phase_count);
  EXPECT_EQ(a.held, b.held);
}

TEST(PhaseProfile, CountedPhasesMatchTheStoredOnes) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(31));
  const char* presets[] = {"rtx3070", "orin-sm"};
  std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
  for (int n = 0; n < 2000; ++n) {
    HardwareDescription hw;
    ASSERT_EQ(make_hardware_preset(presets[rng() % 2],
                                   5 + static_cast<std::uint32_t>(rng() % 396), hw),
              Status::ok);
    // In issue order, the presets' collector units, or a few of them.
    const std::uint64_t order = rng() % 3;
    if (order == 0) hw.collector_units = 0;
    if (order == 1) hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 4);
    BlockGeneratorOptions o;
    o.warps = 1;
    o.instructions = 1 + rng() % 120;
    o.barriers = rng() % kMaxSections;
    o.registers = kRegisters;
    o.dependency = static_cast<double>(rng() % 10) / 10.0;
    o.max_extra_cycles = static_cast<std::uint8_t>(rng() % 40);
    const auto code = generate_block(hw, o, rng)[0];

    std::vector<Phase> phases(4 * code.size() + 4);
    std::vector<SectionSummary> stored(kMaxSections);
    ProfileResult with{};
    ASSERT_EQ(profile_warp(hw, code, kRegisters, arena, phases, stored, with), Status::ok);
    std::vector<SectionSummary> counted(kMaxSections);
    ProfileResult without{};
    ASSERT_EQ(profile_warp(hw, code, kRegisters, arena, {}, counted, without), Status::ok);

    SCOPED_TRACE(n);
    EXPECT_EQ(with.total_cycles, without.total_cycles);
    EXPECT_EQ(with.phase_count, without.phase_count);
    ASSERT_EQ(with.section_count, without.section_count);
    std::vector<SectionSummary> summed(with.section_count);
    for (std::size_t i = 0; i < with.phase_count; ++i) {
      const Phase& p = phases[i];
      ASSERT_LT(p.section, with.section_count);
      SectionSummary& s = summed[p.section];
      (p.kind == PhaseKind::execution ? s.execution : s.idle) += p.length;
      ++s.phase_count;
    }
    for (std::size_t s = 0; s < with.section_count; ++s) {
      expect_same(stored[s], counted[s]);
      EXPECT_EQ(counted[s].execution, summed[s].execution);
      EXPECT_EQ(counted[s].idle, summed[s].idle);
      EXPECT_EQ(counted[s].phase_count, summed[s].phase_count);
    }
  }
}

}  // namespace
}  // namespace gpuwcet::tools
