/* The exact makespan search in a static arena, as firmware would run it. */
#include "gpuwcet.h"
#include "target_check.h"

/* Sized for the problems below with 1024 memo entries; the size query must
 * agree before the search runs. */
static unsigned char g_arena[32 * 1024];
static uint32_t g_schedule[16 * 3];

static gpuwcet_sm_desc sm_with(uint32_t l_units, uint32_t c_units) {
  gpuwcet_sm_desc sm;
  CHECK(gpuwcet_sm_init(&sm, 32) == GPUWCET_OK);
  CHECK(gpuwcet_sm_add_class(&sm, 'L', l_units) == GPUWCET_OK);
  CHECK(gpuwcet_sm_add_class(&sm, 'C', c_units) == GPUWCET_OK);
  return sm;
}

void target_search_checks(void) {
  gpuwcet_sm_desc sm = sm_with(32, 32);
  gpuwcet_search_options opts;
  gpuwcet_makespan_result r;
  gpuwcet_search_stats stats;
  size_t bytes = 0, entries = 0;
  CHECK(gpuwcet_search_options_init(&opts) == GPUWCET_OK);
  opts.memo_entries = 1024;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_search_stats_init(&stats) == GPUWCET_OK);

  /* Fig. 2 of the paper: LLC, sigma 1/1, W = 4 has a worst case of 9 cycles. */
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LLC", 3, 4, &opts, &bytes) == GPUWCET_OK);
  CHECK(bytes <= sizeof g_arena);
  CHECK(gpuwcet_makespan_schedule_entries(&sm, "LLC", 3, 4, &entries) == GPUWCET_OK);
  CHECK(entries <= sizeof g_schedule / sizeof g_schedule[0]);
  if (bytes <= sizeof g_arena && entries <= sizeof g_schedule / sizeof g_schedule[0]) {
    CHECK(gpuwcet_makespan_search(&sm, "LLC", 3, 4, &opts, g_arena, bytes, &r, g_schedule,
                                  entries, &stats) == GPUWCET_OK);
    CHECK(r.exact == 1 && r.safe == 1 && r.makespan == 9 && r.lower_bound == 9);
    CHECK(stats.schedule_cycles == 9 && stats.transformed_length == 3);
    /* One byte short: an error and nothing written, never an overrun. */
    CHECK(gpuwcet_makespan_search(&sm, "LLC", 3, 4, &opts, g_arena, bytes - 1, &r, NULL, 0,
                                  NULL) == GPUWCET_BUFFER_TOO_SMALL);
  }

  /* LL, sigma_L = 2, W = 4: the worst work-conserving schedule takes 5. */
  sm = sm_with(64, 32);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LL", 2, 4, &opts, &bytes) == GPUWCET_OK);
  CHECK(bytes <= sizeof g_arena);
  if (bytes <= sizeof g_arena) {
    CHECK(gpuwcet_makespan_search(&sm, "LL", 2, 4, &opts, g_arena, bytes, &r, NULL, 0, NULL) ==
          GPUWCET_OK);
    CHECK(r.exact == 1 && r.makespan == 5);
  }

  /* A budget smaller than the exact search needs still gives a safe bound
   * that brackets the exact answer, computed first by the same search. */
  sm = sm_with(16, 32);
  CHECK(gpuwcet_makespan_search_arena_bytes(&sm, "LCLCL", 5, 6, &opts, &bytes) == GPUWCET_OK);
  CHECK(bytes <= sizeof g_arena);
  if (bytes <= sizeof g_arena) {
    gpuwcet_makespan_result exact;
    CHECK(gpuwcet_makespan_result_init(&exact) == GPUWCET_OK);
    CHECK(gpuwcet_makespan_search(&sm, "LCLCL", 5, 6, &opts, g_arena, bytes, &exact, NULL, 0,
                                  &stats) == GPUWCET_OK);
    opts.max_nodes = 3;
    if (stats.nodes > opts.max_nodes) {
      CHECK(gpuwcet_makespan_search(&sm, "LCLCL", 5, 6, &opts, g_arena, bytes, &r, NULL, 0,
                                    NULL) == GPUWCET_BUDGET_EXHAUSTED);
      CHECK(r.exact == 0 && r.safe == 1);
      CHECK(r.lower_bound <= exact.makespan && exact.makespan <= r.upper_bound);
    }
  }
}
