// Exact worst-case makespan by branch and bound over symmetric states
// (the exact answer the paper's Sec. 5 ILP asks for; docs/makespan-search.md).
//
// Warps are identical, so a state is the number of warps standing at each
// position of the transformed string, not which ones. The search is a
// depth-first longest-path search over states with a memo of proven values
// and upper bounds, pruned by the safe state bound of makespan_bounds.hpp
// generalised to a state. All memory comes from a caller arena.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <gsl/span>

#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

// Limits of the search's state encoding.
inline constexpr std::size_t kMaxSearchLength = 64;          // transformed positions
inline constexpr std::uint64_t kMaxSearchWarps = 65535;      // warps per state count

// The transformed problem: instr[k] is the class of position k.
struct MakespanInstance {
  gsl::span<const std::uint8_t> instr;
  std::size_t class_count = 0;
  std::array<std::uint64_t, kMaxUnitClasses> capacity{};
  std::uint64_t warps = 0;
};

struct SearchProgress {
  std::uint64_t nodes = 0;
  std::uint64_t lower_bound = 0;  // longest real schedule known
  std::uint64_t upper_bound = 0;  // safe
};

using SearchProgressFn = void (*)(const SearchProgress& progress, void* user);

struct SearchOptions {
  // Node expansions allowed; 0 = no limit (the state space is finite).
  std::uint64_t max_nodes = 0;
  // States generated allowed, the cycles of the two incumbent schedules
  // included: it bounds the whole call (the budget for RTOS use); 0 = no
  // limit. max_nodes does not bound the incumbents, which play up to the
  // safe bound's cycles (millions for 65,535 warps).
  std::uint64_t max_steps = 0;
  // Memo entries to size the arena for; 0 = a default of 1 << 16.
  std::uint64_t memo_entries = 0;
  // Called every `progress_every` expansions when not null.
  SearchProgressFn progress = nullptr;
  void* progress_user = nullptr;
  std::uint64_t progress_every = 1u << 20;
  // Prune with min(B1, B2) refined by rule N, the bounds that read the
  // string's order (docs/makespan-search.md); false: with plain B1 alone,
  // the reference bench/bench_makespan_search.cpp compares against.
  bool order_bounds = true;
};

struct SearchResult {
  std::uint64_t lower_bound = 0;  // a real work-conserving schedule takes at least this
  std::uint64_t upper_bound = 0;  // no work-conserving schedule is longer
  bool exact = false;             // lower_bound == upper_bound is proven
  std::uint64_t nodes = 0;        // expansions performed
  std::uint64_t steps = 0;        // child states generated
  std::uint64_t memo_used = 0;    // memo entries filled
  // Cycles of the schedule written to the caller's buffer (0: none). Equals
  // upper_bound when exact; on budget_exhausted it is the incumbent's length,
  // which may be below lower_bound when the search proved a longer schedule
  // exists without keeping its cycles; 0 on schedule_unavailable.
  std::uint64_t schedule_cycles = 0;
};

// Bytes of arena search_worst_makespan needs for this instance and options:
// a stack frame per level up to min(B1, B2) of the initial state, or up to
// max_nodes or max_steps when smaller (no search within them goes deeper),
// and the memo.
// Returns ok, invalid_argument (no instructions, a class index out of range,
// zero capacity), kernel_too_long (length > kMaxSearchLength or warps >
// kMaxSearchWarps), zero_warps or overflow.
[[nodiscard]] Status makespan_search_arena_bytes(const MakespanInstance& instance,
                                                 const SearchOptions& options,
                                                 std::size_t& bytes) noexcept;

// The worst-case makespan over all work-conserving schedules.
// Returns ok with result.exact, budget_exhausted with safe bounds that are
// not proven equal, buffer_too_small when the arena is smaller than
// makespan_search_arena_bytes says, or the failures of that function.
//
// When `schedule` is not empty it receives a worst schedule of
// result.lower_bound cycles as warps advanced per cycle and position:
// schedule[t * length + k] = warps that executed position k in cycle t.
// It needs result.upper_bound * length entries at most (makespan_bounds.hpp's
// safe bound times length is always enough); if too small, the bounds are
// still returned and the status is buffer_too_small. Rebuilding it after the
// search spends the same budget (options.max_nodes, max_steps), as does
// playing the incumbent when the trivial lower bound (makespan_bounds.hpp)
// already meets the upper bound and proves the value: when that runs out
// first the status is schedule_unavailable, with the exact bounds
// (result.exact) and result.schedule_cycles 0; the buffer's contents are
// then meaningless. Without a schedule such a value is returned at once.
[[nodiscard]] Status search_worst_makespan(const MakespanInstance& instance,
                                           const SearchOptions& options,
                                           gsl::span<std::byte> arena, SearchResult& result,
                                           gsl::span<std::uint32_t> schedule = {}) noexcept;

// Safe upper bound on the remaining makespan from a state: counts[k] warps at
// position k < length, the rest of the instance's warps finished
// (docs/makespan-search.md: the smaller of bounds B1 and B2). 0 for a state
// with every warp finished.
// Returns ok with `bound` set, the failures of makespan_search_arena_bytes
// for the instance, or invalid_argument when counts does not hold exactly
// one entry per transformed position or counts more warps than the
// instance has; `bound` is then untouched.
[[nodiscard]] Status state_upper_bound(const MakespanInstance& instance,
                                       gsl::span<const std::uint16_t> counts,
                                       std::uint64_t& bound) noexcept;

}  // namespace gpuwcet
