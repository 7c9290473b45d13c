/*
 * gpuwcet: exact worst-case makespan by branch and bound, its worst-case
 * schedule, and the paper's approximation (Eqs. 42-43). C99; included by
 * gpuwcet.h. Algorithm and proofs: docs/makespan-search.md.
 *
 * No function here allocates: the search works in a caller arena whose size
 * the *_arena_bytes functions give before the call.
 */
#ifndef GPUWCET_MAKESPAN_SEARCH_H
#define GPUWCET_MAKESPAN_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "gpuwcet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called every `progress_every` node expansions with the expansions so far
 * and the longest real schedule known. */
typedef void (*gpuwcet_search_progress_fn)(uint64_t nodes, uint64_t lower_bound, void* user);

typedef struct gpuwcet_search_options {
  uint32_t struct_size;    /* sizeof(gpuwcet_search_options) */
  uint32_t reserved;       /* 0 */
  uint64_t max_nodes;      /* node expansions allowed; 0 = no limit */
  uint64_t max_steps;      /* states generated allowed, the incumbent schedules'
                              cycles included: bounds the call's running time;
                              0 = no limit */
  uint64_t memo_entries;   /* memo size the arena is sized for; 0 = 65536 */
  gpuwcet_search_progress_fn progress; /* may be NULL */
  void* progress_user;     /* passed to progress; may be NULL */
  uint64_t progress_every; /* 0 = 1048576 */
} gpuwcet_search_options;

/* Sets struct_size and the defaults (no budget, 65536 memo entries, no
 * progress). Returns GPUWCET_INVALID_ARGUMENT on NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_search_options_init(gpuwcet_search_options* opts);

typedef struct gpuwcet_search_stats {
  uint32_t struct_size;     /* sizeof(gpuwcet_search_stats) */
  uint32_t reserved;
  uint64_t nodes;           /* node expansions performed */
  uint64_t steps;           /* child states generated */
  uint64_t memo_used;       /* memo entries filled */
  uint64_t schedule_cycles; /* cycles of the schedule written (0: none) */
  uint64_t transformed_length; /* I': entries per cycle of the schedule */
} gpuwcet_search_stats;

/* Sets struct_size; zeroes the rest. Returns GPUWCET_INVALID_ARGUMENT on NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_search_stats_init(gpuwcet_search_stats* stats);

/* Bytes of arena gpuwcet_makespan_search needs for this problem and these
 * options (`opts` may be NULL: defaults). A node or step budget caps the
 * search's depth, so it shrinks the arena: pass the same options to both
 * calls. Returns GPUWCET_KERNEL_TOO_LONG
 * when the transformed string is longer than 64 instructions or warps >
 * 65535, GPUWCET_ZERO_WARPS, GPUWCET_OVERFLOW, GPUWCET_INVALID_ARGUMENT for
 * NULL sm/bytes or a bad struct_size, or any status of
 * gpuwcet_transformed_length; *bytes is then untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_search_arena_bytes(
    const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
    const gpuwcet_search_options* opts, size_t* bytes);

/* Entries a schedule buffer needs so that a worst schedule always fits:
 * the safe pessimistic bound times I'. Returns GPUWCET_OVERFLOW or the
 * failures of gpuwcet_makespan_search_arena_bytes; NULL is not accepted. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_schedule_entries(
    const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
    size_t* entries);

/* Worst-case makespan over all work-conserving schedules, in `arena`
 * (`arena_bytes` from gpuwcet_makespan_search_arena_bytes; any alignment).
 * *result gets method SEARCH, safe = 1, makespan = upper_bound, and:
 * - GPUWCET_OK: exact = 1, lower_bound == upper_bound;
 * - GPUWCET_BUDGET_EXHAUSTED: exact = 0; some real schedule takes at least
 *   lower_bound cycles (never less than the trivial lower bound of
 *   gpuwcet_makespan_pessimistic, which every schedule takes), upper_bound
 *   is a safe bound. A scheduler can use
 *   upper_bound.
 * - GPUWCET_SCHEDULE_UNAVAILABLE (only with a schedule buffer): exact = 1 as
 *   for GPUWCET_OK, but the budget (max_nodes, max_steps, which rebuilding
 *   or playing the schedule spends too) ran out before a worst schedule was
 *   made:
 *   stats->schedule_cycles is 0 and the buffer holds nothing usable.
 * When `schedule` is not NULL it receives a worst schedule as
 * schedule[t * I' + k] = warps that executed transformed position k in
 * cycle t, for stats->schedule_cycles cycles (see
 * gpuwcet_makespan_schedule_entries for the size). `schedule` may be NULL
 * (with schedule_entries 0); `stats` and `opts` may be NULL.
 * Returns GPUWCET_BUFFER_TOO_SMALL for a small arena (nothing written) or a
 * small schedule buffer (*result still filled), GPUWCET_INVALID_ARGUMENT for
 * NULL sm/arena/result or a bad struct_size, or any failure of
 * gpuwcet_makespan_search_arena_bytes; *result is then untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_search(
    const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
    const gpuwcet_search_options* opts, void* arena, size_t arena_bytes,
    gpuwcet_makespan_result* result, uint32_t* schedule, size_t schedule_entries,
    gpuwcet_search_stats* stats);

/* Bytes of arena gpuwcet_makespan_approx needs for groups of up to
 * `max_group` warps. Returns GPUWCET_INVALID_ARGUMENT for max_group == 0
 * or NULL sm/bytes, or the failures of gpuwcet_makespan_search_arena_bytes. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_approx_arena_bytes(
    const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
    uint64_t max_group, const gpuwcet_search_options* opts, size_t* bytes);

/* The paper's approximation, Eqs. (42)-(43): min over y = 1..max_group of
 * ceil(W / y) * T(y), T(y) the exact worst makespan of y warps. NOT a safe
 * bound (LCL, sigma 1/1, W = 4: 8 while the worst case is 9). *result gets
 * method APPROX, safe = 0, exact = 0, makespan = upper_bound = the estimate,
 * lower_bound = the trivial lower bound. `best_group` (may be NULL) gets the
 * minimising y; `opts` may be NULL. Returns GPUWCET_BUDGET_EXHAUSTED (result
 * filled) when some T(y) was not solved exactly and its safe upper bound
 * stood in, GPUWCET_BUFFER_TOO_SMALL, GPUWCET_OVERFLOW, or the failures of
 * gpuwcet_makespan_approx_arena_bytes; *result is then untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_makespan_approx(
    const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
    uint64_t max_group, const gpuwcet_search_options* opts, void* arena, size_t arena_bytes,
    gpuwcet_makespan_result* result, uint64_t* best_group);

#ifdef __cplusplus
}
#endif

#endif /* GPUWCET_MAKESPAN_SEARCH_H */
