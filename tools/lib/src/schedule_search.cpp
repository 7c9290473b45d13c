// Hill climbing over a block's schedules (schedule_search.hpp).
#include "gpuwcet_tools/schedule_search.hpp"

#include <random>
#include <stdexcept>
#include <utility>

namespace gpuwcet::tools {
namespace {

// Feeds a sequence of choices to the simulator's choosers: value k picks
// among the options of the k-th choice modulo their number, and choices past
// the end are drawn. `taken` is the sequence as the run used it, which
// replays the run exactly.
struct Replay {
  const std::vector<std::uint32_t>* values = nullptr;
  std::mt19937_64* rng = nullptr;
  std::vector<std::uint32_t> taken;
  std::size_t next(std::size_t options) {
    const std::size_t k = taken.size();
    const std::uint64_t v = k < values->size() ? (*values)[k] : (*rng)();
    taken.push_back(static_cast<std::uint32_t>(v % options));
    return taken.back();
  }
};

// One run replaying `values` through the choosers (drawing past their end).
BlockSimulation replay_run(const HardwareDescription& hw, const std::vector<std::vector<Instruction>>& warps,
                           std::size_t register_count, BlockSimulationOptions so, Replay& replay) {
  so.issue_chooser = [&replay](const std::vector<std::size_t>& ready) { return replay.next(ready.size()); };
  so.collector_chooser = [&replay](std::size_t waiting) { return replay.next(waiting); };
  return simulate_block(hw, warps, register_count, so);
}

}  // namespace

ScheduleSearch search_slow_schedule(const HardwareDescription& hw,
                                    const std::vector<std::vector<Instruction>>& warps,
                                    std::size_t register_count, const ScheduleSearchOptions& options) {
  ScheduleSearch out;
  BlockSimulationOptions so;
  so.record_trace = false;
  so.barriers_drain = options.barriers_drain;
  so.barrier_issues = options.barrier_issues;

  // Starting points: the policies' schedules under every deterministic pick
  // rule, recorded as choices.
  for (SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin,
                            SchedulerPolicy::defer_holds, SchedulerPolicy::defer_holds_balanced}) {
    for (CollectorPick pick : {CollectorPick::round_robin, CollectorPick::oldest, CollectorPick::newest,
                               CollectorPick::longest, CollectorPick::shortest}) {
      std::vector<std::uint32_t> choices;
      BlockSimulationOptions start = so;
      start.policy = p;
      start.collector_pick = pick;
      start.record_choices = &choices;
      BlockSimulation sim = simulate_block(hw, warps, register_count, start);
      ++out.runs;
      // A run that met no choice was forced at every step: it is the
      // block's only schedule.
      if (choices.empty()) out.only_schedule = true;
      if (out.runs == 1 || sim.cycles > out.slowest.cycles) {
        out.slowest = std::move(sim);
        out.choices = std::move(choices);
      }
    }
  }
  out.start_cycles = out.slowest.cycles;

  std::mt19937_64 rng(options.seed);
  const std::uint64_t steps = out.only_schedule ? 0 : options.steps;
  for (std::uint64_t step = 0; step < steps; ++step) {
    std::vector<std::uint32_t> values = out.choices;
    if (!values.empty()) {
      if (rng() % 4 == 0) {
        values.resize(rng() % values.size());  // from there on drawn afresh
      } else {
        for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
          values[rng() % values.size()] = static_cast<std::uint32_t>(rng());
        }
      }
    }
    Replay replay{&values, &rng, {}};
    BlockSimulation sim = replay_run(hw, warps, register_count, so, replay);
    ++out.runs;
    ++out.steps;
    // At least as slow: moving along plateaus lets the climb leave them.
    if (sim.cycles >= out.slowest.cycles) {
      out.improvements += sim.cycles > out.slowest.cycles;
      out.slowest = std::move(sim);
      out.choices = std::move(replay.taken);
    }
    if (options.progress && options.progress_every != 0 && (step + 1) % options.progress_every == 0) {
      options.progress(step + 1, out.slowest.cycles);
    }
  }

  if (options.record_trace) {
    // The kept schedule once more, with its issues recorded: it must be the
    // same run, choice for choice.
    const std::uint64_t kept = out.slowest.cycles;
    Replay replay{&out.choices, &rng, {}};
    BlockSimulationOptions run = so;
    run.record_trace = true;
    out.slowest = replay_run(hw, warps, register_count, run, replay);
    if (out.slowest.cycles != kept || replay.taken != out.choices) {
      throw std::logic_error("schedule search: the kept schedule did not replay");
    }
  }
  return out;
}

}  // namespace gpuwcet::tools
