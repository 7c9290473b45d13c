// The safe bound holds for every work-conserving scheduler and every order in
// which a queued unit serves its collector units, not only for the
// simulator's three policies and its pick rules. Here the simulator's hooks
// let a search make every choice:
// - HillClimbedSchedulesStayWithinTheSafeBound: per random block, the hill
//   climb of `gpuwcet simulate --search` (schedule_search.hpp) over the warp
//   issued at every cycle with a choice and the instruction served at every
//   pick, for the slowest schedule it can find;
// - EveryScheduleOfTinyBlocksWithCollectorUnits: every sequence of those
//   choices on tiny blocks with few collector units (every_choice.hpp),
//   compared with the exhaustive oracle (block_schedule_oracle.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "block_schedule_oracle.hpp"
#include "block_bounds_of.hpp"
#include "every_choice.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/schedule_search.hpp"
#include "random_blocks.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

using testing::Block;
constexpr std::size_t kRegisters = testing::kRandomBlockRegisters;

// One description in three the data set's machine with few collector units.
HardwareDescription adversary_hw(std::mt19937_64& rng) { return testing::collector_hw(rng, 3); }

TEST(BlockAdversary, HillClimbedSchedulesStayWithinTheSafeBound) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(20261124));
  std::size_t above_policies = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const HardwareDescription hw = adversary_hw(rng);
    const Block block = testing::random_block(rng, hw, 0, {2, 6, 2, 16});
    const bool drain = rng() % 2 == 0;
    const std::uint64_t bound = testing::block_bounds_of(hw, block, kRegisters).safe_upper_bound;
    std::uint64_t policies = 0;
    for (SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin}) {
      BlockSimulationOptions so;
      so.policy = p;
      so.record_trace = false;
      so.barriers_drain = drain;
      policies = std::max(policies, simulate_block(hw, block, kRegisters, so).cycles);
    }
    ScheduleSearchOptions opts;
    opts.steps = 60;
    opts.seed = rng();
    opts.barriers_drain = drain;
    const std::uint64_t slowest = search_slow_schedule(hw, block, kRegisters, opts).slowest.cycles;
    ASSERT_LE(slowest, bound) << "trial " << trial << ": " << block.size() << " warps, "
                              << block[0].size() << " instructions, collector units "
                              << hw.collector_units << (drain ? "" : ", barriers not drained");
    above_policies += slowest > policies;
  }
  // The search finds schedules slower than GTO's and LRR's (on 274 of the
  // 400 blocks): it is a harder test.
  RecordProperty("above_policies", static_cast<int>(above_policies));
  EXPECT_GT(above_policies, 100u);
}

TEST(BlockAdversary, EveryScheduleOfTinyBlocksWithCollectorUnits) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(7));
  std::size_t complete = 0, trials = 0;
  for (; trials < 200; ++trials) {
    HardwareDescription hw = adversary_hw(rng);
    hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 3);
    const Block block = testing::random_block(rng, hw, 0, {2, 3, 2, 5});
    const bool drain = rng() % 2 == 0;
    const std::uint64_t bound = testing::block_bounds_of(hw, block, kRegisters).safe_upper_bound;
    // Every sequence of choices, up to 10,000 runs.
    bool all_seen = false;
    const std::uint64_t worst =
        testing::worst_of_every_choice(hw, block, kRegisters, drain, 10000, &all_seen);
    ASSERT_LE(worst, bound) << "trial " << trials << ": " << block.size() << " warps, collector units "
                           << hw.collector_units;
    if (!all_seen) continue;  // too many schedules to see them all
    ++complete;
    // The independent implementation of the machine (tests/support oracle)
    // enumerates the same choices on its own and finds the same worst case.
    gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters, drain);
    const std::uint64_t oracle_worst = oracle.worst_case();
    if (oracle.truncated()) continue;  // none with the fixed seed
    EXPECT_EQ(oracle_worst, worst) << "trial " << trials << ": " << block.size()
                                   << " warps, collector units " << hw.collector_units
                                   << (drain ? "" : ", barriers not drained");
    // Every policy's schedule is one of those enumerated.
    for (SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin,
                              SchedulerPolicy::random}) {
      BlockSimulationOptions so;
      so.policy = p;
      so.seed = rng();
      so.record_trace = false;
      so.barriers_drain = drain;
      EXPECT_LE(simulate_block(hw, block, kRegisters, so).cycles, worst);
    }
  }
  EXPECT_GT(complete, trials * 3 / 4);
}

}  // namespace
}  // namespace gpuwcet::tools
