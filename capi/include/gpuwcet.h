/*
 * gpuwcet: worst-case execution time bounds for GPU kernels. Stable C99 API.
 *
 * Conventions
 * - Every function returns a gpuwcet_status; results come back through
 *   out-parameters, which are written only when the status says so.
 * - Structs that may grow start with `struct_size`: set it to sizeof(the
 *   struct) (the *_init functions do), so that older callers keep working
 *   when fields are appended. A struct_size smaller than the first release's
 *   layout gives GPUWCET_INVALID_ARGUMENT. Once a struct has grown, the
 *   functions that fill it whole take the caller's sizeof through a macro
 *   of the old name (gpuwcet_kernel_info_init, gpuwcet_hardware_preset,
 *   gpuwcet_gpu_desc_init): a function cannot know the size of a struct
 *   compiled elsewhere.
 * - No function allocates, performs I/O, or keeps state between calls.
 * - Pointers may not be NULL unless a function says otherwise; a NULL where
 *   none is accepted gives GPUWCET_INVALID_ARGUMENT.
 * - The size of a buffer the call writes into (an arena, a capacity) is how
 *   much it may use: a call uses what it needs and reports
 *   GPUWCET_BUFFER_TOO_SMALL when that is more. SIZE_MAX is read as "large
 *   enough". The length of an input array is its exact length.
 */
#ifndef GPUWCET_H
#define GPUWCET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUWCET_VERSION_MAJOR 0
#define GPUWCET_VERSION_MINOR 5
#define GPUWCET_VERSION_PATCH 2
#define GPUWCET_VERSION_STRING "0.5.2"
/* major * 10000 + minor * 100 + patch */
#define GPUWCET_VERSION_NUMBER \
  (GPUWCET_VERSION_MAJOR * 10000 + GPUWCET_VERSION_MINOR * 100 + GPUWCET_VERSION_PATCH)

#if defined(__GNUC__) || defined(__clang__)
#define GPUWCET_CHECK_RETURN __attribute__((warn_unused_result))
#else
#define GPUWCET_CHECK_RETURN
#endif

/* Status codes. Values are stable; further codes are only appended. */
typedef enum gpuwcet_status {
  GPUWCET_OK = 0,
  GPUWCET_INVALID_ARGUMENT = 1,
  GPUWCET_EMPTY_KERNEL = 2,
  GPUWCET_UNKNOWN_SYMBOL = 3,
  GPUWCET_ZERO_WARPS = 4,
  GPUWCET_ZERO_UNITS = 5,
  GPUWCET_ZERO_WARP_SIZE = 6,
  GPUWCET_UNDESCRIBED_CLASS = 7,
  GPUWCET_TOO_MANY_CLASSES = 8,
  GPUWCET_DUPLICATE_CLASS = 9,
  GPUWCET_OVERFLOW = 10,
  GPUWCET_BUFFER_TOO_SMALL = 11,
  GPUWCET_KERNEL_TOO_LONG = 12,
  GPUWCET_BUDGET_EXHAUSTED = 13, /* results are safe bounds, not proven exact */
  GPUWCET_SOLVER_UNAVAILABLE = 14,
  GPUWCET_SOLVER_FAILED = 15,
  GPUWCET_NOT_FOUND = 16,
  GPUWCET_MALFORMED_DATA = 17,
  GPUWCET_UNSUPPORTED_VERSION = 18,
  GPUWCET_LAUNCH_DOES_NOT_FIT = 19, /* not one block of the launch fits on an SM */
  GPUWCET_SCHEDULE_UNAVAILABLE = 20 /* bounds are exact; the budget ran out before a worst
                                       schedule was rebuilt, none is written */
} gpuwcet_status;

/* Run-time version of the linked library: GPUWCET_VERSION_NUMBER's encoding. */
uint32_t gpuwcet_version(void);
/* "major.minor.patch" of the linked library; never NULL. */
const char* gpuwcet_version_string(void);
/* English message for a status; never NULL (unknown codes get a generic text). */
const char* gpuwcet_status_message(gpuwcet_status status);

/* ---- Describing an SM -------------------------------------------------- */

#define GPUWCET_MAX_UNIT_CLASSES 8

typedef struct gpuwcet_unit_class {
  char symbol;    /* 'A'..'Z', e.g. 'L' load/store, 'C' CUDA core */
  uint32_t units; /* lanes of this class on the SM, > 0 */
} gpuwcet_unit_class;

typedef struct gpuwcet_sm_desc {
  uint32_t struct_size; /* sizeof(gpuwcet_sm_desc) */
  uint32_t warp_size;   /* threads per warp (S), > 0 */
  uint32_t class_count; /* used entries of classes[] */
  gpuwcet_unit_class classes[GPUWCET_MAX_UNIT_CLASSES];
} gpuwcet_sm_desc;

/* Zeroes *sm, sets struct_size and warp_size.
 * Returns GPUWCET_INVALID_ARGUMENT if sm is NULL, GPUWCET_ZERO_WARP_SIZE if
 * warp_size is 0 (sm is still initialised). */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_sm_init(gpuwcet_sm_desc* sm, uint32_t warp_size);

/* Appends a unit class. Returns GPUWCET_TOO_MANY_CLASSES, GPUWCET_UNKNOWN_SYMBOL
 * (symbol not in 'A'..'Z'), GPUWCET_DUPLICATE_CLASS, GPUWCET_ZERO_UNITS or
 * GPUWCET_INVALID_ARGUMENT on failure, leaving *sm unchanged. A table that is
 * already invalid (its fields written by hand) gives that table's error,
 * whatever class is appended. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_sm_add_class(gpuwcet_sm_desc* sm, char symbol,
                                                         uint32_t units);

/* sigma = units / warp_size of the class named `symbol`, reduced: num/den.
 * Returns GPUWCET_UNDESCRIBED_CLASS if the SM has no such class. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_sigma(const gpuwcet_sm_desc* sm, char symbol,
                                                  uint64_t* num, uint64_t* den);

/* ---- Kernel strings ---------------------------------------------------- */

/* A kernel is a string of class symbols, one per instruction of a warp, e.g.
 * "LLCLL". `kernel` need not be NUL-terminated; `kernel_len` is its length. */

/* Length of the transformed string (sigma = p/q: every instruction repeated q
 * times, class capacity p per cycle). On GPUWCET_UNKNOWN_SYMBOL or
 * GPUWCET_UNDESCRIBED_CLASS from the kernel, *error_index (if error_index is
 * not NULL) receives the offending position; an error of the SM description
 * itself (a class symbol written by hand outside 'A'..'Z') leaves it alone. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_transformed_length(const gpuwcet_sm_desc* sm,
                                                               const char* kernel,
                                                               size_t kernel_len,
                                                               uint64_t* length,
                                                               size_t* error_index);

/* Writes the transformed string plus a terminating NUL into out[0..capacity).
 * *written receives the length without the NUL. Returns
 * GPUWCET_BUFFER_TOO_SMALL when capacity < length + 1. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_transform_kernel(const gpuwcet_sm_desc* sm,
                                                             const char* kernel,
                                                             size_t kernel_len, char* out,
                                                             size_t capacity, size_t* written);

/* ---- Makespan ------------------------------------------------------------ */

typedef enum gpuwcet_method {
  GPUWCET_METHOD_PESSIMISTIC = 0,       /* safe closed-form bound */
  GPUWCET_METHOD_PAPER_PESSIMISTIC = 1, /* Eqs. (5)-(7) of the paper: NOT safe */
  GPUWCET_METHOD_SEARCH = 2,
  GPUWCET_METHOD_GLPK = 3,
  GPUWCET_METHOD_APPROX = 4
} gpuwcet_method;

typedef struct gpuwcet_makespan_result {
  uint32_t struct_size;  /* sizeof(gpuwcet_makespan_result) */
  uint32_t method;       /* gpuwcet_method that produced the numbers */
  uint64_t makespan;     /* the answer in cycles: upper_bound for safe methods */
  uint64_t lower_bound;  /* no work-conserving schedule is known to be shorter */
  uint64_t upper_bound;  /* no work-conserving schedule is longer (if safe) */
  int32_t exact;         /* 1 when lower_bound == upper_bound is proven */
  int32_t safe;          /* 1 when upper_bound is a proven bound */
} gpuwcet_makespan_result;

/* Sets struct_size; zeroes the rest. Returns GPUWCET_INVALID_ARGUMENT on NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_result_init(gpuwcet_makespan_result* r);

/* The order-aware closed-form bound min(B1, B2) of docs/makespan-search.md:
 * safe, never above gpuwcet_makespan_pessimistic, and exact on the paper's
 * Fig. 6 and Fig. 7 strings (LLCLL, LCLCL with sigma_L = 1/2). It reads the
 * string's order, so it needs `scratch` of at least the transformed length
 * in bytes (gpuwcet_transformed_length). Fills *result with method
 * PESSIMISTIC, safe = 1. Returns GPUWCET_BUFFER_TOO_SMALL for a small (or
 * NULL) scratch, or any status of gpuwcet_makespan_pessimistic, leaving
 * *result untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_order_aware(
    const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
    uint8_t* scratch, size_t scratch_len, gpuwcet_makespan_result* result);

/* Safe pessimistic makespan of `warps` warps running `kernel` on `sm`
 * (docs/makespan-bounds.md). Fills *result with method PESSIMISTIC, safe = 1.
 * Returns GPUWCET_ZERO_WARPS, GPUWCET_OVERFLOW, or any status of
 * gpuwcet_transformed_length on failure, leaving *result untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_pessimistic(const gpuwcet_sm_desc* sm,
                                                                 const char* kernel,
                                                                 size_t kernel_len,
                                                                 uint64_t warps,
                                                                 gpuwcet_makespan_result* result);

/* The paper's pessimistic estimate (Eqs. 5-7), for comparison: safe = 0,
 * because it under-estimates once some sigma > 1. Same failures as above. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_paper_estimate(
    const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
    gpuwcet_makespan_result* result);

#ifdef __cplusplus
}
#endif

/* Further parts of the API, one header per analysis (each C99, each included
 * here so that gpuwcet.h stays the one header a caller needs). */
/* GPUWCET_API_PARTS_BEGIN */
#include "gpuwcet_block.h"
#include "gpuwcet_makespan_ilp.h"
#include "gpuwcet_makespan_search.h"
#include "gpuwcet_profile.h"
/* GPUWCET_API_PARTS_END */

#endif /* GPUWCET_H */
