#include "gpuwcet/makespan_bounds.hpp"

#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {

Status safe_pessimistic_makespan(const TransformedShape& shape, std::uint64_t warps,
                                 std::uint64_t& cycles) noexcept {
  if (warps == 0) return Status::zero_warps;
  // Follow the warp w that finishes last. In each cycle either w advances
  // (at most I' such cycles) or w waits on the class u of its next
  // instruction, which then serves capacity[u] *other* warps. The other
  // W - 1 warps hold (W - 1) * count[u] u-instructions, so w waits on u in at
  // most floor((W - 1) * count[u] / capacity[u]) cycles, and never when
  // capacity[u] >= W. Full argument: docs/makespan-bounds.md.
  std::uint64_t total = shape.length;
  for (std::size_t u = 0; u < shape.class_count; ++u) {
    if (shape.capacity[u] >= warps || shape.count[u] == 0) continue;
    std::uint64_t others_work = 0;
    if (!checked_mul(warps - 1, shape.count[u], others_work)) return Status::overflow;
    if (!checked_add(total, others_work / shape.capacity[u], total)) return Status::overflow;
  }
  cycles = total;
  return Status::ok;
}

Status paper_pessimistic_estimate(const TransformedShape& shape, std::uint64_t warps,
                                  std::uint64_t& cycles) noexcept {
  if (warps == 0) return Status::zero_warps;
  // Eqs. (5)-(7): every instruction of class u is charged ceil(W / sigma_u)
  // cycles, sigma_u being the (integer) capacity after the transformation.
  std::uint64_t total = 0;
  for (std::size_t u = 0; u < shape.class_count; ++u) {
    std::uint64_t term = 0;
    if (!checked_mul(ceil_div(warps, shape.capacity[u]), shape.count[u], term)) {
      return Status::overflow;
    }
    if (!checked_add(total, term, total)) return Status::overflow;
  }
  cycles = total;
  return Status::ok;
}

Status makespan_lower_bound(const TransformedShape& shape, std::uint64_t warps,
                            std::uint64_t& cycles) noexcept {
  if (warps == 0) return Status::zero_warps;
  std::uint64_t best = shape.length;
  for (std::size_t u = 0; u < shape.class_count; ++u) {
    std::uint64_t work = 0;
    if (!checked_mul(warps, shape.count[u], work)) return Status::overflow;
    const std::uint64_t need = ceil_div(work, shape.capacity[u]);
    if (need > best) best = need;
  }
  cycles = best;
  return Status::ok;
}

}  // namespace gpuwcet
