/*
 * gpuwcet: exact worst-case makespan by integer programming (GLPK).
 * C99; included by gpuwcet.h. Formulations: docs/makespan-ilp.md.
 *
 * Unlike the rest of the API, this function allocates (GLPK does) and is
 * available only in builds with GLPK (hosted targets); elsewhere it returns
 * GPUWCET_SOLVER_UNAVAILABLE.
 */
#ifndef GPUWCET_MAKESPAN_ILP_H
#define GPUWCET_MAKESPAN_ILP_H

#include "gpuwcet.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gpuwcet_ilp_formulation {
  /* integer counts of warps per position and cycle (the default) */
  GPUWCET_ILP_SYMMETRIC = 0,
  /* one binary per warp, position and cycle, as in the paper's Fig. 3 */
  GPUWCET_ILP_PAPER = 1
} gpuwcet_ilp_formulation;

typedef struct gpuwcet_ilp_options {
  uint32_t struct_size;   /* sizeof(gpuwcet_ilp_options) */
  uint32_t formulation;   /* gpuwcet_ilp_formulation */
  uint32_t time_limit_ms; /* wall-clock budget; 0 = 60000 */
} gpuwcet_ilp_options;

/* Sets struct_size and the defaults (symmetric, 60 s).
 * Returns GPUWCET_INVALID_ARGUMENT on NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_ilp_options_init(gpuwcet_ilp_options* opts);

/* Worst-case makespan of `warps` warps running `kernel` on `sm`, over every
 * work-conserving schedule, by an ILP whose horizon is the safe pessimistic
 * bound. `opts` may be NULL (defaults). On success *result gets method
 * GLPK, safe = 1, makespan = upper_bound, and:
 * - GPUWCET_OK: exact = 1, lower_bound == upper_bound, proven optimal;
 * - GPUWCET_BUDGET_EXHAUSTED: exact = 0; lower_bound is the longest schedule
 *   found (or the trivial bound), upper_bound the solver's proven bound,
 *   never above the safe pessimistic bound.
 * Returns GPUWCET_SOLVER_UNAVAILABLE without GLPK, GPUWCET_KERNEL_TOO_LONG
 * when the model would be too large, GPUWCET_SOLVER_FAILED when GLPK gives
 * no usable answer, GPUWCET_INVALID_ARGUMENT for NULL sm/result, a bad
 * struct_size or formulation, or any status of gpuwcet_makespan_pessimistic;
 * *result is then untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_ilp(const gpuwcet_sm_desc* sm,
                                                         const char* kernel, size_t kernel_len,
                                                         uint64_t warps,
                                                         const gpuwcet_ilp_options* opts,
                                                         gpuwcet_makespan_result* result);

#ifdef __cplusplus
}
#endif

#endif /* GPUWCET_MAKESPAN_ILP_H */
