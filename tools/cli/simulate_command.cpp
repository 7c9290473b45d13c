// gpuwcet simulate: the reference simulator on a traced block under the
// scheduling policies, and a search for slower schedules
// (schedule_search.hpp).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "block_command_common.hpp"
#include "commands.hpp"
#include "gpuwcet_tools/block_analysis.hpp"
#include "progress.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/json_output.hpp"
#include "gpuwcet_tools/makespan_problem.hpp"
#include "gpuwcet_tools/schedule_search.hpp"
#include "gpuwcet_tools/svg_timeline.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::cli {

using namespace gpuwcet::tools;

namespace {

// Random runs of `simulate --policy all` and steps of `--search` each
// simulate the whole block, so a mistyped count (-1 read as 2^64 - 1) must
// not run for ever.
constexpr std::uint64_t kMaxSeeds = 100000;
constexpr std::uint64_t kMaxSearchSteps = 10000000;
// A search this long reports its progress on stderr ten times.
constexpr std::uint64_t kSearchProgressFrom = 10000;

SchedulerPolicy parse_policy(const std::string& p) {
  if (p == "gto") return SchedulerPolicy::greedy_then_oldest;
  if (p == "lrr") return SchedulerPolicy::loose_round_robin;
  if (p == "random") return SchedulerPolicy::random;
  if (p == "defer-holds") return SchedulerPolicy::defer_holds;
  if (p == "defer-holds-balanced") return SchedulerPolicy::defer_holds_balanced;
  throw ToolError(fmt::format(
      "unknown policy '{}' (expected gto, lrr, random, defer-holds, defer-holds-balanced or all)", p));
}

// How queued units behind collector units pick (the analysis bounds every
// order; GPGPU-Sim's round-robin is the default).
CollectorPick parse_collector_pick(const std::string& p) {
  if (p == "round-robin") return CollectorPick::round_robin;
  if (p == "random") return CollectorPick::random;
  if (p == "oldest") return CollectorPick::oldest;
  if (p == "newest") return CollectorPick::newest;
  if (p == "longest") return CollectorPick::longest;
  if (p == "shortest") return CollectorPick::shortest;
  throw ToolError(fmt::format(
      "unknown collector pick '{}' (expected round-robin, random, oldest, newest, longest or shortest)",
      p));
}

const char* policy_name(SchedulerPolicy p) {
  switch (p) {
    case SchedulerPolicy::greedy_then_oldest: return "gto";
    case SchedulerPolicy::loose_round_robin: return "lrr";
    case SchedulerPolicy::random: return "random";
    case SchedulerPolicy::defer_holds: return "defer-holds";
    case SchedulerPolicy::defer_holds_balanced: return "defer-holds-balanced";
  }
  return "?";
}

// The --search run: every choice of warp and of service open to the
// machine, hill-climbed from the policies' schedules; progress on stderr
// for long searches.
ScheduleSearch run_search(const Inputs& in, const std::vector<std::vector<Instruction>>& warps,
                          const BlockSimulationOptions& so, std::uint64_t steps, std::uint64_t seed) {
  ScheduleSearchOptions opts;
  opts.steps = steps;
  opts.seed = seed;
  opts.barriers_drain = so.barriers_drain;
  opts.barrier_issues = so.barrier_issues;
  opts.record_trace = so.record_trace;
  if (steps >= kSearchProgressFrom) {
    opts.progress_every = steps / 10;
    opts.progress = [steps](std::uint64_t done, std::uint64_t slowest) {
      fmt::print(stderr, "search: {} of {} steps, slowest {} cycles\n", done, steps, slowest);
    };
  }
  return search_slow_schedule(in.config.hw, warps, in.trace.register_count, opts);
}

}  // namespace

CommandOutput run_simulate(const BlockOptions& o) {
  const Inputs in = load_inputs(o);
  CommandOutput out;
  const std::size_t block_index = chosen_block(in, o.block);
  const BlockTrace& block = in.trace.blocks[block_index];
  std::vector<std::vector<Instruction>> warps;
  for (const WarpTrace& w : block.warps) warps.push_back(w.code);

  const CollectorPick pick = parse_collector_pick(o.collector_pick);
  struct Run {
    SchedulerPolicy policy;
    std::uint64_t seed;
    bool search = false;  // the hill climb of --search, after the policies' runs
  };
  const std::uint64_t seed = o.seed.empty() ? 1 : parse_unsigned(o.seed, "--seed");
  const std::uint64_t seeds = o.seeds.empty() ? 16 : parse_unsigned(o.seeds, "--seeds", kMaxSeeds);
  const std::uint64_t search_steps =
      o.search.empty() ? 0 : parse_unsigned(o.search, "--search", kMaxSearchSteps);
  // A random run is named with its seed, which reproduces it.
  const auto run_name = [](const Run& r) {
    if (r.search) return std::string("search");
    return r.policy == SchedulerPolicy::random ? fmt::format("random {}", r.seed)
                                               : std::string(policy_name(r.policy));
  };
  std::vector<Run> runs;
  // One warp: no scheduler has a choice, every policy runs one schedule
  // (unless the collector pick is drawn at random, from each run's seed).
  const bool one_warp = warps.size() == 1;
  const bool one_schedule = one_warp && pick != CollectorPick::random;
  if (o.policy == "all" && one_schedule) {
    runs.push_back({SchedulerPolicy::greedy_then_oldest, 0});
  } else if (o.policy == "all") {
    runs.push_back({SchedulerPolicy::greedy_then_oldest, 0});
    runs.push_back({SchedulerPolicy::loose_round_robin, 0});
    for (std::uint64_t s = 0; s < seeds; ++s) runs.push_back({SchedulerPolicy::random, seed + s});
  } else {
    const SchedulerPolicy p = parse_policy(o.policy);
    runs.push_back({p, p == SchedulerPolicy::random ? seed : 0});
  }
  if (!o.search.empty()) runs.push_back({SchedulerPolicy::greedy_then_oldest, seed, true});
  // Options a run would not use are said to be ignored, not dropped silently.
  const std::string this_run = "the " + o.policy + " run";
  if (!o.seeds.empty() && o.policy != "all") note_ignored("--seeds", "--policy all", this_run);
  if (!o.seed.empty() && o.policy != "all" && o.policy != "random" && o.collector_pick != "random" &&
      o.search.empty()) {
    note_ignored("--seed", "the random policy, --collector-pick random and --search", this_run);
  }
  // The bound beside the runs, so that their distance from it shows.
  const BlockAnalysis analysis =
      analyse_block(in.config.hw, in.trace, block_index, in.config.barriers_drain, false);
  nlohmann::json j = inputs_json(in);
  j["block"] = block.label;
  j["block_index"] = block_index;
  j["bound"] = analysis.bound.safe_upper_bound;
  // As block-wcet says it: a bound of hardware the model does not describe,
  // of a block the trace may show in part, or below the run the trace
  // records, is not shown safe.
  const std::string incomplete = incomplete_block(in, o.block, block_index);
  const std::string below = below_observed(in, analysis.bound.safe_upper_bound);
  const bool bound_safe = in.config.modelled && incomplete.empty() && below.empty();
  j["bound_safe"] = bound_safe;
  if (!below.empty()) {
    fmt::print(stderr, "warning: {}: {}\n", in.trace.path, below);
    j["notes"].push_back("warning: " + below);
  }
  if (!incomplete.empty()) {
    fmt::print(stderr, "warning: {}: {}; the bound covers only what the trace shows\n", in.trace.path,
               incomplete);
    j["notes"].push_back("warning: " + incomplete);
  }
  j["warps"] = warps.size();
  // The cycles the traced run took, as block-wcet reports them (GPGPU-Sim
  // PTX traces).
  if (in.trace.observed_cycles) j["observed_cycles"] = *in.trace.observed_cycles;
  j["collector_pick"] = o.collector_pick;
  j["runs"] = nlohmann::json::array();
  if (!o.json) {
    // What ran, as block-wcet says it.
    out.text += fmt::format("trace     {} ({} block{})\n", in.trace.path, in.trace.blocks.size(),
                            in.trace.blocks.size() == 1 ? "" : "s");
    out.text += fmt::format("hardware  {}, memory latency {}\n", in.config.source,
                            in.config.memory_latency);
    out.text += fmt::format("block     {} (index {}, {} warp{}); bound {} cycles{}\n", block.label,
                            block_index, warps.size(), one_warp ? "" : "s",
                            analysis.bound.safe_upper_bound,
                            bound_safe ? ""
                            : !below.empty() ? " (NOT safe: below the trace's observed run, see the warning)"
                            : !incomplete.empty()
                                ? blocks_missing(in, o.block)
                                      ? " (NOT safe: the trace may not show every block)"
                                      : " (NOT safe: the trace may not show the whole block)"
                                : " (NOT shown safe: the hardware is not the modelled machine)");
    if (one_schedule && o.policy == "all") {
      out.text += "          one warp: every scheduler runs the same schedule\n";
    }
  }
  std::uint64_t worst = 0;
  std::size_t worst_run = 0;
  BlockSimulation worst_sim;
  Progress progress(fmt::format("simulating {} of {}", block.label, o.trace), "runs");
  for (std::size_t r = 0; r < runs.size(); ++r) {
    progress(r, runs.size());
    BlockSimulationOptions so;
    so.policy = runs[r].policy;
    // Every seed as given, 0 included (std::mt19937_64 takes any), so the
    // --seeds runs from --seed, wrapping past 2^64-1, are all different.
    so.seed = runs[r].seed;
    so.collector_pick = pick;
    // --collector-pick random draws from --seed under every policy.
    so.collector_seed = runs[r].policy == SchedulerPolicy::random ? runs[r].seed : seed;
    so.record_trace = !o.svg.empty();
    so.barriers_drain = in.config.barriers_drain;
    so.barrier_issues = in.config.barrier_issues;
    BlockSimulation sim;
    ScheduleSearch search;
    try {
      if (runs[r].search) {
        search = run_search(in, warps, so, search_steps, seed);
        sim = std::move(search.slowest);
      } else {
        sim = simulate_block(in.config.hw, warps, in.trace.register_count, so);
      }
    } catch (const std::invalid_argument& e) {
      throw ToolError(fmt::format("{}: {}: cannot simulate: {}", o.trace, block.label, e.what()));
    }
    nlohmann::json run = {{"policy", runs[r].search ? "search" : policy_name(runs[r].policy)},
                          {"cycles", sim.cycles}};
    if (runs[r].search) {
      run["seed"] = seed;
      run["steps"] = search.steps;
      run["only_schedule"] = search.only_schedule;
      run["start_cycles"] = search.start_cycles;
      run["improvements"] = search.improvements;
    } else {
      if (runs[r].policy == SchedulerPolicy::random) run["seed"] = so.seed;
      if (pick == CollectorPick::random) run["collector_seed"] = so.collector_seed;
    }
    j["runs"].push_back(run);
    if (!o.json && runs[r].search && search.only_schedule) {
      out.text += fmt::format("{:<10}{:>12} cycles (the block has one schedule: nothing to search)\n",
                              "search", sim.cycles);
    } else if (!o.json && runs[r].search) {
      out.text += fmt::format("{:<10}{:>12} cycles (hill climbing, {} steps from {} cycles, seed {})\n",
                              "search", sim.cycles, search.steps, search.start_cycles, seed);
    } else if (!o.json) {
      out.text += fmt::format("{:<10}{:>12} cycles\n", run_name(runs[r]), sim.cycles);
    }
    if (r == 0 || sim.cycles > worst) {
      worst = sim.cycles;
      worst_run = r;
      worst_sim = std::move(sim);
    }
  }
  progress(runs.size(), runs.size());
  j["worst_cycles"] = worst;
  if (o.json) {
    out.text += json_text(j) + '\n';
  } else if (runs.size() > 1) {
    out.text += fmt::format("{:<10}{:>12} cycles ({})\n", "worst", worst, run_name(runs[worst_run]));
  }
  if (!o.svg.empty()) {
    Timeline t;
    t.title = fmt::format("{} {}: simulated schedule ({}), {} cycles", o.trace, block.label,
                          run_name(runs[worst_run]), worst);
    for (std::uint32_t w = 0; w < warps.size(); ++w) {
      TimelineRow row{fmt::format("warp {}", block.warps[w].warp_id),
                      simulated_phases(in.config.hw, warps[w], worst_sim, w), {}};
      for (const IssueEvent& e : worst_sim.trace) {
        if (e.warp == w) row.issues.push_back(e.cycle);
      }
      t.rows.push_back(std::move(row));
    }
    for (std::uint64_t rel : worst_sim.releases) t.markers.push_back({rel, "barrier"});
    out.timeline = std::move(t);
  }
  return out;
}
}  // namespace gpuwcet::cli
