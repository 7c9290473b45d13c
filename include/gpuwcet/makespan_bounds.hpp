// Closed-form makespan bounds for W identical warps on one SM.
//
// Model (Berezovskyi et al., ECRTS 2012): after the transformation of
// kernel_string.hpp every instruction takes one cycle and class u serves at
// most capacity[u] warps per cycle; a work-conserving scheduler serves
// min(capacity[u], warps waiting on u) of them in every cycle.
#pragma once

#include <cstdint>

#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

// Safe upper bound on the makespan of every work-conserving schedule, for
// every capacity (proof: docs/makespan-bounds.md):
//
//   I' + sum over u with capacity[u] < W of floor((W - 1) * count[u] / capacity[u])
//
// Returns ok, zero_warps, or overflow when the bound exceeds 64 bits.
[[nodiscard]] Status safe_pessimistic_makespan(const TransformedShape& shape,
                                               std::uint64_t warps,
                                               std::uint64_t& cycles) noexcept;

// Safe upper bound that also reads the order of the transformed string
// (docs/makespan-search.md, "Pruning bounds", at the initial state): the
// smaller of B1 and, for each class u of capacity 1,
//
//   B2_u = W * count[u] + (I' - count[u])
//          + sum over v != u that do not feed u of blocked[v]
//
// where blocked[v] = floor((W - 1) * count[v] / capacity[v]) when
// capacity[v] < W (B1 = I' + sum over v of blocked[v]), except that rule N
// sets blocked[v] = 0 when no two v-instructions are adjacent, the string
// does not start with v, and the classes directly before a v-instruction
// have capacities adding up to at most capacity[v]. v feeds u when every
// v-instruction is directly followed by a u-instruction. Never above
// safe_pessimistic_makespan; with capacities 1/1 exact on the paper's Fig. 6
// and Fig. 7 strings (LLCLL: 4W + 1; LLCLLCLL: 6W + 2). `classes` is the
// transformed string as class indices (transform_to_classes).
// Returns ok, zero_warps, invalid_argument (classes inconsistent with
// shape, a zero capacity) or overflow.
[[nodiscard]] Status order_aware_makespan_bound(const TransformedShape& shape,
                                                gsl::span<const std::uint8_t> classes,
                                                std::uint64_t warps,
                                                std::uint64_t& cycles) noexcept;

// The paper's pessimistic estimate, Eqs. (5)-(7): sum over u of
// ceil(W / sigma_u) * count[u] on the transformed string. NOT safe once some
// capacity exceeds 1 (`LL`, sigma_L = 2, W = 4: 4 cycles, but a
// work-conserving schedule takes 5). Reported for comparison only.
// Returns ok, zero_warps or overflow.
[[nodiscard]] Status paper_pessimistic_estimate(const TransformedShape& shape,
                                                std::uint64_t warps,
                                                std::uint64_t& cycles) noexcept;

// Trivial lower bound: no schedule is shorter than one warp's string, nor
// than the time the busiest class needs: max(I', max_u ceil(W * count[u] / capacity[u])).
[[nodiscard]] Status makespan_lower_bound(const TransformedShape& shape, std::uint64_t warps,
                                          std::uint64_t& cycles) noexcept;

}  // namespace gpuwcet
