/* Makespan bounds of Berezovskyi et al. (ECRTS 2012) through the C API. */
#include <string.h>

#include "gpuwcet.h"
#include "target_check.h"

static gpuwcet_sm_desc sm_with(uint32_t l_units, uint32_t c_units) {
  gpuwcet_sm_desc sm;
  CHECK(gpuwcet_sm_init(&sm, 32) == GPUWCET_OK);
  CHECK(gpuwcet_sm_add_class(&sm, 'L', l_units) == GPUWCET_OK);
  CHECK(gpuwcet_sm_add_class(&sm, 'C', c_units) == GPUWCET_OK);
  return sm;
}

void target_makespan_checks(void) {
  gpuwcet_sm_desc sm = sm_with(16, 32);
  gpuwcet_makespan_result safe_r, paper_r;
  char out[8];
  size_t written = 0;
  uint64_t w;
  CHECK(gpuwcet_version() == GPUWCET_VERSION_NUMBER);
  CHECK(strcmp(gpuwcet_version_string(), GPUWCET_VERSION_STRING) == 0);
  /* Fig. 1 of the paper: LC with L = 16, C = 32, S = 32 becomes LLC. */
  CHECK(gpuwcet_transform_kernel(&sm, "LC", 2, out, sizeof out, &written) == GPUWCET_OK);
  CHECK(written == 3 && strcmp(out, "LLC") == 0);

  /* LL, sigma_L = 2, W = 4: a work-conserving schedule takes 5 cycles (two
   * warps per cycle on the first L, then the second L lags one cycle), so
   * the safe bound is at least 5 while the paper's estimate says 4. */
  sm = sm_with(64, 32);
  CHECK(gpuwcet_makespan_result_init(&safe_r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_result_init(&paper_r) == GPUWCET_OK);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LL", 2, 4, &safe_r) == GPUWCET_OK);
  CHECK(safe_r.safe == 1 && safe_r.makespan >= 5 && safe_r.lower_bound <= 5);
  CHECK(gpuwcet_makespan_paper_estimate(&sm, "LL", 2, 4, &paper_r) == GPUWCET_OK);
  CHECK(paper_r.makespan == 4 && paper_r.safe == 0);

  /* More warps never lower the safe bound, and 64-bit cycle counts work on a
   * 32-bit target (the division helpers of libgcc are linked). */
  {
    uint64_t previous = 0;
    int monotone = 1;
    for (w = 1; w <= 200; ++w) {
      if (gpuwcet_makespan_pessimistic(&sm, "LLCLL", 5, w, &safe_r) != GPUWCET_OK ||
          safe_r.makespan < previous) {
        monotone = 0;
      }
      previous = safe_r.makespan;
    }
    CHECK(monotone);
  }
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, (uint64_t)1 << 40, &safe_r) == GPUWCET_OK);
  CHECK(safe_r.makespan > ((uint64_t)1 << 40));
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, UINT64_MAX, &safe_r) == GPUWCET_OVERFLOW);

  /* Bad input is a status, never a fault. */
  CHECK(gpuwcet_makespan_pessimistic(&sm, "", 0, 4, &safe_r) == GPUWCET_EMPTY_KERNEL);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LC", 2, 0, &safe_r) == GPUWCET_ZERO_WARPS);
  CHECK(gpuwcet_makespan_pessimistic(NULL, "LC", 2, 4, &safe_r) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_makespan_pessimistic(&sm, "LX", 2, 4, &safe_r) == GPUWCET_UNDESCRIBED_CLASS);
}
