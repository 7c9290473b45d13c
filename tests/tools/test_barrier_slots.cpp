// Barriers that take an issue slot (GPGPU-Sim's bar.sync, `barrier_issues`),
// checked against the independent oracle (tests/support), which enumerates
// every schedule of that machine: the exact worst case stays within the safe
// bound, which charges each other warp's barrier slot
// (docs/multiphase.md, "The safe bound", case (a)), and the simulator's
// machine is the oracle's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "block_bounds_of.hpp"
#include "block_schedule_oracle.hpp"
#include "case_count.hpp"
#include "every_choice.hpp"
#include "hand_blocks.hpp"
#include "random_blocks.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

using ::gpuwcet::testing::BlockScheduleOracle;
using ::gpuwcet::testing::case_count;
using testing::Block;
constexpr std::size_t kRegisters = testing::kRandomBlockRegisters;

BlockBound bound(const HardwareDescription& hw, const Block& block) {
  return testing::block_bounds_of(hw, block, kRegisters);
}

// A machine whose barrier may take an issue slot: barrier_delay covers the
// warp's own slot (barrier_slot_covered).
HardwareDescription slotted(HardwareDescription hw, std::mt19937_64& rng) {
  hw.barrier_delay = std::max(hw.barrier_delay, hw.issue_interval + static_cast<std::uint32_t>(rng() % 3));
  return hw;
}

// Three warps of `U; bar; U` on one unit U (initiation 1, latency 1), the
// paper's pipeline, barrier_delay 2: the block of
// BlockSimulator.BarrierIssueSlotsAreCharged, whose safe bound is 12.
// Worked by hand over every schedule: the six issues before the barrier
// fill cycles 0-5 whatever the order (a U is always ready), so the last
// barrier issues at 5. Barriers that do not drain release at 5 + 2 = 7, the
// last U issues at 9 and is written at 11. Draining ones also wait for the
// last U before the barrier, at worst issued at 4 (U bar U bar U bar) and
// written at 6: release 8, the last result 12, the bound.
TEST(BarrierSlots, OracleAgreesWithTheHandWorkedBlock) {
  const HardwareDescription hw = testing::one_unit_barrier_machine();
  const std::vector<Instruction> code = testing::u_bar_u();
  const Block block{code, code, code};
  EXPECT_EQ(BlockScheduleOracle(hw, block, kRegisters, true, true).worst_case(), 12u);
  EXPECT_EQ(BlockScheduleOracle(hw, block, kRegisters, false, true).worst_case(), 11u);
  // Without the slots the Us issue at 0-2, the last written at 4: release
  // at 4 + 2 = 6, the last U issues at 8 and is written at 10, the bound the
  // summaries gave before they counted the slots.
  EXPECT_EQ(BlockScheduleOracle(hw, block, kRegisters, true, false).worst_case(), 10u);
  EXPECT_EQ(bound(hw, block).safe_upper_bound, 12u);
}

// Tiny blocks with 1-2 barriers, the machine that serves queued units in
// issue order, both barrier machines: the exact worst case with barrier
// slots is within the safe bound and at least every simulated policy.
TEST(BarrierSlots, ExhaustiveWorstCaseWithinSafeBound) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(2031));
  int slower = 0;  // blocks whose worst case the slots made longer
  int at_bound = 0;
  int truncated = 0;
  for (int n = 0; n < case_count(200); ++n) {
    HardwareDescription hw = slotted(testing::random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 60)), rng);
    hw.collector_units = 0;
    const Block block = testing::tiny_block(rng, hw, 1 + rng() % 2);
    const std::uint64_t safe = bound(hw, block).safe_upper_bound;
    for (const bool drain : {true, false}) {
      BlockScheduleOracle oracle(hw, block, kRegisters, drain, true);
      const std::uint64_t worst = oracle.worst_case();
      ASSERT_LE(worst, safe) << n << " drain " << drain;
      if (oracle.truncated()) {  // a worst case found, not the worst
        ++truncated;
        continue;
      }
      if (worst > BlockScheduleOracle(hw, block, kRegisters, drain, false).worst_case()) ++slower;
      if (worst == safe) ++at_bound;
      for (const SchedulerPolicy policy :
           {SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin, SchedulerPolicy::random}) {
        BlockSimulationOptions so;
        so.policy = policy;
        so.seed = rng();
        so.record_trace = false;
        so.barriers_drain = drain;
        so.barrier_issues = true;
        ASSERT_LE(simulate_block(hw, block, kRegisters, so).cycles, worst) << n << " drain " << drain;
      }
    }
  }
  EXPECT_GT(slower, 0);  // the slots change the machine
  EXPECT_LE(truncated, case_count(200) / 25);  // none with the fixed seed
  RecordProperty("slower", slower);
  RecordProperty("at_bound", at_bound);
}

// With collector units (the orin-sm preset with 1-3 of them, or a random
// pipeline): the oracle's worst case over every schedule and every pick
// equals the simulator's driven through every choice, and is within the
// safe bound.
TEST(BarrierSlots, OracleFindsTheSimulatorsWorstCaseWithCollectorUnits) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(2032));
  int compared = 0, cases = 0;
  for (int n = 0; n < case_count(300); ++n) {
    HardwareDescription hw;
    if (rng() % 2 == 0) {
      ASSERT_EQ(make_hardware_preset("orin-sm", 2 + static_cast<std::uint32_t>(rng() % 39), hw), Status::ok);
    } else {
      hw = testing::random_hw(rng, 2 + static_cast<std::uint32_t>(rng() % 39));
    }
    hw = slotted(hw, rng);
    hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 3);
    const Block block = testing::tiny_block(rng, hw, 1);
    const std::uint64_t safe = bound(hw, block).safe_upper_bound;
    for (const bool drain : {true, false}) {
      ++cases;
      bool complete = false;
      const std::uint64_t sim = testing::worst_of_every_choice(hw, block, kRegisters, drain, 5000, &complete, true);
      if (!complete) continue;
      BlockScheduleOracle oracle(hw, block, kRegisters, drain, true);
      const std::uint64_t exact = oracle.worst_case(1'000'000);
      if (oracle.truncated()) continue;
      ++compared;
      ASSERT_EQ(exact, sim) << n << " drain " << drain << ", collector units " << hw.collector_units;
      ASSERT_LE(exact, safe) << n << " drain " << drain;
    }
  }
  EXPECT_GT(compared, cases / 2) << compared << " of " << cases;
  RecordProperty("compared", compared);
  RecordProperty("cases", cases);
}

// A barrier's collector unit: the barrier waits for a free one (the warp's
// own queued loads may hold them all) and holds it dispatch_delay cycles,
// which may outlast the release when dispatch_delay > barrier_delay. Tiny
// blocks of 1-3 warps on 1-3 collector units, dispatch_delay 0-4 and
// barrier_delay from issue_interval to 3 above it, both barrier machines:
// the exact worst case is within the bound (a one-warp block's time alone,
// else the safe bound).
TEST(BarrierSlots, CollectorUnitsTakenByBarriersAreCounted) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(2033));
  int slot_outlasts_release = 0;  // runs with dispatch_delay > barrier_delay
  for (int n = 0; n < case_count(200); ++n) {
    HardwareDescription hw = testing::random_hw(rng, 2 + static_cast<std::uint32_t>(rng() % 39));
    hw.issue_interval = 1 + static_cast<std::uint32_t>(rng() % 2);
    hw.dispatch_delay = static_cast<std::uint32_t>(rng() % 5);
    hw.barrier_delay = hw.issue_interval + static_cast<std::uint32_t>(rng() % 4);
    hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 3);
    Block block = testing::tiny_block(rng, hw, 1 + rng() % 2);
    if (rng() % 3 == 0) block.resize(1);
    for (const bool drain : {true, false}) {
      const std::uint64_t b = block.size() == 1 ? testing::warp_alone(hw, block[0], kRegisters, drain)
                                                : bound(hw, block).safe_upper_bound;
      BlockScheduleOracle oracle(hw, block, kRegisters, drain, true);
      // A lower bound on the worst case when truncated: still checked.
      const std::uint64_t exact = oracle.worst_case(200'000);
      if (hw.dispatch_delay > hw.barrier_delay) ++slot_outlasts_release;
      ASSERT_LE(exact, b) << n << " drain " << drain << ", " << block.size() << " warps, dispatch_delay "
                          << hw.dispatch_delay << ", barrier_delay " << hw.barrier_delay
                          << ", collector units " << hw.collector_units;
    }
  }
  EXPECT_GT(slot_outlasts_release, case_count(200) / 10);
}

}  // namespace
}  // namespace gpuwcet::tools
