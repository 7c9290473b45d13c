// Status codes returned by every public entry point of the core.
// The numeric values are part of the stable C API (capi/include/gpuwcet.h
// mirrors them one for one), so further codes are only ever appended.
#pragma once

#include <cstdint>

namespace gpuwcet {

enum class Status : std::int32_t {
  ok = 0,
  invalid_argument = 1,      // null pointer, bad struct_size, out-of-range option
  empty_kernel = 2,          // kernel string has no instruction
  unknown_symbol = 3,        // a character that cannot name a unit class
  zero_warps = 4,            // W = 0
  zero_units = 5,            // a described unit class has no unit
  zero_warp_size = 6,        // S = 0
  undescribed_class = 7,     // the kernel uses a class the SM does not describe
  too_many_classes = 8,      // more than kMaxUnitClasses
  duplicate_class = 9,       // the same symbol described twice
  overflow = 10,             // a cycle count or size does not fit in 64 bits
  buffer_too_small = 11,     // caller buffer or arena smaller than required
  kernel_too_long = 12,      // more instructions than the call supports
  budget_exhausted = 13,     // search stopped early: bounds are safe, not exact
  solver_unavailable = 14,   // the requested solver is not built in
  solver_failed = 15,        // an external solver gave no usable answer
  not_found = 16,            // a named item does not exist
  malformed_data = 17,       // a blob or record failed validation
  unsupported_version = 18,  // a blob written by an incompatible format version
  launch_does_not_fit = 19,  // not one block of the launch fits on an SM
  schedule_unavailable = 20, // bounds are exact, the budget ran out before a worst schedule was rebuilt
};

// A short English message for a status; never null, never allocates.
const char* status_message(Status status) noexcept;

// True for the statuses after which the out-parameters hold usable values.
// budget_exhausted still delivers safe bounds, only not proven exact ones;
// schedule_unavailable exact bounds without the schedule asked for.
constexpr bool has_result(Status status) noexcept {
  return status == Status::ok || status == Status::budget_exhausted ||
         status == Status::schedule_unavailable;
}

}  // namespace gpuwcet
