// The safe bound holds for every work-conserving scheduler and every order in
// which a queued unit serves its collector units, not only for the
// simulator's three policies and its pick rules. Here the simulator's hooks
// let a search make every choice:
// - HillClimbedSchedulesStayWithinTheSafeBound: per random block, the hill
//   climb of `gpuwcet simulate --search` (schedule_search.hpp) over the warp
//   issued at every cycle with a choice and the instruction served at every
//   pick, for the slowest schedule it can find;
// - EveryScheduleOfTinyBlocksWithCollectorUnits: every sequence of those
//   choices on tiny blocks with few collector units, which the exhaustive
//   oracle (block_schedule_oracle.hpp) does not model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "block_schedule_oracle.hpp"
#include "block_bounds_of.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/schedule_search.hpp"
#include "random_blocks.hpp"

namespace gpuwcet::tools {
namespace {

using testing::Block;
constexpr std::size_t kRegisters = testing::kRandomBlockRegisters;

// The choices of one run, in the order the simulator asks for them (the
// warp to issue among the ready ones, or the instruction a queued unit
// serves among the waiting ones), for enumerating them all.
struct Choices {
  std::vector<std::uint32_t> value;  // taken modulo the number of options
  std::vector<std::uint32_t> arity;  // options at each choice of the last run
  std::size_t next(std::size_t options) {
    const std::size_t k = arity.size();
    if (k == value.size()) value.push_back(0);
    arity.push_back(static_cast<std::uint32_t>(options));
    return value[k] % options;
  }
};

std::uint64_t run(const HardwareDescription& hw, const Block& block, bool drain, Choices& c) {
  c.arity.clear();
  BlockSimulationOptions so;
  so.record_trace = false;
  so.barriers_drain = drain;
  so.issue_chooser = [&c](const std::vector<std::size_t>& ready) { return c.next(ready.size()); };
  so.collector_chooser = [&c](std::size_t waiting) { return c.next(waiting); };
  const std::uint64_t cycles = simulate_block(hw, block, kRegisters, so).cycles;
  c.value.resize(c.arity.size());  // choices the run did not reach mean nothing
  return cycles;
}

// One description in three the data set's machine with few collector units.
HardwareDescription adversary_hw(std::mt19937_64& rng) { return testing::collector_hw(rng, 3); }

TEST(BlockAdversary, HillClimbedSchedulesStayWithinTheSafeBound) {
  std::mt19937_64 rng(20261124);
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
  // The search finds schedules slower than GTO's and LRR's (on 272 of the
  // 400 blocks): it is a harder test.
  EXPECT_GT(above_policies, 100u);
}

TEST(BlockAdversary, EveryScheduleOfTinyBlocksWithCollectorUnits) {
  std::mt19937_64 rng(7);
  std::size_t complete = 0, trials = 0;
  for (; trials < 200; ++trials) {
    HardwareDescription hw = adversary_hw(rng);
    hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 3);
    const Block block = testing::random_block(rng, hw, 0, {2, 3, 2, 5});
    const bool drain = rng() % 2 == 0;
    const std::uint64_t bound = testing::block_bounds_of(hw, block, kRegisters).safe_upper_bound;
    // Every sequence of choices, in lexicographic order: the next one
    // advances the last choice that has an option left and drops the rest.
    Choices c;
    std::uint64_t worst = 0;
    std::size_t runs = 0;
    bool more = true;
    for (; more && runs < 10000; ++runs) {
      worst = std::max(worst, run(hw, block, drain, c));
      more = false;
      for (std::size_t k = c.arity.size(); k-- > 0;) {
        if (c.value[k] + 1 < c.arity[k]) {
          c.value.resize(k + 1);
          ++c.value[k];
          more = true;
          break;
        }
      }
    }
    ASSERT_LE(worst, bound) << "trial " << trials << ": " << block.size() << " warps, collector units "
                           << hw.collector_units;
    if (more) continue;  // too many schedules to see them all
    ++complete;
    // The independent implementation of the machine (tests/support oracle)
    // enumerates the same choices on its own and finds the same worst case.
    gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters, drain);
    const std::uint64_t oracle_worst = oracle.worst_case();
    ASSERT_FALSE(oracle.truncated()) << "trial " << trials;
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
