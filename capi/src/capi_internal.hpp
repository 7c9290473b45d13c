// Conversions between the C API's plain structs and the core's types.
// Shared by the C API translation units only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <gsl/span>

#include "gpuwcet.h"
#include "gpuwcet/sm_model.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet::capi {

inline gpuwcet_status to_c(Status s) noexcept { return static_cast<gpuwcet_status>(s); }

// True when a caller struct is at least as large as the first release's
// layout up to and including `last_field_end` bytes.
inline bool struct_size_ok(std::uint32_t struct_size, std::size_t first_release_size) noexcept {
  return struct_size >= first_release_size;
}

// Copies a C SM description into the core's form. Returns invalid_argument
// for NULL or a bad struct_size, too_many_classes for class_count > 8.
inline Status from_c(const gpuwcet_sm_desc* in, SmDescription& out) noexcept {
  if (in == nullptr || !struct_size_ok(in->struct_size, sizeof(gpuwcet_sm_desc))) {
    return Status::invalid_argument;
  }
  if (in->class_count > kMaxUnitClasses) return Status::too_many_classes;
  out = SmDescription{};
  out.warp_size = in->warp_size;
  out.class_count = in->class_count;
  for (std::size_t i = 0; i < in->class_count; ++i) {
    out.classes[i] = UnitClass{in->classes[i].symbol, in->classes[i].units};
  }
  return out.validate();
}

// A (pointer, length) kernel as a view; NULL is accepted only with length 0.
inline bool kernel_view(const char* kernel, std::size_t len, std::string_view& out) noexcept {
  if (kernel == nullptr && len != 0) return false;
  out = kernel == nullptr ? std::string_view{} : std::string_view{kernel, len};
  return true;
}

// A caller's buffer of `count` elements as a span (empty for NULL).
// gsl::span reserves SIZE_MAX as its dynamic extent and terminates on it,
// while C callers may pass SIZE_MAX for "large enough"; no buffer holds
// more than PTRDIFF_MAX bytes, so a larger count is read as that many. The
// core uses only what it needs of a buffer and checks that against the
// span's size.
template <typename T>
gsl::span<T> caller_span(T* data, std::size_t count) noexcept {
  constexpr std::size_t kMax = static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(T);
  if (data == nullptr) return {};
  return gsl::span<T>(data, count < kMax ? count : kMax);
}

// An arena as bytes (caller_span of its void pointer).
inline gsl::span<std::byte> caller_arena(void* arena, std::size_t bytes) noexcept {
  return caller_span(static_cast<std::byte*>(arena), bytes);
}

}  // namespace gpuwcet::capi
