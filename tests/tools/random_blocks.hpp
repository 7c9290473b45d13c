// Random hardware descriptions and blocks for the safety tests of the
// multi-phase bounds (test_block_simulator.cpp, test_block_adversary.cpp,
// test_schedule_search.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/block_generator.hpp"

namespace gpuwcet::tools::testing {

// Registers of the random blocks (tiny blocks use 8 of them).
inline constexpr std::size_t kRandomBlockRegisters = 24;

inline HardwareDescription random_hw(std::mt19937_64& rng, std::uint32_t mem_latency) {
  HardwareDescription hw;
  if (rng() % 2 == 0) {
    EXPECT_EQ(make_hardware_preset("rtx3070", mem_latency, hw), Status::ok);
    return hw;
  }
  hw.unit_count = 2 + rng() % 5;
  for (std::size_t u = 0; u < hw.unit_count; ++u) {
    hw.units[u].initiation = 1 + static_cast<std::uint32_t>(rng() % 6);
    hw.units[u].latency = static_cast<std::uint32_t>(rng() % 12);
    if (u > 0 && rng() % 4 == 0) hw.units[u].resource = static_cast<std::uint16_t>(rng() % u);
    hw.units[u].flags = static_cast<std::uint16_t>(rng() % 4 == 0 ? rng() % 8 : 0);
  }
  // Units of one resource agree on whether it queues.
  for (std::size_t u = 0; u < hw.unit_count; ++u) {
    const std::size_t r = unit_resource(hw, u);
    if (r < hw.unit_count && r != u) {
      hw.units[u].flags = static_cast<std::uint16_t>((hw.units[u].flags & ~kUnitQueuedDispatch) |
                                                     (hw.units[r].flags & kUnitQueuedDispatch));
    }
  }
  hw.units[0].latency = mem_latency;
  // Half of the hand-made descriptions also get a random pipeline around the
  // units (block_model.hpp): the bounds must hold for every such timing.
  if (rng() % 2 == 0) {
    hw.issue_interval = 1 + static_cast<std::uint32_t>(rng() % 3);
    hw.branch_delay = static_cast<std::uint32_t>(rng() % 3);
    hw.result_delay = static_cast<std::uint32_t>(rng() % 4);
    hw.latency_from_issue = rng() % 2 == 0;
    hw.barrier_delay = static_cast<std::uint32_t>(rng() % 21);
    hw.dispatch_delay = static_cast<std::uint32_t>(rng() % 3);
    hw.launch_delay = static_cast<std::uint32_t>(rng() % 4);
    hw.exit_issues = rng() % 2 == 0;
    // Collector units: as few as one, so that warps wait for them.
    if (rng() % 2 == 0) hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 8);
  }
  return hw;
}

// With a memory latency of 5-400 cycles: one time in `orin_one_in` the data
// set's machine (the orin-sm preset) with 1-8 collector units, so that its
// load/store unit picks among waiting instructions; otherwise random_hw (half
// of whose hand-made pipelines have collector units too).
inline HardwareDescription collector_hw(std::mt19937_64& rng, unsigned orin_one_in) {
  const auto latency = static_cast<std::uint32_t>(5 + rng() % 396);
  if (rng() % orin_one_in != 0) return random_hw(rng, latency);
  HardwareDescription hw;
  EXPECT_EQ(make_hardware_preset("orin-sm", latency, hw), Status::ok);
  hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 8);
  return hw;
}

// Hand-made descriptions get a uniform compute mix (no unit is named
// "branch"): every seventh instruction becomes a branch, in every warp alike,
// so that branch_delay is exercised too.
inline std::vector<std::vector<Instruction>> with_branches(std::vector<std::vector<Instruction>> block) {
  for (auto& warp : block) {
    for (std::size_t i = 3; i < warp.size(); i += 7) {
      if (warp[i].kind == OpKind::compute) warp[i].kind = OpKind::branch;
    }
  }
  return block;
}

using Block = std::vector<std::vector<Instruction>>;

// How many warps a random block has and instructions each, drawn between
// the two figures.
struct BlockSizes {
  std::size_t min_warps = 1, max_warps = 32;
  std::size_t min_instructions = 1, max_instructions = 24;
};

// The safety tests' random block: 1-32 warps of 1-24 instructions unless
// `sizes` says otherwise, min_barriers to min_barriers + 2 barriers, chains,
// extra cycles up to 39.
inline Block random_block(std::mt19937_64& rng, const HardwareDescription& hw, std::size_t min_barriers,
                          const BlockSizes& sizes = {}) {
  BlockGeneratorOptions o;
  o.warps = sizes.min_warps + rng() % (sizes.max_warps - sizes.min_warps + 1);
  o.instructions = sizes.min_instructions + rng() % (sizes.max_instructions - sizes.min_instructions + 1);
  o.barriers = min_barriers + rng() % 3;
  o.registers = kRandomBlockRegisters;
  o.same_code = rng() % 2 == 0;
  o.dependency = static_cast<double>(rng() % 10) / 10.0;
  o.max_extra_cycles = static_cast<std::uint8_t>(rng() % 2 == 0 ? 0 : rng() % 40);
  return with_branches(generate_block(hw, o, rng));
}

// A block small enough for the exhaustive oracle: 2-3 warps of 2-7
// instructions over 8 registers; `barriers`, or 0-1 drawn when absent.
inline Block tiny_block(std::mt19937_64& rng, const HardwareDescription& hw,
                        std::optional<std::size_t> barriers) {
  BlockGeneratorOptions o;
  o.warps = 2 + rng() % 2;
  o.instructions = 2 + rng() % (o.warps == 2 ? 6 : 3);
  o.barriers = barriers ? *barriers : rng() % 2;
  o.registers = 8;
  o.same_code = rng() % 2 == 0;
  o.dependency = static_cast<double>(rng() % 10) / 10.0;
  o.max_extra_cycles = static_cast<std::uint8_t>(rng() % 2 == 0 ? 0 : rng() % 6);
  return with_branches(generate_block(hw, o, rng));
}

}  // namespace gpuwcet::tools::testing
