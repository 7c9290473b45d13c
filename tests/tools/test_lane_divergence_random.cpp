// Split warps by the rules alone (no PTX file: every label may be a join
// point) against an independent reference: the random kernels of
// random_simt_kernels.hpp run by the GPGPU-Sim interpreter of
// simt_reference.hpp. Every global or shared access the interpreter runs
// costs, from its active lanes' real addresses, at most what
// LaneValueAnalysis charges for it from the trace, when every active lane
// wrote the address (the analysis assumes no lane reads a register it never
// wrote).
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "case_count.hpp"
#include "random_simt_kernels.hpp"
#include "simt_reference.hpp"
#include "test_seed.hpp"

using namespace gpuwcet::tools;
using namespace gpuwcet::tools::random_kernels;
using gpuwcet::testing::case_count;

namespace {

// `n` random kernels, each run as a random warp of a block of
// `shape_of(rng)`; the accesses checked.
int run_random_kernels(std::uint64_t seed, int n, BlockShape (*shape_of)(std::mt19937_64&)) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(seed));
  int accesses = 0, ended = 0;
  for (int k = 0; k < n; ++k) {
    const Program p = random_kernel(rng);
    const BlockShape shape = shape_of(rng);
    SimtRun run(p, rng, shape, random_warp(rng, shape));
    run.run();
    EXPECT_EQ(run.undercounts, 0) << "kernel " << k << ", warp " << run.warp << " of " << shape.x << " x "
                                  << shape.y << " x " << shape.z << ": " << run.first_undercount << "\n"
                                  << ptx_text(p);
    accesses += run.checked;
    ended += run.ended;
  }
  EXPECT_GE(ended, n - n / 100) << ended << " of " << n;
  return accesses;
}

TEST(LaneDivergence, RandomKernelsNeverCostMoreThanCharged) {
  const int accesses = run_random_kernels(2026, case_count(40000), one_warp);
  EXPECT_GT(accesses, case_count(40000)) << accesses;
}

// One warp of a bigger or smaller block (random_block): conditions on the
// thread index are known per thread of the block.
TEST(LaneDivergence, RandomKernelsInOneWarpOfABlockNeverCostMoreThanCharged) {
  const int accesses = run_random_kernels(2030, case_count(16000), random_block);
  EXPECT_GT(accesses, case_count(14000)) << accesses;
}

}  // namespace
