// Overflow-checked 64-bit arithmetic for cycle counts.
// Cycle counts must never wrap silently: a wrapped bound is an unsafe bound.
#pragma once

#include <cstdint>

namespace gpuwcet {

// Each returns false (and leaves `out` unspecified) when the exact result
// does not fit in 64 bits.
[[nodiscard]] inline bool checked_add(std::uint64_t a, std::uint64_t b,
                                      std::uint64_t& out) noexcept {
  return !__builtin_add_overflow(a, b, &out);
}

[[nodiscard]] inline bool checked_mul(std::uint64_t a, std::uint64_t b,
                                      std::uint64_t& out) noexcept {
  return !__builtin_mul_overflow(a, b, &out);
}

constexpr std::uint64_t gcd_u64(std::uint64_t a, std::uint64_t b) noexcept {
  while (b != 0) {
    const std::uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// ceil(a / b) for b > 0, without the overflow of (a + b - 1) / b.
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept {
  return a / b + (a % b != 0 ? 1 : 0);
}

// ceil(a * b / c) for c > 0, computed as (a div c) * b + ceil((a mod c) * b
// / c), equal to it, so that a product above 64 bits whose quotient fits is
// no overflow. Returns false when the result does not fit. When (a mod c) *
// b cannot be formed (only if c * b passes 64 bits), `exact` is false and
// `out` is (a div c) * b, less than b below the result; otherwise `exact`
// is true.
[[nodiscard]] inline bool checked_mul_ceil_div(std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                               std::uint64_t& out, bool& exact) noexcept {
  std::uint64_t whole = 0, rest = 0;
  if (!checked_mul(a / c, b, whole)) return false;
  exact = checked_mul(a % c, b, rest);
  if (!exact) {
    out = whole;
    return true;
  }
  return checked_add(whole, ceil_div(rest, c), out);
}

}  // namespace gpuwcet
