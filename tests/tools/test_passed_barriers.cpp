// Barriers that do not drain with collector units: a load a warp left
// queued at a barrier can be overtaken by the next section's loads, so a
// section can end after its own bound; the block stays within the sum of
// the section bounds (docs/multiphase.md, "Barriers that do not drain").
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "block_bounds_of.hpp"
#include "block_schedule_oracle.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_simulator.hpp"

namespace gpuwcet::tools {
namespace {

constexpr std::size_t kRegisters = 4;

Instruction load(std::uint8_t extra, int dst = -1) {
  Instruction i;
  i.kind = OpKind::load;
  i.extra_cycles = extra;
  if (dst >= 0) {
    i.dst_count = 1;
    i.dst[0] = static_cast<std::uint16_t>(dst);
  }
  return i;
}

Instruction barrier() {
  Instruction i;
  i.kind = OpKind::barrier;
  return i;
}

// The safe bound of section `k` alone (block_bound over its summaries).
std::uint64_t section_bound(const HardwareDescription& hw, const std::vector<std::vector<Instruction>>& block,
                            std::size_t k) {
  std::vector<SectionSummary> row;
  for (const auto& code : block) {
    std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
    std::vector<SectionSummary> s(code.size() + 1);
    ProfileResult r{};
    EXPECT_EQ(profile_warp(hw, code, kRegisters, arena, {}, s, r), Status::ok);
    row.push_back(s.at(k));
  }
  BlockBound b{};
  EXPECT_EQ(block_bound(row, block.size(), 1, b), Status::ok);
  return b.safe_upper_bound;
}

// One queued unit (initiation 1, latency 1), four collector units, no
// dispatch or barrier delay. Warp v: loads P1 (20 further cycles) and P2,
// the barrier, then X1 and X2 (30 each); warp w: load L into r0, the
// barrier. Worked by hand, newest first: GTO issues P1, P2 and L at 0, 1
// and 2, both warps are at the barrier, released at 3, and v issues X1 and
// X2 at 3 and 4. P1 is served at 0-21 and P2, alone waiting at 1, is
// picked next; when P2 starts at 21 the unit picks X2 (the newest of L, X1
// and X2), 22-53, then X1, 53-84, and only then L, written at 86. w's
// section-0 load thus completes after section 0's bound (47 from the
// summaries), overtaken by section 1; the block, 86 cycles, is within the
// sum of the two sections' bounds, and the exhaustive oracle finds no
// longer schedule.
TEST(PassedBarriers, LaterSectionsOvertakeALoadLeftQueued) {
  HardwareDescription hw;
  hw.unit_count = 1;
  hw.units[0].initiation = 1;
  hw.units[0].latency = 1;
  hw.units[0].flags = kUnitQueuedDispatch;
  hw.collector_units = 4;
  const std::vector<std::vector<Instruction>> block = {
      {load(20), load(0), barrier(), load(30), load(30)},
      {load(0, 0), barrier()},
  };
  BlockSimulationOptions so;
  so.barriers_drain = false;
  so.collector_pick = CollectorPick::newest;
  const BlockSimulation sim = simulate_block(hw, block, kRegisters, so);
  EXPECT_EQ(sim.warp_end.at(1), 86u);
  EXPECT_EQ(section_bound(hw, block, 0), 47u);
  EXPECT_GT(sim.warp_end.at(1), section_bound(hw, block, 0));
  const std::uint64_t total = testing::block_bounds_of(hw, block, kRegisters).safe_upper_bound;
  EXPECT_EQ(total, section_bound(hw, block, 0) + section_bound(hw, block, 1));
  gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters, false);
  EXPECT_EQ(oracle.worst_case(), 86u);
  EXPECT_LE(86u, total);
}

}  // namespace
}  // namespace gpuwcet::tools
