/* A compiled profile linked in as a const array: open it in place and bound
 * launches, as an admission controller on the target does. */
#include <string.h>

#include "gpuwcet.h"
#include "target_check.h"

/* The profile of examples/kernels/admission.toml (tests/capi). */
#include "profile_blob.inc"

void target_profile_checks(void) {
  gpuwcet_profile p;
  gpuwcet_profile_kernel k;
  gpuwcet_kernel_info info;
  gpuwcet_gpu_desc gpu;
  gpuwcet_launch launch;
  gpuwcet_kernel_wcet_result r;
  static unsigned char copy[2048];
  CHECK(gpuwcet_profile_open(test_profile, test_profile_size, &p) == GPUWCET_OK);
  CHECK(p.kernel_count == 5);
  CHECK(gpuwcet_profile_find(&p, "stencil", &k) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(strcmp(info.name, "stencil") == 0 && info.warp_count == 2);
  /* One section, warps [length 1200, demand 700] and [1200, 680]:
   * B_1 = max(1200 + 680, 1200 + 700) = 1900, E = 1380. */
  CHECK(info.block_bound_alone == 1900 && info.block_interference_cycles == 1380);

  /* The reader takes any alignment: an odd address opens too. One flipped
   * bit fails the CRC, one byte short is a truncated profile. */
  CHECK(sizeof copy >= test_profile_size + 1);
  if (sizeof copy >= test_profile_size + 1) {
    memcpy(copy + 1, test_profile, test_profile_size);
    CHECK(gpuwcet_profile_open(copy + 1, test_profile_size, &p) == GPUWCET_OK);
    copy[1 + 200] ^= 0x10;
    CHECK(gpuwcet_profile_open(copy + 1, test_profile_size, &p) == GPUWCET_MALFORMED_DATA);
    CHECK(gpuwcet_profile_open(test_profile, test_profile_size - 1, &p) == GPUWCET_MALFORMED_DATA);
  }

  CHECK(gpuwcet_profile_open(test_profile, test_profile_size, &p) == GPUWCET_OK);
  CHECK(gpuwcet_profile_find(&p, "stencil", &k) == GPUWCET_OK);
  CHECK(gpuwcet_gpu_desc_init(&gpu) == GPUWCET_OK);
  gpu.sm_count = 2;
  gpu.max_blocks_per_sm = 16;
  gpu.max_threads_per_sm = 2048;
  gpu.max_warps_per_sm = 64;
  gpu.registers_per_sm = 65536;
  gpu.shared_memory_per_sm = 48 * 1024;
  gpu.dispatch_delay = 100;
  gpu.clock_khz = 1000000;
  CHECK(gpuwcet_launch_init(&launch) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_wcet_result_init(&r) == GPUWCET_OK);
  /* k = 16 blocks per SM, P = 32 (docs/kernel-wcet.md). G = 8 <= P:
   * d + B_1 + (G - 1) E = 100 + 1900 + 7 * 1380 = 11660 cycles. */
  launch.grid_blocks = 8;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.blocks_per_sm == 16 && r.resident_blocks == 32 && r.cycles == 11660);
  CHECK(r.nanoseconds == 11660);
  /* G = 40 > P (Thm. 1): ceil((39 * 2000 + 15 * 40 * 1380) / 32) + 2000 +
   * 15 * 1380 = 28313 + 22700 = 51013 cycles; at 500 MHz twice as many ns. */
  launch.grid_blocks = 40;
  gpu.clock_khz = 500000;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.cycles == 51013 && r.nanoseconds == 2 * 51013);
  /* Bad launches are statuses. */
  launch.grid_blocks = 0;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
  launch.grid_blocks = 4;
  gpu.max_threads_per_sm = 32; /* a block has 64 threads */
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_LAUNCH_DOES_NOT_FIT);
  gpu.max_threads_per_sm = 2048;
  gpu.dispatch_delay = UINT64_MAX;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OVERFLOW);

  /* scale_tile, one warp: B_1 = its time alone, 436 cycles (`gpuwcet
   * block-wcet examples/traces/one-warp.trace`), B_S = 224 + 220 = 444
   * (its section lengths). One block: d + B_1; two may share an SM:
   * d + B_S + E = 100 + 444 + 12. */
  gpu.dispatch_delay = 100;
  CHECK(gpuwcet_profile_find(&p, "scale_tile", &k) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(info.block_bound_alone == 436 && info.block_bound_co_resident == 444);
  launch.grid_blocks = 1;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.cycles == 536);
  launch.grid_blocks = 2;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.cycles == 556);
}
