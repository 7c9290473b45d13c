#include "gpuwcet/makespan_approx.hpp"

#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {

Status makespan_approx_arena_bytes(const MakespanInstance& instance, std::uint64_t max_group,
                                   const SearchOptions& options, std::size_t& bytes) noexcept {
  if (max_group == 0) return Status::invalid_argument;
  if (instance.warps == 0) return Status::zero_warps;
  const std::uint64_t last = max_group < instance.warps ? max_group : instance.warps;
  // The search's arena grows with the warp count (its stack is as deep as
  // the safe bound), but take the maximum rather than rely on that.
  std::size_t most = 0;
  for (std::uint64_t y = 1; y <= last; ++y) {
    MakespanInstance group = instance;
    group.warps = y;
    std::size_t b = 0;
    const Status st = makespan_search_arena_bytes(group, options, b);
    if (st != Status::ok) return st;
    if (b > most) most = b;
  }
  bytes = most;
  return Status::ok;
}

Status approximate_makespan(const MakespanInstance& instance, std::uint64_t max_group,
                            const SearchOptions& options, gsl::span<std::byte> arena,
                            ApproxResult& result) noexcept {
  result = ApproxResult{};
  std::size_t need = 0;
  Status st = makespan_approx_arena_bytes(instance, max_group, options, need);
  if (st != Status::ok) return st;
  if (arena.size() < need) return Status::buffer_too_small;
  const std::uint64_t last = max_group < instance.warps ? max_group : instance.warps;
  bool all_exact = true;
  for (std::uint64_t y = 1; y <= last; ++y) {
    MakespanInstance group = instance;
    group.warps = y;
    SearchResult r;
    st = search_worst_makespan(group, options, arena, r);
    if (!has_result(st)) return st;
    result.nodes += r.nodes;
    all_exact = all_exact && r.exact;
    // Eq. (43): ceil(W / y) groups of y warps run one after the other, each
    // taking T(y). Without an exact T(y) its safe upper bound stands in.
    std::uint64_t term = 0;
    if (!checked_mul(ceil_div(instance.warps, y), r.upper_bound, term)) return Status::overflow;
    if (y == 1 || term < result.estimate) {
      result.estimate = term;
      result.best_group = y;
      result.group_makespan = r.upper_bound;
    }
  }
  result.exact_terms = all_exact;
  return all_exact ? Status::ok : Status::budget_exhausted;
}

}  // namespace gpuwcet
