// Bounds on a block's execution time from per-warp section summaries
// (phase_profile.hpp): the paper's General Upper Bound, and a bound proven
// safe for every work-conserving scheduler issuing at most one instruction per
// cycle, in order per warp (proof: docs/multiphase.md). The General Upper
// Bound is NOT safe on this machine: another warp's execution phases can
// stretch when it is delayed (counterexample in docs/multiphase.md and
// tests/tools/test_block_simulator.cpp); it is reported for comparison.
#pragma once

#include <cstddef>
#include <cstdint>

#include <gsl/span>

#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

struct BlockBound {
  // Jeanmougin et al. (NOT safe here, see above): per section max over warps w of
  //   WUB(w) = length(w) + sum over v != w of execution(v),
  // summed over sections.
  std::uint64_t general_upper_bound = 0;
  // docs/multiphase.md, "Safe bound": per section max over w of
  //   length(w) + sum_{v != w} issues(v) + sum_{v != w} sum_{r used by w} held_v[r],
  // summed over sections. Tighter than the GUB when warps use different
  // resources, looser when their execution phases overlap units.
  std::uint64_t safe_upper_bound = 0;
  // Per section max over w of length(w), summed: no schedule is shorter on a
  // description without collector units whose barriers drain (with collector
  // units a warp's length bounds every service order of its queued units,
  // and barriers that do not drain let a section start early: then it is no
  // lower bound).
  std::uint64_t lower_bound = 0;
};

// `summaries` holds warp_count * section_count entries, warp-major:
// summaries[w * section_count + s]. O(warp_count * section_count * resources
// used), no scratch memory.
// Returns zero_warps for warp_count 0, invalid_argument for section_count 0
// or a span of the wrong size, malformed_data for a summary profile_warp
// cannot have made (held cycles on a resource outside its resource_mask, or
// execution + idle above its length), overflow when a bound exceeds 64 bits;
// `out` is then untouched.
[[nodiscard]] Status block_bound(gsl::span<const SectionSummary> summaries,
                                 std::size_t warp_count, std::size_t section_count,
                                 BlockBound& out) noexcept;

}  // namespace gpuwcet
