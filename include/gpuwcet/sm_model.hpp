// Description of one streaming multiprocessor for the makespan model
// (Berezovskyi, Bletsas, Andersson, ECRTS 2012, Sec. 3).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "gpuwcet/status.hpp"

namespace gpuwcet {

// At most this many unit classes (L, C, SFU, FP64, tensor, ...).
inline constexpr std::size_t kMaxUnitClasses = 8;

// One unit class: the symbol that names it in a kernel string and how many
// lanes (units) of that class the SM has.
struct UnitClass {
  char symbol = '\0';
  std::uint32_t units = 0;
};

// An exact non-negative rational p/q, always kept reduced with q > 0.
struct Rational {
  std::uint64_t num = 0;
  std::uint64_t den = 1;
};

// The SM: warp size S and the unit classes. Plain data; validate() says
// whether it can be used.
struct SmDescription {
  std::uint32_t warp_size = 0;
  std::size_t class_count = 0;
  std::array<UnitClass, kMaxUnitClasses> classes{};

  // Appends a class; fails on a full table, a duplicate or a bad symbol.
  [[nodiscard]] Status add_class(char symbol, std::uint32_t units) noexcept;

  // Index of the class named `symbol`, or class_count when absent.
  [[nodiscard]] std::size_t find(char symbol) const noexcept;

  // ok, or the first problem: zero_warp_size, too_many_classes,
  // unknown_symbol, duplicate_class, zero_units.
  [[nodiscard]] Status validate() const noexcept;

  // sigma_u = U_u / S as a reduced fraction: warps per cycle that class u
  // can serve. Requires a valid description and index < class_count.
  [[nodiscard]] Rational sigma(std::size_t index) const noexcept;
};

// Class symbols are the ASCII capital letters.
constexpr bool is_class_symbol(char c) noexcept { return c >= 'A' && c <= 'Z'; }

}  // namespace gpuwcet
