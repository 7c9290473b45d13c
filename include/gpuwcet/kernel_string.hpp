// A kernel instruction string over unit-class symbols and its transformation
// to unit capacities (Berezovskyi et al., ECRTS 2012, Sec. 3 and Fig. 1).
//
// The paper turns sigma = 1/n into sigma = 1 by repeating each instruction n
// times. We generalise: with sigma_u = p/q (reduced), one u-instruction of a
// warp becomes q sub-warp instructions of S/q threads each, and class u then
// serves p sub-warp instructions per cycle. `LC` with L=16, C=32, S=32 becomes
// `LLC` with capacities L:1, C:1, as in Fig. 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <gsl/span>

#include "gpuwcet/sm_model.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

// What the transformation makes of a kernel, without materialising it.
struct TransformedShape {
  std::size_t class_count = 0;
  // Sub-warp instructions a warp issues per original instruction of class u (q_u).
  std::array<std::uint64_t, kMaxUnitClasses> repeat{};
  // Sub-warp instructions of class u served per cycle after the transformation (p_u).
  std::array<std::uint64_t, kMaxUnitClasses> capacity{};
  // Transformed instructions of class u in one warp's string (n_u * q_u).
  std::array<std::uint64_t, kMaxUnitClasses> count{};
  // Transformed string length I' = sum over u of count[u].
  std::uint64_t length = 0;
};

// Checks `kernel` against `sm` and fills `shape`. On a bad symbol or an
// undescribed class, `error_index` (when not null) receives the offending
// position. Returns ok, empty_kernel, unknown_symbol, undescribed_class,
// overflow, or the status of sm.validate().
[[nodiscard]] Status analyze_kernel(const SmDescription& sm, std::string_view kernel,
                                    TransformedShape& shape,
                                    std::size_t* error_index = nullptr) noexcept;

// Writes the transformed string as class symbols (e.g. "LLC"), without a
// terminator. `written` receives its length. Returns buffer_too_small when
// `out` is shorter than shape.length (nothing is promised about `out` then),
// plus every status of analyze_kernel.
[[nodiscard]] Status transform_to_symbols(const SmDescription& sm, std::string_view kernel,
                                          gsl::span<char> out, std::size_t& written) noexcept;

// Same, as class indices into sm.classes: the form the solvers work on.
[[nodiscard]] Status transform_to_classes(const SmDescription& sm, std::string_view kernel,
                                          gsl::span<std::uint8_t> out,
                                          std::size_t& written) noexcept;

}  // namespace gpuwcet
