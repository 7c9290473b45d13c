// The safe bound's bracket without any hold charge, per section
// max_w length(w) + sum_{v != w} issues(v), summed: NOT a bound (warps of
// back-to-back integer instructions exceed it), the floor of every bound of
// the bracket's form (docs/multiphase.md, "How much room a bound of this form
// has"). For the tightness benchmarks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuwcet/phase_profile.hpp"

namespace gpuwcet::bench {

// `all`: warps * sections summaries, warp-major (block_bound's layout).
inline std::uint64_t hold_free_bracket(const std::vector<SectionSummary>& all, std::size_t warps,
                                       std::size_t sections) {
  std::uint64_t total = 0;
  for (std::size_t s = 0; s < sections; ++s) {
    std::uint64_t issues = 0, top = 0;
    for (std::size_t w = 0; w < warps; ++w) issues += all[w * sections + s].issues;
    for (std::size_t w = 0; w < warps; ++w) {
      const SectionSummary& v = all[w * sections + s];
      top = std::max(top, v.length + issues - v.issues);
    }
    total += top;
  }
  return total;
}

}  // namespace gpuwcet::bench
