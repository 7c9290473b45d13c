// The multi-phase analysis on the real data sets of ../shared/data (skipped
// when absent):
// - GPGPU-Sim PTX traces, each with the gpgpusim.config next to it: the
//   single-warp bound against the kernel_execution_time GPGPU-Sim observed.
//   Per-trace table: docs/multiphase.md, "Single-warp accuracy".
// - Accel-Sim traces: every block of every trace is bounded, and no
//   simulated schedule of the reference simulator exceeds its bound.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet_tools/block_analysis.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "shared_data.hpp"

namespace fs = std::filesystem;
using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

const fs::path& kData = gpuwcet::test::kSharedData;
using gpuwcet::test::files_in;

// Traces whose observed time the model does not yet cover: data-dependent
// memory behaviour the PTX trace does not record (uncoalesced accesses;
// docs/multiphase.md). Any other trace below its observed time is
// a regression; a listed trace that comes back above it must leave the list.
const std::set<std::string> kKnownBelowObserved = {
    "_Z6euclidPcffPfiii1.trace",  // nn: uncoalesced byte loads
};

TEST(RealTraces, SingleWarpBoundAgainstGpgpuSim) {
  const auto files = files_in(kData / "gpgpusim-ptx-traces", ".trace");
  if (files.empty()) GTEST_SKIP() << "no PTX traces in " << kData;
  double sum = 0;
  for (const fs::path& f : files) {
    const HardwareConfig hw = load_hardware_file((f.parent_path() / "gpgpusim.config").string(), {});
    const TraceFile t = read_trace(f.string(), TraceFormat::ptx, hw);
    ASSERT_TRUE(t.observed_cycles.has_value()) << f;
    const BlockAnalysis a = analyse_block(hw.hw, t, 0);
    ASSERT_EQ(a.warps.size(), 1u) << f;
    const double observed = static_cast<double>(*t.observed_cycles);
    const double bound = static_cast<double>(a.bound.safe_upper_bound);
    sum += (bound - observed) / observed;
    const bool known = kKnownBelowObserved.count(f.filename().string()) != 0;
    if (known) {
      EXPECT_LT(bound, observed) << f << " is now covered: remove it from the known list";
    } else {
      EXPECT_GE(bound, observed) << f;
    }
    // One warp: the simulator runs the very schedule the analysis assumes.
    std::vector<std::vector<Instruction>> warps{t.blocks[0].warps[0].code};
    BlockSimulationOptions so;
    so.record_trace = false;
    EXPECT_EQ(simulate_block(hw.hw, warps, t.register_count, so).cycles, a.bound.safe_upper_bound) << f;
  }
  RecordProperty("mean_overestimation_percent", static_cast<int>(100 * sum / static_cast<double>(files.size())));
}

TEST(RealTraces, AccelSimBlocksNeverExceedTheirBound) {
  const auto files = files_in(kData / "accelsim-traces", ".traceg");
  if (files.empty()) GTEST_SKIP() << "no Accel-Sim traces in " << kData;
  for (std::uint32_t latency : {5u, 200u}) {
    const HardwareConfig hw = hardware_preset("rtx3070", latency);
    for (const fs::path& f : files) {
      const TraceFile t = read_trace(f.string(), TraceFormat::accelsim, hw);
      ASSERT_FALSE(t.blocks.empty()) << f;
      // Large traces: every block is bounded, a spread of them simulated.
      const std::size_t step = std::max<std::size_t>(1, t.blocks.size() / 16);
      for (std::size_t b = 0; b < t.blocks.size(); ++b) {
        const BlockAnalysis a = analyse_block(hw.hw, t, b);
        ASSERT_LE(a.bound.lower_bound, a.bound.safe_upper_bound) << f << " block " << b;
        if (b % step != 0) continue;
        std::vector<std::vector<Instruction>> warps;
        for (const WarpTrace& w : t.blocks[b].warps) warps.push_back(w.code);
        for (SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest,
                                  SchedulerPolicy::loose_round_robin, SchedulerPolicy::random}) {
          BlockSimulationOptions so;
          so.policy = p;
          so.seed = b + 1;
          so.record_trace = false;
          const std::uint64_t c = simulate_block(hw.hw, warps, t.register_count, so).cycles;
          EXPECT_LE(c, a.bound.safe_upper_bound) << f << " block " << b;
          EXPECT_GE(c, a.bound.lower_bound) << f << " block " << b;
        }
      }
    }
  }
}

}  // namespace
