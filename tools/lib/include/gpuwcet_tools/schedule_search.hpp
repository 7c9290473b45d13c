// A search for slow schedules of one block on the reference simulator
// (block_simulator.hpp): hill climbing over every choice the machine leaves
// open, which ready warp issues (any work-conserving scheduler) and which
// arrived instruction a queued unit behind collector units serves next (any
// order). Every schedule it finds is a run of the machine, so the slowest is
// a lower bound on the block's worst case and must stay at or below the safe
// bound (docs/multiphase.md); the bound is then at most that far above the
// worst case, a closer measure of its slack than the three policies give.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "gpuwcet_tools/block_simulator.hpp"

namespace gpuwcet::tools {

struct ScheduleSearchOptions {
  std::uint64_t steps = 1000;  // runs after the starting points
  std::uint64_t seed = 1;      // of the moves
  bool barriers_drain = true;
  bool barrier_issues = false;
  bool record_trace = false;   // record the slowest schedule's issues
  // Called every `progress_every` steps (0: never) with the steps done and
  // the slowest time so far.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  std::uint64_t progress_every = 0;
};

struct ScheduleSearch {
  BlockSimulation slowest;             // the slowest run found
  std::vector<std::uint32_t> choices;  // replays it (BlockSimulationOptions::record_choices)
  std::uint64_t start_cycles = 0;      // the slowest starting point: policies and pick rules
  std::uint64_t runs = 0;              // simulations made, starting points included
  std::uint64_t steps = 0;             // climbing steps made (none when only_schedule)
  std::uint64_t improvements = 0;      // steps that found a strictly slower schedule
  bool only_schedule = false;          // the block has one schedule: nothing to search
};

// Starts from the slowest of GTO, LRR and the two defer-holds stress schedules
// (block_simulator.hpp) under every collector pick rule,
// then, for `steps` runs, changes one to three choices of the slowest
// schedule so far or redraws every choice from a random one on, and keeps the
// result when it is at least as slow; no steps when a starting run met no
// choice (the block then has that one schedule). Deterministic for a given
// seed. Throws what simulate_block throws, and std::logic_error if the kept
// schedule does not replay when its trace is recorded.
ScheduleSearch search_slow_schedule(const HardwareDescription& hw,
                                    const std::vector<std::vector<Instruction>>& warps,
                                    std::size_t register_count, const ScheduleSearchOptions& options);

}  // namespace gpuwcet::tools
