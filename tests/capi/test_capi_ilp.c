/* gpuwcet_makespan_ilp from C99: exact answers, options, bad input, and
 * GPUWCET_SOLVER_UNAVAILABLE in builds without GLPK. */
#include <stdio.h>

#include "capi_check.h"
#include "gpuwcet.h"

static gpuwcet_sm_desc fermi_like(uint32_t l_units, uint32_t c_units) {
  gpuwcet_sm_desc sm;
  gpuwcet_status st = gpuwcet_sm_init(&sm, 32);
  CHECK(st == GPUWCET_OK);
  st = gpuwcet_sm_add_class(&sm, 'L', l_units);
  CHECK(st == GPUWCET_OK);
  st = gpuwcet_sm_add_class(&sm, 'C', c_units);
  CHECK(st == GPUWCET_OK);
  return sm;
}

static void test_options_init(void) {
  gpuwcet_ilp_options o;
  CHECK(gpuwcet_ilp_options_init(&o) == GPUWCET_OK);
  CHECK(o.struct_size == sizeof o);
  CHECK(o.formulation == GPUWCET_ILP_SYMMETRIC);
  CHECK(o.time_limit_ms == 60000);
  CHECK(gpuwcet_ilp_options_init(NULL) == GPUWCET_INVALID_ARGUMENT);
}

/* LL with sigma_L = 2 (64 lanes, S = 32), W = 4: the worst case is 5 cycles,
 * above the paper's estimate of 4. Both formulations, default and explicit
 * options. */
static void test_exact(void) {
  gpuwcet_sm_desc sm = fermi_like(64, 32);
  gpuwcet_ilp_options o;
  gpuwcet_makespan_result r;
  gpuwcet_status st;
  uint32_t f;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  st = gpuwcet_makespan_ilp(&sm, "LL", 2, 4, NULL, &r);
  if (st == GPUWCET_SOLVER_UNAVAILABLE) {
    printf("GLPK not built in: GPUWCET_SOLVER_UNAVAILABLE accepted\n");
    CHECK(r.method == 0 && r.makespan == 0);
    return;
  }
  CHECK(st == GPUWCET_OK);
  CHECK(r.method == GPUWCET_METHOD_GLPK);
  CHECK(r.makespan == 5 && r.lower_bound == 5 && r.upper_bound == 5);
  CHECK(r.exact == 1 && r.safe == 1);
  for (f = GPUWCET_ILP_SYMMETRIC; f <= GPUWCET_ILP_PAPER; ++f) {
    CHECK(gpuwcet_ilp_options_init(&o) == GPUWCET_OK);
    o.formulation = f;
    o.time_limit_ms = 20000;
    CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
    /* LC with L = 16 lanes becomes LLC (Fig. 1); W = 3. */
    sm = fermi_like(16, 32);
    CHECK(gpuwcet_makespan_ilp(&sm, "LC", 2, 3, &o, &r) == GPUWCET_OK);
    CHECK(r.exact == 1 && r.lower_bound == r.upper_bound && r.makespan == r.upper_bound);
    CHECK(r.makespan >= 7); /* L-work alone: 3 warps * 2 L / 1 per cycle = 6, plus C */
  }
}

static void test_bad_input(void) {
  gpuwcet_sm_desc sm = fermi_like(16, 32);
  gpuwcet_ilp_options o;
  gpuwcet_makespan_result r;
  gpuwcet_status st;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_ilp_options_init(&o) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_ilp(&sm, "LC", 2, 2, &o, NULL) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_ilp(NULL, "LC", 2, 2, &o, &r) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_ilp(&sm, NULL, 2, 2, &o, &r) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_ilp(&sm, "", 0, 2, &o, &r) == GPUWCET_EMPTY_KERNEL);
  CHECK(gpuwcet_makespan_ilp(&sm, "LX", 2, 2, &o, &r) == GPUWCET_UNDESCRIBED_CLASS);
  CHECK(gpuwcet_makespan_ilp(&sm, "LC", 2, 0, &o, &r) == GPUWCET_ZERO_WARPS);
  o.formulation = 7;
  CHECK(gpuwcet_makespan_ilp(&sm, "LC", 2, 2, &o, &r) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_ilp_options_init(&o) == GPUWCET_OK);
  o.struct_size = 4;
  CHECK(gpuwcet_makespan_ilp(&sm, "LC", 2, 2, &o, &r) == GPUWCET_INVALID_ARGUMENT);
  /* A model far too large is refused, not built (or GLPK is absent). */
  st = gpuwcet_makespan_ilp(&sm, "LCLCLCLCLCLCLCLCLCLCLCLCLCLCLCLC", 32, 1000000, NULL, &r);
  CHECK(st == GPUWCET_KERNEL_TOO_LONG || st == GPUWCET_SOLVER_UNAVAILABLE);
  CHECK(r.method == 0 && r.makespan == 0); /* untouched on failure */
}

int main(void) {
  test_options_init();
  test_exact();
  test_bad_input();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
