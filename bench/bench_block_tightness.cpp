// Tightness of the multi-phase block bounds against simulated executions: the
// table of docs/multiphase.md ("Tightness"), in the manner of Table 3 of
// Jeanmougin et al. (ECRTS 2025). A plain program, not a benchmark loop:
//   build/<dir>/bench/bench_block_tightness [blocks per latency, default 200]
//                                           [gpgpusim|paper] [slack|warps]
// ("slack": only the table of the safe bound's terms, slack_table below;
// "warps": only the overestimation by warp count, warps_table below).
// Blocks: Rodinia-like (tools/lib block_generator), rtx3070 preset, same code
// in every warp, 2..32 warps, 64 instructions, 0..2 barriers. Executions run
// on the preset's machine: with GPGPU-Sim's pipeline barriers take an issue
// slot and do not drain (bar.sync), with the paper's they drain and take none.
// Overestimation = (bound - simulated) / simulated, per block, then mean/max.
// "worst" is the longest of GTO, LRR and random; "adversary" the longest of
// those, of priority schedules that starve one warp (tests/support oracle)
// and of the two defer-holds stress schedules (block_simulator.hpp), a
// longer execution that a safe bound must also cover; "searched" the
// longest of those and of a 200-step hill climb over every schedule and
// collector pick (schedule_search.hpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../tests/support/block_schedule_oracle.hpp"
#include "hold_free_bracket.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_generator.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/schedule_search.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace {

using namespace gpuwcet;
using namespace gpuwcet::tools;

constexpr std::size_t kRegisters = 32;
constexpr std::uint64_t kSearchSteps = 200;

// The barrier machine of the executions: the preset's (set by preset()).
bool g_barriers_drain = true;
bool g_barrier_issues = false;

// A run of `policy` on that machine.
BlockSimulationOptions run_of(SchedulerPolicy policy, std::uint64_t seed) {
  BlockSimulationOptions so;
  so.policy = policy;
  so.seed = seed;
  so.record_trace = false;
  so.barriers_drain = g_barriers_drain;
  so.barrier_issues = g_barrier_issues;
  return so;
}

// The oracle on that machine.
gpuwcet::testing::BlockScheduleOracle oracle_of(const HardwareDescription& hw,
                                               const std::vector<std::vector<Instruction>>& block) {
  return gpuwcet::testing::BlockScheduleOracle(hw, block, kRegisters, g_barriers_drain, g_barrier_issues);
}

// Every warp's section summaries, warp-major, and how many sections each has.
std::vector<SectionSummary> summaries_of(const HardwareDescription& hw,
                                         const std::vector<std::vector<Instruction>>& block,
                                         std::size_t& sections) {
  std::vector<SectionSummary> all;
  std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
  for (const auto& w : block) {
    std::vector<SectionSummary> s(w.size() + 1);
    ProfileResult r;
    if (profile_warp(hw, w, kRegisters, arena, {}, s, r) != Status::ok) std::abort();
    sections = r.section_count;
    all.insert(all.end(), s.begin(), s.begin() + static_cast<std::ptrdiff_t>(sections));
  }
  return all;
}

BlockBound bound(const HardwareDescription& hw, const std::vector<std::vector<Instruction>>& block) {
  std::size_t sections = 0;
  const std::vector<SectionSummary> all = summaries_of(hw, block, sections);
  BlockBound b;
  if (block_bound(all, block.size(), sections, b) != Status::ok) std::abort();
  return b;
}

// The oracle's machine serves queued units in issue order: the adversary
// schedules run without collector units (the bounds cover both machines).
HardwareDescription in_order(HardwareDescription hw) {
  hw.collector_units = 0;
  return hw;
}

// Starves `victim`: when it can issue, another warp issues instead, one whose
// instruction holds the victim's resource longest if any; when it cannot,
// the cheapest instruction issues (variant 0) or a random one (variant 1).
std::uint64_t starve(gpuwcet::testing::BlockScheduleOracle& oracle, const HardwareDescription& hw,
                     std::size_t victim, int variant, std::mt19937_64& rng) {
  // A barrier (it issues with barrier slots) holds no resource.
  auto res = [&](const Instruction* i) {
    return i->kind == OpKind::barrier ? kMaxResources : unit_resource(hw, i->unit);
  };
  auto init = [&](const Instruction* i) {
    return i->kind == OpKind::barrier ? std::uint64_t{0} : std::uint64_t{occupancy(hw.units[i->unit], *i)};
  };
  return oracle.run([&](const std::vector<std::size_t>& ready,
                        const std::vector<const Instruction*>& next) {
    std::size_t vi = ready.size();
    for (std::size_t k = 0; k < ready.size(); ++k) {
      if (ready[k] == victim) vi = k;
    }
    if (ready.size() == 1) return ready[0];
    std::size_t best = ready.size();
    long best_score = -1;
    for (std::size_t k = 0; k < ready.size(); ++k) {
      if (k == vi) continue;
      long score;
      if (vi < ready.size()) {
        score = res(next[k]) == res(next[vi]) ? 1000 + init(next[k]) : init(next[k]);
      } else if (variant == 0) {
        score = 1000 - static_cast<long>(init(next[k]));
      } else {
        score = static_cast<long>(rng() % 1000);
      }
      if (score > best_score) {
        best_score = score;
        best = k;
      }
    }
    return ready[best];
  });
}

struct Stat {
  double sum = 0;
  double max = 0;
  int n = 0;
  int below = 0;  // bound < simulated (unsafe)
  void add(std::uint64_t b, std::uint64_t sim) {
    const double o = (static_cast<double>(b) - static_cast<double>(sim)) / static_cast<double>(sim);
    sum += o;
    max = std::max(max, o);
    ++n;
    if (b < sim) ++below;
  }
  double mean() const { return n ? sum / n : 0; }
};

constexpr int kColumns = 6;  // gto, lrr, random, worst, adversary, searched
const char* const kColumnNames[kColumns] = {"GTO", "LRR", "random", "worst of 3", "adversary", "searched"};

// The slowest of `known` and of the hill climb of `gpuwcet simulate --search`
// over every choice of warp and of collector pick (schedule_search.hpp), on
// the machine with the preset's collector units. Seeded apart from the
// blocks' generator, so the blocks stay those of the other columns.
std::uint64_t searched(const HardwareDescription& hw, const std::vector<std::vector<Instruction>>& block,
                       std::uint64_t known, std::uint64_t seed) {
  ScheduleSearchOptions o;
  o.steps = kSearchSteps;
  o.seed = seed;
  o.barriers_drain = g_barriers_drain;
  o.barrier_issues = g_barrier_issues;
  return std::max(known, search_slow_schedule(hw, block, kRegisters, o).slowest.cycles);
}

// One table row: a bound's overestimation against each column's execution.
struct Row {
  Stat gub[kColumns], safe[kColumns];
  void add(const BlockBound& b, const std::uint64_t (&sim)[kColumns]) {
    for (int c = 0; c < kColumns; ++c) {
      gub[c].add(b.general_upper_bound, sim[c]);
      safe[c].add(b.safe_upper_bound, sim[c]);
    }
  }
};

// The runs of GTO, LRR and random (seeded from `rng`, in that order) into
// sim[0], sim[1] and sim[2]; returns the longest.
std::uint64_t run_three_policies(const HardwareDescription& hw,
                                 const std::vector<std::vector<Instruction>>& block,
                                 std::mt19937_64& rng, std::uint64_t* sim) {
  const SchedulerPolicy policies[3] = {SchedulerPolicy::greedy_then_oldest,
                                       SchedulerPolicy::loose_round_robin, SchedulerPolicy::random};
  for (int p = 0; p < 3; ++p) {
    sim[p] = simulate_block(hw, block, kRegisters, run_of(policies[p], rng())).cycles;
  }
  return std::max({sim[0], sim[1], sim[2]});
}

std::uint64_t worst_of_three(const HardwareDescription& hw,
                             const std::vector<std::vector<Instruction>>& block, std::mt19937_64& rng) {
  std::uint64_t sim[3] = {};
  return run_three_policies(hw, block, rng, sim);
}

void print_rows(const char* label, const Row& r) {
  for (int c = 0; c < kColumns; ++c) {
    std::printf("| %s | %s | %.2f%% | %.2f%% | %d | %.2f%% | %.2f%% | %d | %.2f |\n", label,
                kColumnNames[c], 100 * r.gub[c].mean(), 100 * r.gub[c].max, r.gub[c].below,
                100 * r.safe[c].mean(), 100 * r.safe[c].max, r.safe[c].below,
                r.gub[c].mean() > 0 ? r.safe[c].mean() / r.gub[c].mean() : 0.0);
  }
}

const char* const kHeader =
    "| mem latency | executions | GUB mean | GUB max | GUB < exec | safe mean | safe max |"
    " safe < exec | safe/GUB mean |\n|---|---|---|---|---|---|---|---|---|\n";

// The rtx3070 preset's units; `paper` replaces GPGPU-Sim's pipeline with the
// paper's model (issue every cycle, an instruction enters its unit when it
// issues, result initiation + latency later, no write-back, launch or exit
// cycles), for comparison with the paper's Table 3.
bool g_paper_pipeline = false;

HardwareDescription preset(std::uint32_t latency) {
  const HardwareConfig config = gpuwcet::tools::hardware_preset("rtx3070", latency);
  HardwareDescription hw = config.hw;
  g_barriers_drain = config.barriers_drain;
  g_barrier_issues = config.barrier_issues;
  if (g_paper_pipeline) {
    g_barriers_drain = true;
    g_barrier_issues = false;
    const HardwareDescription paper{};
    hw.issue_interval = paper.issue_interval;
    hw.branch_delay = paper.branch_delay;
    hw.result_delay = paper.result_delay;
    hw.latency_from_issue = paper.latency_from_issue;
    hw.barrier_delay = paper.barrier_delay;
    hw.dispatch_delay = paper.dispatch_delay;
    for (std::size_t u = 0; u < hw.unit_count; ++u) {
      hw.units[u].flags = static_cast<std::uint16_t>(hw.units[u].flags & ~kUnitQueuedDispatch);
    }
    hw.launch_delay = paper.launch_delay;
    hw.exit_issues = paper.exit_issues;
    hw.collector_units = paper.collector_units;
  }
  return hw;
}

const char* pipeline_name() { return g_paper_pipeline ? "the paper's pipeline" : "GPGPU-Sim's pipeline"; }

// Rodinia-like blocks: GTO, LRR, random, worst of the three, adversary.
void rodinia_table(int blocks) {
  const std::uint32_t latencies[] = {5, 50, 100, 200, 400};
  const std::size_t warp_choices[] = {2, 4, 8, 16, 32};
  std::printf("Rodinia-like blocks (rtx3070 units, %s, 64 instructions, 2..32 warps), %d per "
              "latency\n\n%s",
              pipeline_name(), blocks, kHeader);
  for (const std::uint32_t lat : latencies) {
    const HardwareDescription hw = preset(lat);
    std::mt19937_64 rng(1000 + lat);
    std::mt19937_64 adversary_rng(2000 + lat);
    Row row;
    for (int n = 0; n < blocks; ++n) {
      BlockGeneratorOptions o;
      o.warps = warp_choices[static_cast<std::size_t>(n) % 5];
      o.instructions = 64;
      o.barriers = rng() % 3;
      o.registers = kRegisters;
      o.dependency = 0.5;
      const auto block = generate_block(hw, o, rng);
      const BlockBound b = bound(hw, block);
      std::uint64_t sim[kColumns] = {};
      sim[3] = run_three_policies(hw, block, rng, sim);
      sim[4] = sim[3];
      auto oracle = oracle_of(in_order(hw), block);
      const std::size_t nw = block.size();
      for (std::size_t victim : {std::size_t{0}, nw / 2, nw - 1}) {
        std::vector<std::size_t> order;
        for (std::size_t k = 0; k < nw; ++k) {
          if (k != victim) order.push_back(k);
        }
        order.push_back(victim);
        sim[4] = std::max(sim[4], oracle.run_priority(order));
        std::reverse(order.begin(), order.end() - 1);
        sim[4] = std::max(sim[4], oracle.run_priority(order));
        sim[4] = std::max(sim[4], starve(oracle, hw, victim, 0, adversary_rng));
        sim[4] = std::max(sim[4], starve(oracle, hw, victim, 1, adversary_rng));
      }
      for (SchedulerPolicy p : {SchedulerPolicy::defer_holds, SchedulerPolicy::defer_holds_balanced}) {
        sim[4] = std::max(sim[4], simulate_block(hw, block, kRegisters, run_of(p, 0)).cycles);
      }
      sim[5] = searched(hw, block, sim[4], 5000 + lat * 1000 + static_cast<std::uint64_t>(n));
      row.add(b, sim);
    }
    char label[16];
    std::snprintf(label, sizeof label, "%u", lat);
    print_rows(label, row);
  }
}

// Tiny blocks (2-3 warps, 2-7 instructions): the exact worst case over every
// work-conserving schedule, in the "adversary" column.
void tiny_table(int blocks) {
  std::printf("\nTiny blocks (rtx3070 units, %s, 2-3 warps, 2-7 instructions), %d per latency;"
              " adversary = exact worst case\n\n%s",
              pipeline_name(), blocks, kHeader);
  const std::uint32_t latencies[] = {5, 50, 200};
  for (const std::uint32_t lat : latencies) {
    const HardwareDescription hw = preset(lat);
    std::mt19937_64 rng(3000 + lat);
    Row row;
    for (int n = 0; n < blocks; ++n) {
      BlockGeneratorOptions o;
      o.warps = 2 + rng() % 2;
      o.instructions = 2 + rng() % (o.warps == 2 ? 6 : 4);
      o.barriers = rng() % 2;
      o.registers = 8;
      o.same_code = rng() % 2 == 0;
      o.dependency = 0.5;
      const auto block = generate_block(hw, o, rng);
      const BlockBound b = bound(hw, block);
      std::uint64_t sim[kColumns] = {};
      sim[3] = run_three_policies(hw, block, rng, sim);
      // Barrier slots add choices: a few blocks need more than the default
      // 5 million nodes.
      auto oracle = oracle_of(hw, block);
      sim[4] = oracle.worst_case(200'000'000);
      if (oracle.truncated()) std::abort();
      sim[5] = searched(hw, block, sim[4], 6000 + lat * 1000 + static_cast<std::uint64_t>(n));
      // The search runs the simulator on the oracle's machine: it cannot beat
      // the exact worst case (a cross-check of the two implementations).
      if (sim[5] != sim[4]) std::abort();
      row.add(b, sim);
    }
    char label[16];
    std::snprintf(label, sizeof label, "%u", lat);
    print_rows(label, row);
  }
}

// Where the safe bound's slack is (docs/multiphase.md, "A tighter safe bound:
// not found"): Rodinia-like blocks without barriers at latency 200, 8 and 32
// warps. For the warp that gives the bound, its terms (its length, the other
// warps' issues, their blocking cycles per resource) next to the worst of the
// three policies, every warp's issues together, and the busiest resource's
// share of that execution.
void slack_table(int blocks) {
  std::printf("Safe bound terms, Rodinia-like blocks (rtx3070 units, %s, 64 instructions, no "
              "barriers, latency 200), mean of %d blocks\n\n"
              "| warps | length(w) | others' issues | others' blocking cycles | of which"
              " int / sfu / load-store | safe bound | worst of 3 | all issues | busiest resource"
              " |\n|---|---|---|---|---|---|---|---|---|\n",
              pipeline_name(), blocks);
  const HardwareDescription hw = preset(200);
  // Resource of the int pipe, the SFU and the load/store unit in the preset.
  auto resource_of = [&](const char* unit) {
    for (std::size_t u = 0; u < hw.unit_count; ++u) {
      if (std::string(hw.units[u].name.data()) == unit) return unit_resource(hw, u);
    }
    std::abort();
  };
  const std::size_t shown[3] = {resource_of("int_add"), resource_of("sfu"), resource_of("mem")};
  std::mt19937_64 rng(4000);
  for (const std::size_t warps : {std::size_t{8}, std::size_t{32}}) {
    double length = 0, issues = 0, held = 0, held_shown[3] = {}, safe = 0, worst = 0, all = 0;
    double busiest = 0;
    for (int n = 0; n < blocks; ++n) {
      BlockGeneratorOptions o;
      o.warps = warps;
      o.instructions = 64;
      o.registers = kRegisters;
      o.dependency = 0.5;
      const auto block = generate_block(hw, o, rng);
      std::vector<SectionSummary> s(block.size());
      std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
      for (std::size_t w = 0; w < block.size(); ++w) {
        ProfileResult r;
        if (profile_warp(hw, block[w], kRegisters, arena, {}, gsl::span<SectionSummary>(&s[w], 1),
                         r) != Status::ok) {
          std::abort();
        }
      }
      // The bound's bracket per warp (block_bound.hpp), and its argmax.
      std::size_t top = 0;
      std::uint64_t top_value = 0, top_issues = 0, top_held = 0, top_shown[3] = {};
      for (std::size_t w = 0; w < s.size(); ++w) {
        std::uint64_t iss = 0, h = 0, hs[3] = {};
        for (std::size_t v = 0; v < s.size(); ++v) {
          if (v == w) continue;
          iss += s[v].issues;
          for (std::size_t r = 0; r < kMaxResources; ++r) {
            if ((s[w].resource_mask >> r & 1u) == 0) continue;
            h += s[v].held[r];
            for (int k = 0; k < 3; ++k) hs[k] += r == shown[k] ? s[v].held[r] : 0;
          }
        }
        if (s[w].length + iss + h >= top_value) {
          top = w;
          top_value = s[w].length + iss + h;
          top_issues = iss;
          top_held = h;
          for (int k = 0; k < 3; ++k) top_shown[k] = hs[k];
        }
      }
      // The bracket above is block_bound's, term for term.
      BlockBound core{};
      if (block_bound(s, s.size(), 1, core) != Status::ok || core.safe_upper_bound != top_value) {
        std::abort();
      }
      const std::uint64_t sim = worst_of_three(hw, block, rng);
      std::vector<std::uint64_t> busy(kMaxResources, 0);
      std::uint64_t every_issue = 0;
      for (const auto& w : block) {
        for (const Instruction& i : w) {
          if (i.kind == OpKind::barrier || (i.kind == OpKind::exit && !hw.exit_issues)) continue;
          ++every_issue;
          busy[unit_resource(hw, i.unit)] += occupancy(hw.units[i.unit], i);
        }
      }
      length += static_cast<double>(s[top].length);
      issues += static_cast<double>(top_issues);
      held += static_cast<double>(top_held);
      for (int k = 0; k < 3; ++k) held_shown[k] += static_cast<double>(top_shown[k]);
      safe += static_cast<double>(top_value);
      worst += static_cast<double>(sim);
      all += static_cast<double>(every_issue);
      busiest += static_cast<double>(*std::max_element(busy.begin(), busy.end())) /
                 static_cast<double>(sim);
    }
    const double n = blocks;
    std::printf("| %zu | %.0f | %.0f | %.0f | %.0f / %.0f / %.0f | %.0f | %.0f | %.0f | %.0f%% |\n",
                warps, length / n, issues / n, held / n, held_shown[0] / n, held_shown[1] / n,
                held_shown[2] / n, safe / n, worst / n, all / n, 100 * busiest / n);
  }
}

// The Rodinia-like blocks at latency 200 by warp count (docs/multiphase.md,
// "A tighter safe bound: not found"): the GUB's and the safe bound's mean
// overestimation against the worst of the three policies, and that of the
// safe bound's bracket with every other warp's blocking cycles left out,
// max_w length(w) + sum_{v != w} issues(v) per section. That bracket is NOT
// safe: warps of back-to-back integer instructions exceed it, and so do
// schedules of these very blocks that the search of `simulate --search`
// finds (counted in the last column, `searched` as in the main table); it
// is the floor of every bound of the bracket's form, whatever share of the
// holds it charges.
void warps_table(int blocks) {
  std::printf("Rodinia-like blocks (rtx3070 units, %s, 64 instructions, 0-2 barriers, latency "
              "200), %d per warp count; overestimation against the worst of GTO, LRR and random\n\n"
              "| warps | GUB mean | safe mean | safe/GUB | bracket without holds (NOT safe) mean |"
              " searched above it |\n|---|---|---|---|---|---|\n",
              pipeline_name(), blocks);
  const HardwareDescription hw = preset(200);
  Stat gub_all, safe_all, floor_all;
  int above_all = 0;
  for (const std::size_t warps : {std::size_t{2}, std::size_t{4}, std::size_t{8}, std::size_t{16},
                                  std::size_t{32}}) {
    std::mt19937_64 rng(7000 + warps);
    Stat gub, safe, floor;
    int above = 0;
    for (int n = 0; n < blocks; ++n) {
      BlockGeneratorOptions o;
      o.warps = warps;
      o.instructions = 64;
      o.barriers = rng() % 3;
      o.registers = kRegisters;
      o.dependency = 0.5;
      const auto block = generate_block(hw, o, rng);
      std::size_t sections = 0;
      const std::vector<SectionSummary> all = summaries_of(hw, block, sections);
      BlockBound b;
      if (block_bound(all, block.size(), sections, b) != Status::ok) std::abort();
      const std::uint64_t without_holds = gpuwcet::bench::hold_free_bracket(all, warps, sections);
      const std::uint64_t sim = worst_of_three(hw, block, rng);
      if (searched(hw, block, sim, 8000 + warps * 1000 + static_cast<std::uint64_t>(n)) > without_holds) {
        ++above;
      }
      gub.add(b.general_upper_bound, sim);
      safe.add(b.safe_upper_bound, sim);
      floor.add(without_holds, sim);
      gub_all.add(b.general_upper_bound, sim);
      safe_all.add(b.safe_upper_bound, sim);
      floor_all.add(without_holds, sim);
    }
    above_all += above;
    std::printf("| %zu | %.2f%% | %.2f%% | %.2f | %.2f%% | %d |\n", warps, 100 * gub.mean(),
                100 * safe.mean(), safe.mean() / gub.mean(), 100 * floor.mean(), above);
  }
  std::printf("| all | %.2f%% | %.2f%% | %.2f | %.2f%% | %d |\n", 100 * gub_all.mean(),
              100 * safe_all.mean(), safe_all.mean() / gub_all.mean(), 100 * floor_all.mean(),
              above_all);
}

}  // namespace

// bench_block_tightness [blocks per latency] [gpgpusim|paper] [slack|warps]
int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 200;
  g_paper_pipeline = argc > 2 && std::string(argv[2]) == "paper";
  if (argc > 3 && std::string(argv[3]) == "slack") {
    slack_table(blocks);
    return 0;
  }
  if (argc > 3 && std::string(argv[3]) == "warps") {
    warps_table(blocks);
    return 0;
  }
  rodinia_table(blocks);
  tiny_table(blocks * 2);
  return 0;
}
