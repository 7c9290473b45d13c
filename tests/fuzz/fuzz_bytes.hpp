// Shared by the C API fuzz targets: the input read front to back as small
// integers, and a check that names its line before it aborts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace gpuwcet::fuzz {

// Past the input's end every read is 0. Multi-byte values are little-endian,
// their bytes read in sequence (not as two operands of one expression, whose
// order C++ leaves open).
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t u8() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint16_t u16() {
    const std::uint16_t low = u8();
    return static_cast<std::uint16_t>(low | (u8() << 8));
  }
  std::uint32_t u32() {
    const std::uint32_t low = u16();
    return low | (std::uint32_t{u16()} << 16);
  }
  std::uint64_t u64() {
    const std::uint64_t low = u32();
    return low | (std::uint64_t{u32()} << 32);
  }
  void copy(void* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) static_cast<std::uint8_t*>(out)[i] = u8();
  }
  std::size_t left() const { return size_ - at_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

inline void check_at(bool ok, const char* file, int line) {
  if (ok) return;
  std::fprintf(stderr, "%s:%d: check failed\n", file, line);
  std::abort();
}

}  // namespace gpuwcet::fuzz

#define FUZZ_CHECK(ok) ::gpuwcet::fuzz::check_at((ok), __FILE__, __LINE__)
