// Kernel-string and makespan functions of the C API.
#include "capi_internal.hpp"
#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/makespan_bounds.hpp"

using gpuwcet::Status;
using gpuwcet::capi::to_c;

namespace {

Status shape_of(const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len,
                gpuwcet::SmDescription& core, gpuwcet::TransformedShape& shape,
                size_t* error_index) {
  std::string_view view;
  if (!gpuwcet::capi::kernel_view(kernel, kernel_len, view)) return Status::invalid_argument;
  const Status st = gpuwcet::capi::from_c(sm, core);
  if (st != Status::ok) return st;
  return gpuwcet::analyze_kernel(core, view, shape, error_index);
}

using BoundFn = Status (*)(const gpuwcet::TransformedShape&, std::uint64_t, std::uint64_t&);

bool result_ok(const gpuwcet_makespan_result* result) {
  return result != nullptr &&
         gpuwcet::capi::struct_size_ok(result->struct_size, sizeof(gpuwcet_makespan_result));
}

// Writes a closed-form answer of `cycles` with the trivial lower bound.
gpuwcet_status write_closed_form(const gpuwcet::TransformedShape& shape, uint64_t warps,
                                 std::uint64_t cycles, gpuwcet_method method, bool safe,
                                 gpuwcet_makespan_result* result) {
  std::uint64_t lower = 0;
  const Status st = gpuwcet::makespan_lower_bound(shape, warps, lower);
  if (st != Status::ok) return to_c(st);
  result->method = method;
  result->makespan = cycles;
  result->lower_bound = lower;
  result->upper_bound = cycles;
  // Only a proven bound can be proven exact: the paper's estimate never is.
  result->exact = (safe && cycles == lower) ? 1 : 0;
  result->safe = safe ? 1 : 0;
  return GPUWCET_OK;
}

gpuwcet_status closed_form(const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len,
                           uint64_t warps, gpuwcet_makespan_result* result, BoundFn bound,
                           gpuwcet_method method, bool safe) {
  if (!result_ok(result)) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::SmDescription core;
  gpuwcet::TransformedShape shape;
  Status st = shape_of(sm, kernel, kernel_len, core, shape, nullptr);
  if (st != Status::ok) return to_c(st);
  std::uint64_t cycles = 0;
  st = bound(shape, warps, cycles);
  if (st != Status::ok) return to_c(st);
  return write_closed_form(shape, warps, cycles, method, safe, result);
}

}  // namespace

extern "C" {

gpuwcet_status gpuwcet_transformed_length(const gpuwcet_sm_desc* sm, const char* kernel,
                                          size_t kernel_len, uint64_t* length,
                                          size_t* error_index) {
  if (length == nullptr) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::SmDescription core;
  gpuwcet::TransformedShape shape;
  const Status st = shape_of(sm, kernel, kernel_len, core, shape, error_index);
  if (st != Status::ok) return to_c(st);
  *length = shape.length;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_transform_kernel(const gpuwcet_sm_desc* sm, const char* kernel,
                                        size_t kernel_len, char* out, size_t capacity,
                                        size_t* written) {
  if (out == nullptr || written == nullptr) return GPUWCET_INVALID_ARGUMENT;
  std::string_view view;
  if (!gpuwcet::capi::kernel_view(kernel, kernel_len, view)) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::SmDescription core;
  Status st = gpuwcet::capi::from_c(sm, core);
  if (st != Status::ok) return to_c(st);
  if (capacity == 0) {
    // Not even room for the NUL; a kernel that does not transform says so
    // first, as with any other capacity.
    gpuwcet::TransformedShape shape;
    st = gpuwcet::analyze_kernel(core, view, shape, nullptr);
    return to_c(st != Status::ok ? st : Status::buffer_too_small);
  }
  size_t n = 0;
  // Keep the last byte for the terminator.
  st = gpuwcet::transform_to_symbols(core, view, gpuwcet::capi::caller_span(out, capacity - 1), n);
  if (st != Status::ok) return to_c(st);
  out[n] = '\0';
  *written = n;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_makespan_result_init(gpuwcet_makespan_result* r) {
  if (r == nullptr) return GPUWCET_INVALID_ARGUMENT;
  *r = gpuwcet_makespan_result{};
  r->struct_size = sizeof(gpuwcet_makespan_result);
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_makespan_pessimistic(const gpuwcet_sm_desc* sm, const char* kernel,
                                            size_t kernel_len, uint64_t warps,
                                            gpuwcet_makespan_result* result) {
  return closed_form(sm, kernel, kernel_len, warps, result, gpuwcet::safe_pessimistic_makespan,
                     GPUWCET_METHOD_PESSIMISTIC, true);
}

gpuwcet_status gpuwcet_makespan_order_aware(const gpuwcet_sm_desc* sm, const char* kernel,
                                            size_t kernel_len, uint64_t warps, uint8_t* scratch,
                                            size_t scratch_len, gpuwcet_makespan_result* result) {
  if (!result_ok(result)) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::SmDescription core;
  gpuwcet::TransformedShape shape;
  Status st = shape_of(sm, kernel, kernel_len, core, shape, nullptr);
  if (st != Status::ok) return to_c(st);
  if (scratch == nullptr || scratch_len < shape.length) return GPUWCET_BUFFER_TOO_SMALL;
  std::string_view view;
  (void)gpuwcet::capi::kernel_view(kernel, kernel_len, view);  // checked by shape_of
  std::size_t n = 0;
  st = gpuwcet::transform_to_classes(core, view, gpuwcet::capi::caller_span(scratch, scratch_len), n);
  std::uint64_t cycles = 0;
  if (st == Status::ok) {
    st = gpuwcet::order_aware_makespan_bound(shape, gsl::span<const std::uint8_t>(scratch, n), warps,
                                             cycles);
  }
  if (st != Status::ok) return to_c(st);
  return write_closed_form(shape, warps, cycles, GPUWCET_METHOD_PESSIMISTIC, true, result);
}

gpuwcet_status gpuwcet_makespan_paper_estimate(const gpuwcet_sm_desc* sm, const char* kernel,
                                               size_t kernel_len, uint64_t warps,
                                               gpuwcet_makespan_result* result) {
  return closed_form(sm, kernel, kernel_len, warps, result, gpuwcet::paper_pessimistic_estimate,
                     GPUWCET_METHOD_PAPER_PESSIMISTIC, false);
}

}  // extern "C"
