// Hill climbing over a block's schedules (schedule_search.hpp).
#include "gpuwcet_tools/schedule_search.hpp"

#include <random>
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

}  // namespace

ScheduleSearch search_slow_schedule(const HardwareDescription& hw,
                                    const std::vector<std::vector<Instruction>>& warps,
                                    std::size_t register_count, const ScheduleSearchOptions& options) {
  ScheduleSearch out;
  BlockSimulationOptions so;
  so.record_trace = false;
  so.barriers_drain = options.barriers_drain;

  // Starting points: the policies' schedules under every deterministic pick
  // rule, recorded as choices.
  bool first = true;
  for (SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin}) {
    for (CollectorPick pick : {CollectorPick::round_robin, CollectorPick::oldest, CollectorPick::newest,
                               CollectorPick::longest, CollectorPick::shortest}) {
      std::vector<std::uint32_t> choices;
      BlockSimulationOptions start = so;
      start.policy = p;
      start.collector_pick = pick;
      start.record_choices = &choices;
      BlockSimulation sim = simulate_block(hw, warps, register_count, start);
      ++out.runs;
      if (first || sim.cycles > out.slowest.cycles) {
        out.slowest = std::move(sim);
        out.choices = std::move(choices);
        first = false;
      }
    }
  }
  out.start_cycles = out.slowest.cycles;

  std::mt19937_64 rng(options.seed);
  for (std::uint64_t step = 0; step < options.steps; ++step) {
    std::vector<std::uint32_t> values = out.choices;
    if (!values.empty()) {
      if (rng() % 4 == 0) {
        values.resize(rng() % values.size());  // the rest drawn afresh
      } else {
        for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
          values[rng() % values.size()] = static_cast<std::uint32_t>(rng());
        }
      }
    }
    Replay replay{&values, &rng, {}};
    BlockSimulationOptions run = so;
    run.issue_chooser = [&replay](const std::vector<std::size_t>& ready) { return replay.next(ready.size()); };
    run.collector_chooser = [&replay](std::size_t waiting) { return replay.next(waiting); };
    BlockSimulation sim = simulate_block(hw, warps, register_count, run);
    ++out.runs;
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
    Replay replay{&out.choices, &rng, {}};
    BlockSimulationOptions run = so;
    run.record_trace = true;
    run.issue_chooser = [&replay](const std::vector<std::size_t>& ready) { return replay.next(ready.size()); };
    run.collector_chooser = [&replay](std::size_t waiting) { return replay.next(waiting); };
    out.slowest = simulate_block(hw, warps, register_count, run);
  }
  return out;
}

}  // namespace gpuwcet::tools
