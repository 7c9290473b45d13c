/* One admission-time query through the C API, for instruction counts under
 * callgrind (bench/query-cost/measure.sh): open the profile of
 * examples/kernels/admission.toml, find "reduce", bound one launch. */
#include <stdio.h>

#include "gpuwcet.h"
#include "../../tests/capi/profile_blob.inc"

int main(void) {
  gpuwcet_profile p;
  gpuwcet_profile_kernel k;
  gpuwcet_gpu_desc gpu;
  gpuwcet_launch launch;
  gpuwcet_kernel_wcet_result r;
  if (gpuwcet_profile_open(test_profile, test_profile_size, &p) != GPUWCET_OK) return 1;
  if (gpuwcet_profile_find(&p, "reduce", &k) != GPUWCET_OK) return 1;
  if (gpuwcet_gpu_desc_init(&gpu) != GPUWCET_OK || gpuwcet_launch_init(&launch) != GPUWCET_OK ||
      gpuwcet_kernel_wcet_result_init(&r) != GPUWCET_OK) {
    return 1;
  }
  gpu.sm_count = 16;
  gpu.max_blocks_per_sm = 16;
  gpu.max_threads_per_sm = 2048;
  gpu.max_warps_per_sm = 64;
  gpu.registers_per_sm = 65536;
  gpu.dispatch_delay = 100;
  gpu.clock_khz = 1000000;
  launch.grid_blocks = 4096;
  if (gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) != GPUWCET_OK) return 1;
  printf("%llu cycles\n", (unsigned long long)r.cycles);
  return 0;
}
