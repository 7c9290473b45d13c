// Tightness of the block bounds on blocks made of real Rodinia warps: each
// GPGPU-Sim PTX trace of ../shared/data (one warp of a Rodinia kernel, read
// with the launch shape of its run, 32 threads) copied into blocks of 2 to 32
// warps, on the orin-sm preset at memory latency 200 with its barrier machine
// (barriers take an issue slot and do not drain). Against the worst of GTO,
// LRR and random: the overestimation of the paper's GUB, of the safe bound,
// and of the safe bound's bracket without any hold charge (NOT safe:
// docs/multiphase.md, "How much room a bound of this form has"). The
// generated blocks of bench_block_tightness are denser in integer work than
// real code; these show the same gap on real code.
//   build/<dir>/bench/bench_real_block_tightness [data folder, default the
//                                                 source tree's ../shared/data]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "hold_free_bracket.hpp"

namespace {

using namespace gpuwcet;
using namespace gpuwcet::tools;
namespace fs = std::filesystem;

struct Mean {
  double sum = 0;
  int n = 0;
  void add(std::uint64_t bound, std::uint64_t run) {
    sum += (static_cast<double>(bound) - static_cast<double>(run)) / static_cast<double>(run);
    ++n;
  }
  double percent() const { return n == 0 ? 0 : 100 * sum / n; }
};

struct Row {
  Mean gub, safe, without_holds;
};

// The block's section summaries, warp-major.
std::vector<SectionSummary> summaries(const HardwareDescription& hw, const std::vector<Instruction>& code,
                                      std::size_t registers, std::size_t warps, std::size_t& sections) {
  std::vector<std::byte> arena(profile_arena_bytes(registers));
  std::vector<SectionSummary> one(code.size() + 1);
  ProfileResult r{};
  if (profile_warp(hw, code, registers, arena, {}, one, r) != Status::ok) std::abort();
  sections = r.section_count;
  std::vector<SectionSummary> all;
  for (std::size_t w = 0; w < warps; ++w) {
    all.insert(all.end(), one.begin(), one.begin() + static_cast<std::ptrdiff_t>(sections));
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path data = argc > 1 ? fs::path(argv[1]) : fs::path(GPUWCET_SHARED_DATA_DIR);
  std::vector<fs::path> traces;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(data / "gpgpusim-ptx-traces", ec)) {
    if (e.path().extension() == ".trace") traces.push_back(e.path());
  }
  std::sort(traces.begin(), traces.end());
  if (traces.empty()) {
    std::printf("no GPGPU-Sim PTX traces under %s\n", data.string().c_str());
    return 0;
  }
  const HardwareConfig config = hardware_preset("orin-sm", 200);
  const HardwareDescription& hw = config.hw;
  TraceReadOptions ro;
  ro.block_shape = *parse_block_shape("32");
  const std::size_t warp_counts[] = {2, 4, 8, 16, 32};
  Row rows[5], all;
  std::mt19937_64 rng(17);
  for (const fs::path& f : traces) {
    const TraceFile t = read_trace(f.string(), TraceFormat::ptx, config, ro);
    const std::vector<Instruction>& code = t.blocks[0].warps[0].code;
    for (int k = 0; k < 5; ++k) {
      const std::size_t warps = warp_counts[k];
      std::size_t sections = 0;
      const std::vector<SectionSummary> s = summaries(hw, code, t.register_count, warps, sections);
      BlockBound b{};
      if (block_bound(s, warps, sections, b) != Status::ok) std::abort();
      const std::uint64_t without_holds = gpuwcet::bench::hold_free_bracket(s, warps, sections);
      const std::vector<std::vector<Instruction>> block(warps, code);
      std::uint64_t run = 0;
      for (const SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest,
                                      SchedulerPolicy::loose_round_robin, SchedulerPolicy::random}) {
        BlockSimulationOptions so;
        so.policy = p;
        so.seed = rng();
        so.record_trace = false;
        so.barriers_drain = config.barriers_drain;
        so.barrier_issues = config.barrier_issues;
        run = std::max(run, simulate_block(hw, block, t.register_count, so).cycles);
      }
      if (run > b.safe_upper_bound) std::abort();  // the bound is safe, or this table is void
      for (Row* r : {&rows[k], &all}) {
        r->gub.add(b.general_upper_bound, run);
        r->safe.add(b.safe_upper_bound, run);
        r->without_holds.add(without_holds, run);
      }
    }
  }
  std::printf("Blocks of N copies of each of the %zu real Rodinia warps (orin-sm, latency 200), "
              "against the worst of GTO, LRR and random\n\n"
              "| warps | GUB mean | safe mean | safe/GUB | bracket without holds (NOT safe) mean |\n"
              "|---|---|---|---|---|\n",
              traces.size());
  for (int k = 0; k <= 5; ++k) {
    const Row& r = k < 5 ? rows[k] : all;
    const std::string label = k < 5 ? std::to_string(warp_counts[k]) : "all";
    std::printf("| %s | %.2f%% | %.2f%% | %.2f | %.2f%% |\n", label.c_str(), r.gub.percent(),
                r.safe.percent(), r.safe.percent() / r.gub.percent(), r.without_holds.percent());
  }
  return 0;
}
