/* The C API, called from C99: SM description, transformation, bounds, errors. */
#include <stdio.h>
#include <string.h>

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

static void test_version(void) {
  CHECK(gpuwcet_version() == GPUWCET_VERSION_NUMBER);
  CHECK(strcmp(gpuwcet_version_string(), GPUWCET_VERSION_STRING) == 0);
  CHECK(strlen(gpuwcet_status_message(GPUWCET_OVERFLOW)) > 0);
  CHECK(gpuwcet_status_message((gpuwcet_status)12345) != NULL);
}

static void test_transform_figure1(void) {
  /* Fig. 1 of the paper: LC with L = 16, C = 32, S = 32 becomes LLC. */
  gpuwcet_sm_desc sm = fermi_like(16, 32);
  char out[8];
  size_t written = 0;
  uint64_t len = 0;
  uint64_t num = 0, den = 0;
  CHECK(gpuwcet_transformed_length(&sm, "LC", 2, &len, NULL) == GPUWCET_OK);
  CHECK(len == 3);
  CHECK(gpuwcet_transform_kernel(&sm, "LC", 2, out, sizeof out, &written) == GPUWCET_OK);
  CHECK(written == 3 && strcmp(out, "LLC") == 0);
  CHECK(gpuwcet_transform_kernel(&sm, "LC", 2, out, 3, &written) == GPUWCET_BUFFER_TOO_SMALL);
  CHECK(gpuwcet_transform_kernel(&sm, "LC", 2, out, 0, &written) == GPUWCET_BUFFER_TOO_SMALL);
  CHECK(gpuwcet_transform_kernel(&sm, "LX", 2, out, 0, &written) == GPUWCET_UNKNOWN_SYMBOL ||
        gpuwcet_transform_kernel(&sm, "LX", 2, out, 0, &written) == GPUWCET_UNDESCRIBED_CLASS);
  CHECK(gpuwcet_transform_kernel(&sm, "LX", 2, out, 1, &written) ==
        gpuwcet_transform_kernel(&sm, "LX", 2, out, 0, &written));
  CHECK(gpuwcet_transform_kernel(&sm, "LC", 2, out, SIZE_MAX, &written) == GPUWCET_OK);
  CHECK(written == 3 && strcmp(out, "LLC") == 0);
  CHECK(gpuwcet_sigma(&sm, 'L', &num, &den) == GPUWCET_OK);
  CHECK(num == 1 && den == 2);
  CHECK(gpuwcet_sigma(&sm, 'S', &num, &den) == GPUWCET_UNDESCRIBED_CLASS);
}

static void test_pessimistic(void) {
  /* LL, sigma_L = 2, W = 4: a work-conserving schedule takes 5 cycles, so the
   * safe bound is at least 5 while the paper's estimate says 4. */
  gpuwcet_sm_desc sm = fermi_like(64, 32);
  gpuwcet_makespan_result safe_r, paper_r;
  CHECK(gpuwcet_makespan_result_init(&safe_r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_result_init(&paper_r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LL", 2, 4, &safe_r) == GPUWCET_OK);
  CHECK(safe_r.safe == 1 && safe_r.method == GPUWCET_METHOD_PESSIMISTIC);
  CHECK(safe_r.makespan >= 5 && safe_r.upper_bound == safe_r.makespan);
  CHECK(safe_r.lower_bound <= 5);
  CHECK(gpuwcet_makespan_paper_estimate(&sm, "LL", 2, 4, &paper_r) == GPUWCET_OK);
  CHECK(paper_r.makespan == 4 && paper_r.safe == 0 && paper_r.exact == 0);
}

static void test_order_aware(void) {
  /* LLCLL, sigma 1/1, W = 600 (the paper's Fig. 6): the search certifies a
   * worst case of 2401 = 4W + 1 (docs/makespan-search.md); the order-aware
   * bound reaches it, B1 says 3000. LL, sigma_L = 2, W = 4: worst case 5
   * (Fig. 2-style hand schedule above). */
  gpuwcet_sm_desc sm = fermi_like(32, 32);
  gpuwcet_sm_desc wide = fermi_like(64, 32);
  gpuwcet_makespan_result r, b1;
  uint8_t scratch[8];
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_result_init(&b1) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_order_aware(&sm, "LLCLL", 5, 600, scratch, sizeof scratch, &r) ==
        GPUWCET_OK);
  CHECK(r.makespan == 2401 && r.safe == 1 && r.upper_bound == 2401);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LLCLL", 5, 600, &b1) == GPUWCET_OK);
  CHECK(b1.makespan == 3000);
  CHECK(gpuwcet_makespan_order_aware(&wide, "LL", 2, 4, scratch, sizeof scratch, &r) == GPUWCET_OK);
  CHECK(r.makespan >= 5);
  CHECK(gpuwcet_makespan_order_aware(&sm, "LLCLL", 5, 600, scratch, 4, &r) ==
        GPUWCET_BUFFER_TOO_SMALL);
  CHECK(gpuwcet_makespan_order_aware(&sm, "LLCLL", 5, 600, NULL, 0, &r) ==
        GPUWCET_BUFFER_TOO_SMALL);
  CHECK(gpuwcet_makespan_order_aware(&sm, "LLCLL", 5, 0, scratch, sizeof scratch, &r) ==
        GPUWCET_ZERO_WARPS);
  CHECK(gpuwcet_makespan_order_aware(&sm, "LLCLL", 5, 600, scratch, sizeof scratch, NULL) ==
        GPUWCET_INVALID_ARGUMENT);
  /* SIZE_MAX: "large enough" (the call uses 5 bytes). */
  CHECK(gpuwcet_makespan_order_aware(&sm, "LLCLL", 5, 600, scratch, SIZE_MAX, &r) == GPUWCET_OK);
  CHECK(r.makespan == 2401);
}

/* W = 2^63 with sigma_C = 2 (64 C units for 32 threads): CC's trivial lower
 * bound ceil(W * 2 / 2) = 2^63 fits although W * 2 does not; the call
 * returns its bounds, not GPUWCET_OVERFLOW. */
static void test_huge_warp_count(void) {
  gpuwcet_sm_desc sm = fermi_like(32, 64);
  gpuwcet_makespan_result r;
  const uint64_t w = (uint64_t)1 << 63;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "CC", 2, w, &r) == GPUWCET_OK);
  CHECK(r.lower_bound == w && r.upper_bound >= r.lower_bound && r.safe == 1);
}

static void test_bad_input(void) {
  gpuwcet_sm_desc sm = fermi_like(16, 32);
  gpuwcet_makespan_result r;
  size_t at = 0;
  uint64_t len = 0;
  CHECK(gpuwcet_makespan_result_init(&r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "", 0, 4, &r) == GPUWCET_EMPTY_KERNEL);
  CHECK(gpuwcet_makespan_pessimistic(&sm, NULL, 0, 4, &r) == GPUWCET_EMPTY_KERNEL);
  CHECK(gpuwcet_makespan_pessimistic(&sm, NULL, 3, 4, &r) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, 0, &r) == GPUWCET_ZERO_WARPS);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, 4, NULL) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_pessimistic(NULL, "LC", 2, 4, &r) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, UINT64_MAX, &r) == GPUWCET_OVERFLOW);
  CHECK(gpuwcet_transformed_length(&sm, "LC?", 3, &len, &at) == GPUWCET_UNKNOWN_SYMBOL);
  CHECK(at == 2);
  CHECK(gpuwcet_transformed_length(&sm, "LSC", 3, &len, &at) == GPUWCET_UNDESCRIBED_CLASS);
  CHECK(at == 1);
  CHECK(gpuwcet_sm_add_class(&sm, 'F', 0) == GPUWCET_ZERO_UNITS);
  CHECK(gpuwcet_sm_add_class(&sm, 'L', 8) == GPUWCET_DUPLICATE_CLASS);
  CHECK(gpuwcet_sm_add_class(&sm, '1', 8) == GPUWCET_UNKNOWN_SYMBOL);
  CHECK(gpuwcet_sm_init(&sm, 0) == GPUWCET_ZERO_WARP_SIZE);
  sm.class_count = 0;
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, 4, &r) == GPUWCET_ZERO_WARP_SIZE);
  /* A caller struct from a future, smaller layout is refused, not overrun. */
  sm = fermi_like(16, 32);
  sm.struct_size = 4;
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, 4, &r) == GPUWCET_INVALID_ARGUMENT);
  sm = fermi_like(16, 32);
  sm.class_count = 9;
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, 4, &r) == GPUWCET_TOO_MANY_CLASSES);
  r.struct_size = 0;
  sm = fermi_like(16, 32);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, 4, &r) == GPUWCET_INVALID_ARGUMENT);
}

int main(void) {
  test_version();
  test_transform_figure1();
  test_pessimistic();
  test_order_aware();
  test_huge_warp_count();
  test_bad_input();
  printf("capi: %d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
