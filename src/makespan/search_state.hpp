// Internal pieces of the exact makespan search: the problem tables, the
// enumeration of one cycle's work-conserving choices, and the memo.
// Not part of the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gpuwcet/makespan_search.hpp"

namespace gpuwcet::search_detail {

using Count = std::uint16_t;

// Tables derived once from the instance.
struct Tables {
  std::size_t length = 0;
  std::size_t classes = 0;
  std::uint64_t warps = 0;
  std::array<std::uint64_t, kMaxUnitClasses> capacity{};
  // Positions of each class, most advanced first: class u owns
  // positions[offset[u] .. offset[u + 1]).
  std::array<std::uint8_t, kMaxSearchLength> positions{};
  std::array<std::uint8_t, kMaxUnitClasses + 1> offset{};
  // suffix[u * (length + 1) + k]: class-u instructions at positions >= k.
  std::array<std::uint16_t, kMaxUnitClasses*(kMaxSearchLength + 1)> suffix{};
  // feeds[v * kMaxUnitClasses + u]: class v has positions and each of them
  // is directly followed by a class-u position (bound B2's condition).
  std::array<bool, kMaxUnitClasses * kMaxUnitClasses> feeds{};
  // Rule N (docs/makespan-search.md): single_runs[v] when no v-position is
  // followed by another v-position; inflow[v] = sum of the capacities of the
  // other classes that have a position directly before a v-position.
  std::array<bool, kMaxUnitClasses> single_runs{};
  std::array<std::uint64_t, kMaxUnitClasses> inflow{};
  // fed[u]: some class feeds u. B2_u is never below B1 otherwise (its
  // terms then dominate B1's term by term), so it is skipped.
  std::array<bool, kMaxUnitClasses> fed{};
  // Whether upper_bound may use bound B2 and rule N (SearchOptions::order_bounds).
  bool order_bounds = true;

  std::uint16_t remaining(std::size_t u, std::size_t k) const noexcept {
    return suffix[u * (length + 1) + k];
  }
};

Status build_tables(const MakespanInstance& instance, Tables& t) noexcept;

// Safe bound on the remaining makespan from `counts`: the smaller of
// bounds B1 and B2 (docs/makespan-search.md).
std::uint32_t upper_bound(const Tables& t, const Count* counts) noexcept;

// True when no warp is left before the end of the string.
inline bool finished(const Tables& t, const Count* counts) noexcept {
  for (std::size_t k = 0; k < t.length; ++k) {
    if (counts[k] != 0) return false;
  }
  return true;
}

// One cycle's choice: take[k] warps execute position k. For each class u,
// exactly min(capacity[u], waiting on u) warps are taken. Choices are
// enumerated class by class, each class's distribution in decreasing
// lexicographic order over its positions, most advanced first; the first
// choice serves the most advanced warps.
bool first_choice(const Tables& t, const Count* counts, Count* take) noexcept;
bool next_choice(const Tables& t, const Count* counts, Count* take) noexcept;
// The last choice of the order: serves the least advanced warps.
void last_choice(const Tables& t, const Count* counts, Count* take) noexcept;

// child[k] = counts[k] - take[k] + take[k - 1].
inline void apply(const Tables& t, const Count* counts, const Count* take, Count* child) noexcept {
  Count carried = 0;
  for (std::size_t k = 0; k < t.length; ++k) {
    child[k] = static_cast<Count>(counts[k] - take[k] + carried);
    carried = take[k];
  }
}

// Open-addressing memo of per-state results, in the arena. When full it
// stops inserting: the search stays correct, only slower.
class Memo {
 public:
  static constexpr std::uint8_t kEmpty = 0;
  static constexpr std::uint8_t kUpper = 1;  // value bounds the remaining makespan
  static constexpr std::uint8_t kExact = 2;  // value is the remaining makespan

  static std::size_t stride(std::size_t length) noexcept {
    // key (2 bytes a position), then value (4) and kind (1), rounded to 4.
    return (2 * length + 8 + 3) & ~std::size_t{3};
  }

  void init(std::byte* base, std::size_t capacity, std::size_t length) noexcept;
  // Returns the entry's kind and value for `key`, kEmpty when absent.
  std::uint8_t find(const Count* key, std::uint32_t& value) const noexcept;
  void store(const Count* key, std::uint8_t kind, std::uint32_t value) noexcept;
  std::uint64_t used() const noexcept { return used_; }

 private:
  std::byte* slot(std::size_t i) const noexcept { return base_ + i * stride_; }
  std::size_t hash(const Count* key) const noexcept;

  std::byte* base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t length_ = 0;
  std::size_t stride_ = 0;
  std::uint64_t used_ = 0;
};

}  // namespace gpuwcet::search_detail
