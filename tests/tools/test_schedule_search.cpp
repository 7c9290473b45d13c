// The schedule search of `gpuwcet simulate --search` (schedule_search.hpp):
// recorded choices replay a run exactly, and the search never reports less
// than its starting points nor more than the safe bound.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "block_bounds_of.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/schedule_search.hpp"
#include "random_blocks.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

using testing::Block;
constexpr std::size_t kRegisters = testing::kRandomBlockRegisters;
constexpr SchedulerPolicy kPolicies[] = {
    SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin, SchedulerPolicy::random,
    SchedulerPolicy::defer_holds, SchedulerPolicy::defer_holds_balanced};
constexpr CollectorPick kPicks[] = {CollectorPick::round_robin, CollectorPick::random, CollectorPick::oldest,
                                    CollectorPick::newest,      CollectorPick::longest, CollectorPick::shortest};

// Half the descriptions are the data set's machine with few collector
// units, so that picks are made.
HardwareDescription search_hw(std::mt19937_64& rng) { return testing::collector_hw(rng, 2); }

// Replays `choices` through the choosers; fails if the run asks for more.
BlockSimulation replay(const HardwareDescription& hw, const Block& block, bool drain,
                       const std::vector<std::uint32_t>& choices, std::vector<std::uint32_t>& asked) {
  std::size_t k = 0;
  asked.clear();
  const auto next = [&](std::size_t options) -> std::size_t {
    asked.push_back(static_cast<std::uint32_t>(options));
    if (k >= choices.size()) {
      ADD_FAILURE() << "the replay asks for more choices than were recorded";
      return 0;
    }
    return choices[k++];
  };
  BlockSimulationOptions so;
  so.barriers_drain = drain;
  so.issue_chooser = [&](const std::vector<std::size_t>& ready) { return next(ready.size()); };
  so.collector_chooser = next;
  BlockSimulation sim = simulate_block(hw, block, kRegisters, so);
  EXPECT_EQ(k, choices.size()) << "the replay leaves recorded choices unused";
  return sim;
}

TEST(ScheduleSearch, RecordedChoicesReplayEveryPolicyAndPickRule) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(11));
  std::size_t with_picks = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const HardwareDescription hw = search_hw(rng);
    const Block block = testing::random_block(rng, hw, 0, {1, 8, 1, 30});
    const bool drain = rng() % 2 == 0;
    for (SchedulerPolicy p : kPolicies) {
      for (CollectorPick pick : kPicks) {
        std::vector<std::uint32_t> choices;
        BlockSimulationOptions so;
        so.policy = p;
        so.seed = rng();
        so.collector_pick = pick;
        so.collector_seed = rng();
        so.barriers_drain = drain;
        so.record_choices = &choices;
        const BlockSimulation run = simulate_block(hw, block, kRegisters, so);
        std::vector<std::uint32_t> asked;
        const BlockSimulation again = replay(hw, block, drain, choices, asked);
        ASSERT_EQ(again.cycles, run.cycles) << "trial " << trial;
        ASSERT_EQ(again.trace.size(), run.trace.size());
        for (std::size_t i = 0; i < run.trace.size(); ++i) {
          ASSERT_EQ(again.trace[i].warp, run.trace[i].warp) << "trial " << trial << ", issue " << i;
          ASSERT_EQ(again.trace[i].cycle, run.trace[i].cycle);
          ASSERT_EQ(again.trace[i].dispatch, run.trace[i].dispatch);
        }
        // Each recorded position is one of the options it was chosen among.
        for (std::size_t k = 0; k < choices.size(); ++k) ASSERT_LT(choices[k], asked[k]);
        with_picks += choices.size() > 0;
      }
    }
  }
  RecordProperty("with_picks", static_cast<int>(with_picks));
  EXPECT_GT(with_picks, 4000u);  // of 6,000 runs, 5,220 make choices
}

TEST(ScheduleSearch, SlowestIsAtLeastItsStartsAndWithinTheSafeBound) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(12));
  std::size_t climbed = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const HardwareDescription hw = search_hw(rng);
    const Block block = testing::random_block(rng, hw, 0, {2, 8, 2, 24});
    const bool drain = rng() % 2 == 0;
    ScheduleSearchOptions opts;
    opts.steps = 40;
    opts.seed = rng();
    opts.barriers_drain = drain;
    opts.record_trace = true;
    std::uint64_t progress_calls = 0;
    opts.progress_every = 10;
    opts.progress = [&](std::uint64_t done, std::uint64_t slowest) {
      ++progress_calls;
      EXPECT_EQ(done, progress_calls * 10);
      EXPECT_GE(slowest, 1u);
    };
    const ScheduleSearch s = search_slow_schedule(hw, block, kRegisters, opts);
    EXPECT_EQ(progress_calls, s.only_schedule ? 0u : 4u);
    // Four policies under five pick rules, then the steps, unless a block of
    // one schedule leaves nothing to climb.
    EXPECT_EQ(s.steps, s.only_schedule ? 0u : opts.steps);
    EXPECT_EQ(s.runs, 20u + s.steps);
    for (SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin,
                              SchedulerPolicy::defer_holds, SchedulerPolicy::defer_holds_balanced}) {
      for (CollectorPick pick : kPicks) {
        if (pick == CollectorPick::random) continue;
        BlockSimulationOptions so;
        so.policy = p;
        so.collector_pick = pick;
        so.barriers_drain = drain;
        EXPECT_LE(simulate_block(hw, block, kRegisters, so).cycles, s.start_cycles) << "trial " << trial;
      }
    }
    ASSERT_GE(s.slowest.cycles, s.start_cycles);
    ASSERT_LE(s.slowest.cycles, testing::block_bounds_of(hw, block, kRegisters).safe_upper_bound)
        << "trial " << trial;
    // The climb without traces keeps the same schedule (the traced result is
    // a replay of the kept choices, checked inside the search), and so does
    // a second climb: deterministic for a seed.
    opts.progress = nullptr;
    opts.record_trace = false;
    const ScheduleSearch untraced = search_slow_schedule(hw, block, kRegisters, opts);
    EXPECT_EQ(untraced.slowest.cycles, s.slowest.cycles) << "trial " << trial;
    EXPECT_EQ(untraced.choices, s.choices) << "trial " << trial;
    EXPECT_TRUE(untraced.slowest.trace.empty());
    std::vector<std::uint32_t> asked;
    EXPECT_EQ(replay(hw, block, drain, untraced.choices, asked).cycles, untraced.slowest.cycles);
    climbed += s.slowest.cycles > s.start_cycles;
  }
  // The climb finds slower schedules than its starting points on most
  // blocks (96 of the 150, from the stress schedules among the starts).
  RecordProperty("climbed", static_cast<int>(climbed));
  EXPECT_GT(climbed, 75u);
}

}  // namespace
}  // namespace gpuwcet::tools
