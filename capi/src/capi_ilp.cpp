// gpuwcet_makespan_ilp: the C face of gpuwcet::glpk::solve_makespan_ilp,
// or GPUWCET_SOLVER_UNAVAILABLE in builds without GLPK.
#include <cstdint>
#include <string_view>

#include "capi_internal.hpp"
#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet_makespan_ilp.h"

#ifdef GPUWCET_HAVE_GLPK
#include "gpuwcet_glpk/makespan_ilp.hpp"
#endif

using gpuwcet::Status;
using gpuwcet::capi::to_c;

extern "C" {

gpuwcet_status gpuwcet_ilp_options_init(gpuwcet_ilp_options* opts) {
  if (opts == nullptr) return GPUWCET_INVALID_ARGUMENT;
  *opts = gpuwcet_ilp_options{};
  opts->struct_size = sizeof(gpuwcet_ilp_options);
  opts->formulation = GPUWCET_ILP_SYMMETRIC;
  opts->time_limit_ms = 60000;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_makespan_ilp(const gpuwcet_sm_desc* sm, const char* kernel,
                                    size_t kernel_len, uint64_t warps,
                                    const gpuwcet_ilp_options* opts,
                                    gpuwcet_makespan_result* result) {
  if (result == nullptr ||
      !gpuwcet::capi::struct_size_ok(result->struct_size, sizeof(gpuwcet_makespan_result))) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  gpuwcet_ilp_options o;
  if (gpuwcet_ilp_options_init(&o) != GPUWCET_OK) return GPUWCET_INVALID_ARGUMENT;
  if (opts != nullptr) {
    if (!gpuwcet::capi::struct_size_ok(opts->struct_size, sizeof(gpuwcet_ilp_options))) {
      return GPUWCET_INVALID_ARGUMENT;
    }
    if (opts->formulation != GPUWCET_ILP_SYMMETRIC && opts->formulation != GPUWCET_ILP_PAPER) {
      return GPUWCET_INVALID_ARGUMENT;
    }
    o.formulation = opts->formulation;
    if (opts->time_limit_ms != 0) o.time_limit_ms = opts->time_limit_ms;
  }
  std::string_view view;
  if (!gpuwcet::capi::kernel_view(kernel, kernel_len, view)) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::SmDescription core;
  Status st = gpuwcet::capi::from_c(sm, core);
  if (st != Status::ok) return to_c(st);
  gpuwcet::TransformedShape shape;
  st = gpuwcet::analyze_kernel(core, view, shape);
  if (st != Status::ok) return to_c(st);
  if (warps == 0) return GPUWCET_ZERO_WARPS;
#ifdef GPUWCET_HAVE_GLPK
  gpuwcet::glpk::IlpOptions ilp;
  ilp.formulation = o.formulation == GPUWCET_ILP_PAPER ? gpuwcet::glpk::IlpFormulation::paper
                                                       : gpuwcet::glpk::IlpFormulation::symmetric;
  ilp.time_limit_seconds = static_cast<double>(o.time_limit_ms) / 1000.0;
  // The transformed string is built inside the GLPK library, which may
  // allocate and catches a failure; this function allocates nothing.
  const gpuwcet::glpk::IlpResult r =
      gpuwcet::glpk::solve_kernel_makespan_ilp(core, view, shape, warps, ilp);
  if (!gpuwcet::has_result(r.status)) return to_c(r.status);
  result->method = GPUWCET_METHOD_GLPK;
  result->makespan = r.upper_bound;
  result->lower_bound = r.lower_bound;
  result->upper_bound = r.upper_bound;
  result->exact = r.status == Status::ok ? 1 : 0;
  result->safe = 1;
  return to_c(r.status);
#else
  return GPUWCET_SOLVER_UNAVAILABLE;
#endif
}

}  // extern "C"
