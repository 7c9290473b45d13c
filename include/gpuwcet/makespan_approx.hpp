// The paper's approximation of the worst-case makespan, Eqs. (42)-(43) of
// Berezovskyi, Bletsas, Andersson (ECRTS 2012):
//
//   T_approx(W) = min over y in 1..x of ceil(W / y) * T(y)
//
// where T(y) is the exact worst makespan of y warps (computed here by the
// search of makespan_search.hpp). It is NOT a safe bound: `LCL`, sigma 1/1,
// W = 4 has T(2) = 4, so the formula gives 8, but a work-conserving schedule
// takes 9. Report it as the paper's estimate only; the safe answers are the
// search's upper bound and safe_pessimistic_makespan (docs/makespan-search.md,
// "The approximation").
#pragma once

#include <cstddef>
#include <cstdint>

#include <gsl/span>

#include "gpuwcet/makespan_search.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

struct ApproxResult {
  std::uint64_t estimate = 0;        // min over y of ceil(W / y) * T(y); NOT safe
  std::uint64_t best_group = 0;      // the y that reaches the minimum
  std::uint64_t group_makespan = 0;  // T(best_group) as used in the formula
  // True when every T(y) used was solved exactly. Otherwise the search's safe
  // upper bound stood in for T(y), so the estimate is at least the paper's.
  bool exact_terms = false;
  std::uint64_t nodes = 0;  // search expansions over all y
};

// Bytes of arena approximate_makespan needs (the largest search it runs).
// Returns ok, invalid_argument for max_group == 0, or any failure of
// makespan_search_arena_bytes.
[[nodiscard]] Status makespan_approx_arena_bytes(const MakespanInstance& instance,
                                                 std::uint64_t max_group,
                                                 const SearchOptions& options,
                                                 std::size_t& bytes) noexcept;

// Eqs. (42)-(43) with y = 1 .. min(max_group, W). `options` applies to each
// search for T(y) separately. Returns ok when every T(y) was exact,
// budget_exhausted when some search ran out (result.exact_terms false),
// overflow when a product exceeds 64 bits, buffer_too_small when the arena is
// smaller than makespan_approx_arena_bytes says, or the failures of that
// function. `result` holds usable values only for ok and budget_exhausted.
[[nodiscard]] Status approximate_makespan(const MakespanInstance& instance,
                                          std::uint64_t max_group, const SearchOptions& options,
                                          gsl::span<std::byte> arena,
                                          ApproxResult& result) noexcept;

}  // namespace gpuwcet
