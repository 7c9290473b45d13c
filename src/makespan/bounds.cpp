#include "gpuwcet/makespan_bounds.hpp"

#include <array>

#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {

namespace {

// floor((W - 1) count / capacity), the cycles the last warp can wait on a
// class while the others' instructions of it are served, computed as
// ((W - 1) div capacity) count + floor(((W - 1) mod capacity) count /
// capacity): equal, and no overflow where only the product (W - 1) count
// passes 64 bits. False when the result does not fit (or, for a capacity
// times count past 64 bits, the second product).
bool others_waits(std::uint64_t warps, std::uint64_t count, std::uint64_t capacity,
                  std::uint64_t& out) noexcept {
  std::uint64_t whole = 0, rest = 0;
  return checked_mul((warps - 1) / capacity, count, whole) &&
         checked_mul((warps - 1) % capacity, count, rest) &&
         checked_add(whole, rest / capacity, out);
}

}  // namespace

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
    std::uint64_t waits = 0;
    if (!others_waits(warps, shape.count[u], shape.capacity[u], waits) ||
        !checked_add(total, waits, total)) {
      return Status::overflow;
    }
  }
  cycles = total;
  return Status::ok;
}

Status order_aware_makespan_bound(const TransformedShape& shape,
                                  gsl::span<const std::uint8_t> classes, std::uint64_t warps,
                                  std::uint64_t& cycles) noexcept {
  if (warps == 0) return Status::zero_warps;
  if (shape.class_count == 0 || shape.class_count > kMaxUnitClasses ||
      classes.size() != shape.length || classes.empty()) {
    return Status::invalid_argument;
  }
  const std::size_t n = classes.size();
  std::array<std::uint64_t, kMaxUnitClasses> count{};
  for (const std::uint8_t c : classes) {
    if (c >= shape.class_count) return Status::invalid_argument;
    ++count[c];
  }
  for (std::size_t u = 0; u < shape.class_count; ++u) {
    if (count[u] != shape.count[u] || shape.capacity[u] == 0) return Status::invalid_argument;
  }
  // Rule N at the initial state (docs/makespan-search.md): v never blocks
  // when no two v-positions are adjacent, the classes directly before a
  // v-position serve at most capacity[v] per cycle together, and the W warps
  // do not start on v (its queue starts empty).
  std::array<bool, kMaxUnitClasses> single_runs{};
  std::array<std::uint64_t, kMaxUnitClasses> inflow{};
  std::array<bool, kMaxUnitClasses * kMaxUnitClasses> before{};
  for (std::size_t v = 0; v < shape.class_count; ++v) single_runs[v] = true;
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const std::size_t p = classes[j];
    const std::size_t v = classes[j + 1];
    if (p == v) {
      single_runs[v] = false;
    } else if (!before[p * kMaxUnitClasses + v]) {
      before[p * kMaxUnitClasses + v] = true;
      if (!checked_add(inflow[v], shape.capacity[p], inflow[v])) return Status::overflow;
    }
  }
  // blocked[v]: cycles the last warp can wait unserved on v (B1's terms).
  std::array<std::uint64_t, kMaxUnitClasses> blocked{};
  std::uint64_t b1 = n;
  for (std::size_t v = 0; v < shape.class_count; ++v) {
    if (shape.capacity[v] >= warps || count[v] == 0) continue;
    if (single_runs[v] && inflow[v] <= shape.capacity[v] && classes[0] != v) continue;  // rule N
    if (!others_waits(warps, count[v], shape.capacity[v], blocked[v]) ||
        !checked_add(b1, blocked[v], b1)) {
      return Status::overflow;
    }
  }
  std::uint64_t best = b1;
  // B2_u for each class u of capacity 1: u's work plus its idle cycles
  // (docs/makespan-search.md, "Bound B2").
  for (std::size_t u = 0; u < shape.class_count; ++u) {
    if (shape.capacity[u] != 1) continue;
    // A B2_u past 64 bits is above B1, which fits: it cannot be the least.
    std::uint64_t b = 0;
    bool fits = checked_mul(warps, count[u], b) && checked_add(b, n - count[u], b);
    for (std::size_t v = 0; v < shape.class_count && fits; ++v) {
      if (v == u || count[v] == 0) continue;
      bool feeds = true;
      for (std::size_t j = 0; j < n && feeds; ++j) {
        if (classes[j] == v) feeds = j + 1 < n && classes[j + 1] == u;
      }
      if (!feeds) fits = checked_add(b, blocked[v], b);
    }
    if (fits && b < best) best = b;
  }
  cycles = best;
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
    // ceil(W * count / capacity) without the product (W = 2^63, count 2,
    // capacity 2 fits). Where it comes out inexact, below the true value,
    // it is still a lower bound.
    const std::uint64_t c = shape.capacity[u];
    if (c == 0) return Status::invalid_argument;  // a shape analyze_kernel did not make
    std::uint64_t need = 0;
    bool exact = true;
    if (!checked_mul_ceil_div(warps, shape.count[u], c, need, exact)) return Status::overflow;
    if (need > best) best = need;
  }
  cycles = best;
  return Status::ok;
}

}  // namespace gpuwcet
