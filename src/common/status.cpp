#include "gpuwcet/status.hpp"

namespace gpuwcet {

const char* status_message(Status status) noexcept {
  switch (status) {
    case Status::ok: return "ok";
    case Status::invalid_argument: return "invalid argument";
    case Status::empty_kernel: return "the kernel string is empty";
    case Status::unknown_symbol: return "the kernel or SM uses a symbol that is not a class symbol (A-Z)";
    case Status::zero_warps: return "the number of warps is zero";
    case Status::zero_units: return "a unit class has zero units";
    case Status::zero_warp_size: return "the warp size is zero";
    case Status::undescribed_class: return "the kernel uses a unit class the SM does not describe";
    case Status::too_many_classes: return "more unit classes than supported (8)";
    case Status::duplicate_class: return "a unit class is described twice";
    case Status::overflow: return "a cycle count or size overflows 64 bits";
    case Status::buffer_too_small: return "the caller buffer is too small";
    case Status::kernel_too_long: return "the kernel is longer than this call supports";
    case Status::budget_exhausted: return "budget exhausted: bounds are safe but not proven exact";
    case Status::solver_unavailable: return "the requested solver is not built in";
    case Status::solver_failed: return "the solver gave no usable answer";
    case Status::not_found: return "not found";
    case Status::malformed_data: return "malformed data";
    case Status::unsupported_version: return "unsupported format version";
    case Status::launch_does_not_fit: return "not one block of the launch fits on an SM";
    case Status::schedule_unavailable:
      return "bounds are exact, but the budget ran out before a worst schedule was rebuilt";
  }
  return "unknown status";
}

}  // namespace gpuwcet
