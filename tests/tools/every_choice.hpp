// The simulator driven through every choice the machine leaves open, for the
// tests that need a block's exact worst case on the simulator's own machine
// (test_block_adversary.cpp, test_collector_any_order.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuwcet_tools/block_simulator.hpp"

namespace gpuwcet::tools::testing {

// The longest run of `block` over every sequence of choices (depth-first,
// in lexicographic order, over the warp issued where several can and the
// instruction picked where several wait), up to `budget` runs; `complete`
// says whether it saw them all. `barrier_issues`: BlockSimulationOptions'.
inline std::uint64_t worst_of_every_choice(const HardwareDescription& hw,
                                           const std::vector<std::vector<Instruction>>& block,
                                           std::size_t registers, bool drain, std::size_t budget,
                                           bool* complete = nullptr, bool barrier_issues = false) {
  std::uint64_t worst = 0;
  std::vector<std::size_t> choice;
  std::vector<std::size_t> width;
  if (complete != nullptr) *complete = false;
  for (std::size_t runs = 0; runs < budget; ++runs) {
    std::size_t step = 0;
    std::vector<std::size_t> taken;
    std::vector<std::size_t> widths;
    BlockSimulationOptions so;
    so.record_trace = false;
    so.barriers_drain = drain;
    so.barrier_issues = barrier_issues;
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
    worst = std::max(worst, simulate_block(hw, block, registers, so).cycles);
    // The next sequence advances the last choice with an option left and
    // drops the ones after it.
    choice = taken;
    width = widths;
    while (!choice.empty() && choice.back() + 1 >= width.back()) {
      choice.pop_back();
      width.pop_back();
    }
    if (choice.empty()) {
      if (complete != nullptr) *complete = true;
      break;
    }
    ++choice.back();
  }
  return worst;
}

}  // namespace gpuwcet::tools::testing
