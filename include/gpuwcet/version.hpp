// Library version; the C API exposes the same numbers.
#pragma once

#include <cstdint>

namespace gpuwcet {

inline constexpr std::uint32_t kVersionMajor = 0;
inline constexpr std::uint32_t kVersionMinor = 5;
inline constexpr std::uint32_t kVersionPatch = 2;
inline constexpr const char* kVersionString = "0.5.2";

}  // namespace gpuwcet
