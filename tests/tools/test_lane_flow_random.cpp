// Join points from the PTX file against an independent reference: the
// random kernels of random_simt_kernels.hpp, printed as a PTX file, run by
// the GPGPU-Sim interpreter of simt_reference.hpp. The analysis follows the
// printed file (LaneValueAnalysis::follow); every global or shared access
// the interpreter runs must cost at most what it charges.
#include <cstdint>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "case_count.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "random_simt_kernels.hpp"
#include "simt_reference.hpp"
#include "test_seed.hpp"

using namespace gpuwcet::tools;
using namespace gpuwcet::tools::random_kernels;
using gpuwcet::testing::case_count;

namespace {

struct Counts {
  int accesses = 0, followed = 0, kernels = 0, outside = 0;
};

// `n` random kernels, each run as a random warp of a block of
// `shape_of(rng)`, which the analysis knows when `shape_known`.
Counts run_random_kernels(std::uint64_t seed, int n, BlockShape (*shape_of)(std::mt19937_64&),
                          bool shape_known = true) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(seed));
  Counts c;
  for (int k = 0; k < n; ++k) {
    const Program p = random_kernel(rng);
    const std::string text = ptx_text(p);
    const PtxControlFlow flow = PtxControlFlow::parse("r.ptx", text);
    const BlockShape shape = shape_of(rng);
    SimtRun run(p, rng, shape, random_warp(rng, shape), shape_known);
    run.analysis.follow(&flow);
    try {
      run.run();
    } catch (const ToolError& e) {
      // A lane read a register it never wrote (or a value wrapped): the
      // branch the analysis took for the same in every lane split the warp,
      // and the trace leaves the stack the analysis follows. It says so
      // rather than go on unsound.
      EXPECT_TRUE(run.outside) << "kernel " << k << ": " << e.what() << "\n" << text;
      ++c.outside;
      continue;
    }
    EXPECT_EQ(run.undercounts, 0) << "kernel " << k << ", warp " << run.warp << " of " << shape.x << " x "
                                  << shape.y << " x " << shape.z << ": " << run.first_undercount << "\n"
                                  << text;
    c.accesses += run.checked;
    ++c.kernels;
    if (run.ended && run.analysis.flow_left().empty()) ++c.followed;
  }
  return c;
}

// Splits on data, guarded exits and all: the stack is followed to the end
// of nearly every kernel (what stops it: more than kMaxFlowStacks stacks).
void expect_followed(const Counts& c, int min_accesses) {
  EXPECT_GT(c.accesses, min_accesses) << c.accesses;
  EXPECT_LT(c.outside, c.kernels / 10) << c.outside;
  EXPECT_GE(c.followed, c.kernels - c.kernels / 100) << c.followed << " of " << c.kernels;
}

TEST(LaneFlow, RandomKernelsWithTheirPtxFileNeverCostMoreThanCharged) {
  expect_followed(run_random_kernels(2027, case_count(40000), one_warp), case_count(40000));
}

// One warp of a bigger or smaller block: branches then split some warps of
// the block and not others, and the analysis follows each; a partial warp
// has lanes that never run.
TEST(LaneFlow, RandomKernelsInOneWarpOfABlockNeverCostMoreThanCharged) {
  expect_followed(run_random_kernels(2028, case_count(16000), random_block), case_count(15000));
}

// Without the launch shape nothing is known per thread: every split is
// followed with its lanes bounded by the whole block.
TEST(LaneFlow, RandomKernelsOfAnUnknownBlockNeverCostMoreThanCharged) {
  expect_followed(run_random_kernels(2029, case_count(8000), random_block, false), case_count(7000));
}

}  // namespace
