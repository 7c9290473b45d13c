// The analysis' numbers for generated code, as the simulator tests compare
// them: a one-warp block's time and a block's bounds from its warps'
// section summaries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/phase_profile.hpp"

namespace gpuwcet::tools::testing {

inline std::uint64_t warp_alone(const HardwareDescription& hw, const std::vector<Instruction>& code,
                                std::size_t registers, bool barriers_drain) {
  std::vector<std::byte> arena(profile_arena_bytes(registers));
  std::uint64_t cycles = 0;
  EXPECT_EQ(warp_alone_cycles(hw, code, registers, arena, barriers_drain, cycles), Status::ok);
  return cycles;
}

inline BlockBound block_bounds_of(const HardwareDescription& hw,
                                  const std::vector<std::vector<Instruction>>& block,
                                  std::size_t registers) {
  std::vector<SectionSummary> all;
  std::size_t sections = 0;
  for (const auto& w : block) {
    std::vector<std::byte> arena(profile_arena_bytes(registers));
    std::vector<SectionSummary> s(w.size() + 1);
    ProfileResult r{};
    EXPECT_EQ(profile_warp(hw, w, registers, arena, {}, s, r), Status::ok);
    sections = r.section_count;
    all.insert(all.end(), s.begin(), s.begin() + static_cast<std::ptrdiff_t>(sections));
  }
  BlockBound b{};
  EXPECT_EQ(block_bound(all, block.size(), sections, b), Status::ok);
  return b;
}

}  // namespace gpuwcet::tools::testing
