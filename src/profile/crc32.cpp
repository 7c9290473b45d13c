// CRC-32 for the profile format: bitwise, so that no table takes flash.
#include "gpuwcet/profile.hpp"

namespace gpuwcet {

std::uint32_t crc32(gsl::span<const std::uint8_t> bytes) noexcept {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (const std::uint8_t b : bytes) {
    crc ^= b;
    for (int i = 0; i < 8; ++i) {
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
  }
  return ~crc;
}

}  // namespace gpuwcet
