// The simulator driven through every choice the machine leaves open, for the
// tests that need a block's exact worst case on the simulator's own machine
// (test_block_adversary.cpp, test_collector_any_order.cpp,
// test_co_resident_blocks.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuwcet_tools/block_simulator.hpp"

namespace gpuwcet::tools::testing {

// Runs `block` under every sequence of choices the machine leaves open
// (depth-first, in lexicographic order, over the warp issued where several
// can and the instruction picked where several wait), with the rest of
// `options` as given, up to `budget` runs, and hands each run to `visit`.
// Returns whether it saw them all.
template <typename Visit>
bool every_choice(const HardwareDescription& hw, const std::vector<std::vector<Instruction>>& block,
                  std::size_t registers, BlockSimulationOptions options, std::size_t budget, Visit visit) {
  std::vector<std::size_t> choice;
  std::vector<std::size_t> width;
  options.record_trace = false;
  for (std::size_t runs = 0; runs < budget; ++runs) {
    std::size_t step = 0;
    std::vector<std::size_t> taken;
    std::vector<std::size_t> widths;
    BlockSimulationOptions so = options;
    so.collector_chooser = [&](std::size_t n) {
      const std::size_t c = step < choice.size() ? choice[step] : 0;
      taken.push_back(c);
      widths.push_back(n);
      ++step;
      return c;
    };
    so.issue_chooser = [&](const std::vector<std::size_t>& ready) {
      return so.collector_chooser(ready.size());
    };
    visit(simulate_block(hw, block, registers, so));
    // The next sequence advances the last choice with an option left and
    // drops the ones after it.
    choice = taken;
    width = widths;
    while (!choice.empty() && choice.back() + 1 >= width.back()) {
      choice.pop_back();
      width.pop_back();
    }
    if (choice.empty()) return true;
    ++choice.back();
  }
  return false;
}

// The longest run of `block` over every sequence of choices, up to `budget`
// runs; `complete` says whether it saw them all. `barrier_issues`:
// BlockSimulationOptions'.
inline std::uint64_t worst_of_every_choice(const HardwareDescription& hw,
                                           const std::vector<std::vector<Instruction>>& block,
                                           std::size_t registers, bool drain, std::size_t budget,
                                           bool* complete = nullptr, bool barrier_issues = false) {
  BlockSimulationOptions so;
  so.barriers_drain = drain;
  so.barrier_issues = barrier_issues;
  std::uint64_t worst = 0;
  const bool all = every_choice(hw, block, registers, so, budget, [&](const BlockSimulation& sim) {
    worst = std::max(worst, sim.cycles);
  });
  if (complete != nullptr) *complete = all;
  return worst;
}

}  // namespace gpuwcet::tools::testing
