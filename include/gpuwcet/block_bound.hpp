// Bounds on a block's execution time from per-warp section summaries
// (phase_profile.hpp): the paper's General Upper Bound and a tighter bound,
// both safe for every work-conserving scheduler issuing at most one
// instruction per cycle, in order per warp (proofs: docs/multiphase.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include <gsl/span>

#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

struct BlockBound {
  // Jeanmougin et al.: per section max over warps w of
  //   WUB(w) = length(w) + sum over v != w of execution(v),
  // summed over sections.
  std::uint64_t general_upper_bound = 0;
  // docs/multiphase.md, "Tighter bound": per section max over w of
  //   length(w) + sum_{v != w} issues(v) + sum_{v != w} sum_{r used by w} held_v[r],
  // and never above general_upper_bound... only when that is proven; see doc.
  std::uint64_t tighter_bound = 0;
  // Per section max over w of length(w), summed: no schedule is shorter.
  std::uint64_t lower_bound = 0;
};

// `summaries` holds warp_count * section_count entries, warp-major:
// summaries[w * section_count + s]. O(warp_count * section_count * resources
// used), no scratch memory.
// Returns zero_warps for warp_count 0, invalid_argument for section_count 0
// or a span of the wrong size, overflow when a bound exceeds 64 bits; `out`
// is then untouched.
[[nodiscard]] Status block_bound(gsl::span<const SectionSummary> summaries,
                                 std::size_t warp_count, std::size_t section_count,
                                 BlockBound& out) noexcept;

}  // namespace gpuwcet
