// Split warps against an independent reference: random structured kernels
// (straight code, if / if-else on the thread index or on loaded data,
// counted loops, block barriers anywhere, guarded writes, loads and exits,
// registers some lanes never write)
// laid out as GPGPU-Sim prints PTX (one instruction per
// source line, a blank line before every basic block, labels on their own
// lines), run by a small SIMT interpreter with a reconvergence stack
// (GPGPU-Sim's: at a split the group of the highest lane waits below the
// other, a path that reaches the join point pops). Every global access the
// interpreter runs costs, from its active lanes' real addresses, at most
// what LaneValueAnalysis charges for it from the printed trace, when every
// active lane wrote the address (the analysis assumes no lane reads a
// register it never wrote).
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "random_simt_kernels.hpp"

using namespace gpuwcet::tools;
using namespace gpuwcet::tools::random_kernels;

namespace {

TEST(LaneDivergence, RandomKernelsNeverCostMoreThanCharged) {
  std::mt19937_64 rng(2026);
  int accesses = 0;
  for (int n = 0; n < 20000; ++n) {
    const Program p = random_kernel(rng);
    SimtRun run(p, rng);
    run.run();
    accesses += run.checked;
  }
  EXPECT_GT(accesses, 20000) << accesses;
}

}  // namespace
