// Block bounds from section summaries (docs/multiphase.md).
#include "gpuwcet/block_bound.hpp"

#include <array>

#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {
namespace {

struct SectionBounds {
  std::uint64_t gub = 0;
  std::uint64_t tighter = 0;
  std::uint64_t lower = 0;
};

// One barrier section. Sums are accumulated once over all warps; each warp's
// "others" term is then total minus its own (O(warps * used resources)).
// Every term is bounded by the section totals, so only the totals need
// overflow checks.
Status bound_section(gsl::span<const SectionSummary> summaries, std::size_t warp_count,
                     std::size_t section_count, std::size_t s, SectionBounds& out) noexcept {
  std::uint64_t exec_total = 0;
  std::uint64_t issue_total = 0;
  std::uint64_t max_length = 0;
  std::uint32_t used = 0;
  std::array<std::uint64_t, kMaxResources> held_total{};
  for (std::size_t w = 0; w < warp_count; ++w) {
    const SectionSummary& v = summaries[static_cast<std::ptrdiff_t>(w * section_count + s)];
    if (!checked_add(exec_total, v.execution, exec_total)) return Status::overflow;
    if (!checked_add(issue_total, v.issues, issue_total)) return Status::overflow;
    if (v.length > max_length) max_length = v.length;
    used |= v.resource_mask;
    for (std::uint32_t m = v.resource_mask; m != 0; m &= m - 1) {
      const int r = __builtin_ctz(m);
      if (!checked_add(held_total[static_cast<std::size_t>(r)], v.held[static_cast<std::size_t>(r)],
                       held_total[static_cast<std::size_t>(r)])) {
        return Status::overflow;
      }
    }
  }
  SectionBounds b{};
  b.lower = max_length;
  for (std::size_t w = 0; w < warp_count; ++w) {
    const SectionSummary& v = summaries[static_cast<std::ptrdiff_t>(w * section_count + s)];
    // The profiler puts held cycles only on resources in the warp's mask;
    // the sums above drop the others, which would lower another warp's
    // term if it uses that resource. Only resources some warp uses are
    // read, so only those need checking (usually none: every warp of a
    // block tends to use the same ones).
    for (std::uint32_t m = used & ~v.resource_mask; m != 0; m &= m - 1) {
      if (v.held[static_cast<std::size_t>(__builtin_ctz(m))] != 0) return Status::malformed_data;
    }
    // WUB(w): its own phases plus every other warp's execution phases.
    std::uint64_t gub = 0;
    if (!checked_add(v.length, exec_total - v.execution, gub)) return Status::overflow;
    // Tighter: its own phases, one cycle per issue of the others (issue slot
    // taken), and the cycles the others keep a resource w uses busy beyond
    // their issue cycle.
    std::uint64_t tight = 0;
    if (!checked_add(v.length, issue_total - v.issues, tight)) return Status::overflow;
    for (std::uint32_t m = v.resource_mask; m != 0; m &= m - 1) {
      const auto r = static_cast<std::size_t>(__builtin_ctz(m));
      if (!checked_add(tight, held_total[r] - v.held[r], tight)) return Status::overflow;
    }
    if (gub > b.gub) b.gub = gub;
    if (tight > b.tighter) b.tighter = tight;
  }
  out = b;
  return Status::ok;
}

// What the profiler guarantees of every summary, and the bound relies on:
// the phases inside the section (execution + idle <= length: a length cut
// short would lower the bound). Held cycles outside the warp's
// resource_mask are checked in bound_section(). A summary that breaks
// either was not made by profile_warp.
bool consistent(const SectionSummary& v) noexcept {
  std::uint64_t phases = 0;
  return checked_add(v.execution, v.idle, phases) && phases <= v.length;
}

}  // namespace

Status block_bound(gsl::span<const SectionSummary> summaries, std::size_t warp_count,
                   std::size_t section_count, BlockBound& out) noexcept {
  if (warp_count == 0) return Status::zero_warps;
  if (section_count == 0) return Status::invalid_argument;
  std::size_t expected = 0;
  if (__builtin_mul_overflow(warp_count, section_count, &expected) ||
      expected != static_cast<std::size_t>(summaries.size())) {
    return Status::invalid_argument;
  }
  for (const SectionSummary& v : summaries) {
    if (!consistent(v)) return Status::malformed_data;
  }
  BlockBound total{};
  for (std::size_t s = 0; s < section_count; ++s) {
    SectionBounds b{};
    const Status st = bound_section(summaries, warp_count, section_count, s, b);
    if (st != Status::ok) return st;
    if (!checked_add(total.general_upper_bound, b.gub, total.general_upper_bound) ||
        !checked_add(total.safe_upper_bound, b.tighter, total.safe_upper_bound) ||
        !checked_add(total.lower_bound, b.lower, total.lower_bound)) {
      return Status::overflow;
    }
  }
  out = total;
  return Status::ok;
}

}  // namespace gpuwcet
