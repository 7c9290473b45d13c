/* The exact makespan search, its schedule and the approximation, from C99. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "gpuwcet.h"

static gpuwcet_sm_desc sm_with(uint32_t l_units, uint32_t c_units) {
  gpuwcet_sm_desc sm;
  CHECK(gpuwcet_sm_init(&sm, 32) == GPUWCET_OK);
  CHECK(gpuwcet_sm_add_class(&sm, 'L', l_units) == GPUWCET_OK);
  CHECK(gpuwcet_sm_add_class(&sm, 'C', c_units) == GPUWCET_OK);
  return sm;
}

static void test_figure2(void) {
  /* Paper's Fig. 2: LLC, sigma 1/1, W = 4: worst case 9 cycles. */
  gpuwcet_sm_desc sm = sm_with(32, 32);
  size_t bytes = 0, entries = 0;
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LLC", 3, 4, NULL, &bytes) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_schedule_entries(&sm, "LLC", 3, 4, &entries) == GPUWCET_OK);
  CHECK(entries >= 9 * 3);
  void* arena = malloc(bytes);
  uint32_t* sched = calloc(entries, sizeof *sched);
  gpuwcet_makespan_result r;
  gpuwcet_search_stats stats;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_search_stats_init(&stats) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_search(&sm, "LLC", 3, 4, NULL, arena, bytes, &r, sched, entries,
                                &stats) == GPUWCET_OK);
  CHECK(r.method == GPUWCET_METHOD_SEARCH && r.exact == 1 && r.safe == 1);
  CHECK(r.makespan == 9 && r.lower_bound == 9 && r.upper_bound == 9);
  CHECK(stats.schedule_cycles == 9 && stats.transformed_length == 3);
  /* Every cycle serves exactly one L and, when someone waits on C, one C. */
  {
    uint64_t at[4] = {4, 0, 0, 0};
    size_t t, k;
    int ok = 1;
    for (t = 0; t < 9; ++t) {
      uint64_t wait_l = at[0] + at[1], wait_c = at[2];
      uint64_t l = sched[t * 3 + 0] + sched[t * 3 + 1], c = sched[t * 3 + 2];
      if (l != (wait_l < 1 ? wait_l : 1) || c != (wait_c < 1 ? wait_c : 1)) ok = 0;
      for (k = 3; k-- > 0;) {
        if (sched[t * 3 + k] > at[k]) ok = 0;
        at[k] -= sched[t * 3 + k];
        at[k + 1] += sched[t * 3 + k];
      }
    }
    CHECK(ok && at[3] == 4);
  }
  /* Too small an arena: an error, nothing written. */
  CHECK(gpuwcet_makespan_search(&sm, "LLC", 3, 4, NULL, arena, bytes - 1, &r, NULL, 0, NULL) ==
        GPUWCET_BUFFER_TOO_SMALL);
  free(sched);
  free(arena);
}

static unsigned g_calls = 0;
static void on_progress(uint64_t nodes, uint64_t lower_bound, void* user) {
  (void)nodes;
  (void)lower_bound;
  ++*(unsigned*)user;
}

static void test_budget_and_progress(void) {
  gpuwcet_sm_desc sm = sm_with(32, 32);
  gpuwcet_search_options o;
  size_t bytes = 0;
  CHECK(gpuwcet_search_options_init(&o) == GPUWCET_OK);
  o.max_nodes = 3;
  o.progress = on_progress;
  o.progress_user = &g_calls;
  o.progress_every = 1;
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "CLLCC", 5, 12, &o, &bytes) == GPUWCET_OK);
  {
    void* arena = malloc(bytes);
    gpuwcet_makespan_result r;
    CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
    /* CLLCC: unlike LLCLL (solved at the root), its root bound is not tight. */
    CHECK(gpuwcet_makespan_search(&sm, "CLLCC", 5, 12, &o, arena, bytes, &r, NULL, 0, NULL) ==
          GPUWCET_BUDGET_EXHAUSTED);
    CHECK(r.exact == 0 && r.safe == 1 && r.lower_bound <= r.upper_bound);
    CHECK(g_calls > 0);
    free(arena);
  }
}

/* CCCCSLCLCSCLCC over L, C and S, 8 warps, a one-entry memo: proven exact
 * within 265 expansions, while rebuilding a worst schedule needs thousands
 * more. The budget holds for both; the exact bounds come back without a
 * schedule. */
static void test_schedule_within_budget(void) {
  const char* k = "CCCCSLCLCSCLCC";
  gpuwcet_sm_desc sm = sm_with(32, 32);
  gpuwcet_search_options o;
  gpuwcet_makespan_result plain;
  gpuwcet_makespan_result r;
  gpuwcet_search_stats stats;
  size_t bytes = 0, entries = 0;
  CHECK(gpuwcet_sm_add_class(&sm, 'S', 32) == GPUWCET_OK);
  CHECK(gpuwcet_search_options_init(&o) == GPUWCET_OK);
  o.memo_entries = 1;
  o.max_nodes = 265;
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, k, 14, 8, &o, &bytes) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_schedule_entries(&sm, k, 14, 8, &entries) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_result_init(&plain) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_search_stats_init(&stats) == GPUWCET_OK);
  {
    void* arena = malloc(bytes);
    uint32_t* sched = calloc(entries, sizeof *sched);
    CHECK(gpuwcet_makespan_search(&sm, k, 14, 8, &o, arena, bytes, &plain, NULL, 0, NULL) ==
          GPUWCET_OK);
    CHECK(gpuwcet_makespan_search(&sm, k, 14, 8, &o, arena, bytes, &r, sched, entries, &stats) ==
          GPUWCET_SCHEDULE_UNAVAILABLE);
    CHECK(stats.nodes <= 265 && stats.schedule_cycles == 0);
    CHECK(r.exact == 1 && r.safe == 1 && r.upper_bound == plain.upper_bound &&
          r.lower_bound == plain.upper_bound && r.makespan == plain.makespan);
    CHECK(strlen(gpuwcet_status_message(GPUWCET_SCHEDULE_UNAVAILABLE)) > 0);
    free(sched);
    free(arena);
  }
}

static void test_approx(void) {
  /* LCL, sigma 1/1, W = 4: Eq. (43) gives 2 * T(2) = 8; the worst case is 9. */
  gpuwcet_sm_desc sm = sm_with(32, 32);
  size_t bytes = 0;
  uint64_t y = 0;
  gpuwcet_makespan_result r;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_approx_arena_bytes(&sm, "LCL", 3, 4, 2, NULL, &bytes) == GPUWCET_OK);
  {
    void* arena = malloc(bytes);
    CHECK(gpuwcet_makespan_approx(&sm, "LCL", 3, 4, 2, NULL, arena, bytes, &r, &y) ==
          GPUWCET_OK);
    CHECK(r.method == GPUWCET_METHOD_APPROX && r.safe == 0 && r.exact == 0);
    CHECK(r.makespan == 8 && y == 2);
    free(arena);
  }
  CHECK(gpuwcet_makespan_approx_arena_bytes(&sm, "LCL", 3, 4, 0, NULL, &bytes) ==
        GPUWCET_INVALID_ARGUMENT);
}

/* SIZE_MAX for an arena or a schedule buffer: "large enough" (gsl::span
 * would terminate on it; the wrappers never pass it on). */
static void test_size_max_buffers(void) {
  gpuwcet_sm_desc sm = sm_with(32, 32);
  size_t bytes = 0, entries = 0;
  uint64_t y = 0;
  gpuwcet_makespan_result r;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LLC", 3, 4, NULL, &bytes) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_schedule_entries(&sm, "LLC", 3, 4, &entries) == GPUWCET_OK);
  {
    void* arena = malloc(bytes);
    uint32_t* sched = calloc(entries, sizeof *sched);
    CHECK(gpuwcet_makespan_search(&sm, "LLC", 3, 4, NULL, arena, SIZE_MAX, &r, sched, SIZE_MAX,
                                  NULL) == GPUWCET_OK);
    CHECK(r.makespan == 9);
    free(sched);
    free(arena);
  }
  CHECK(gpuwcet_makespan_approx_arena_bytes(&sm, "LCL", 3, 4, 2, NULL, &bytes) == GPUWCET_OK);
  {
    void* arena = malloc(bytes);
    CHECK(gpuwcet_makespan_approx(&sm, "LCL", 3, 4, 2, NULL, arena, SIZE_MAX, &r, &y) ==
          GPUWCET_OK);
    CHECK(r.makespan == 8 && y == 2);
    free(arena);
  }
}

static void test_bad_input(void) {
  gpuwcet_sm_desc sm = sm_with(32, 32);
  size_t bytes = 0;
  char arena[16];
  gpuwcet_makespan_result r;
  gpuwcet_search_options bad;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LC", 2, 0, NULL, &bytes) == GPUWCET_ZERO_WARPS);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LC", 2, 70000, NULL, &bytes) ==
        GPUWCET_KERNEL_TOO_LONG);
  CHECK(gpuwcet_makespan_schedule_entries(&sm, "LC", 2, 70000, &bytes) ==
        GPUWCET_KERNEL_TOO_LONG);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LC", 2, 4, NULL, NULL) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_search_arena_bytes(NULL, "LC", 2, 4, NULL, &bytes) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LX", 2, 4, NULL, &bytes) ==
        GPUWCET_UNKNOWN_SYMBOL || gpuwcet_makespan_search_arena_bytes(&sm, "LX", 2, 4, NULL,
        &bytes) == GPUWCET_UNDESCRIBED_CLASS);
  memset(&bad, 0, sizeof bad);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LC", 2, 4, &bad, &bytes) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_search(&sm, "LC", 2, 4, NULL, NULL, 0, &r, NULL, 0, NULL) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_search(&sm, "LC", 2, 4, NULL, arena, sizeof arena, NULL, NULL, 0,
                                NULL) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_search(&sm, "LC", 2, 4, NULL, arena, sizeof arena, &r, NULL, 5, NULL) ==
        GPUWCET_INVALID_ARGUMENT);
}

int main(void) {
  test_figure2();
  test_budget_and_progress();
  test_schedule_within_budget();
  test_approx();
  test_size_max_buffers();
  test_bad_input();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
