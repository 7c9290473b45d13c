/* Compiled profiles and the kernel-level WCET through the C API, from C99. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "capi_check.h"
#include "gpuwcet.h"

/* The profile of examples/kernels/admission.toml; regenerate from the
 * repository root with the command in the file's first comment. */
#include "profile_blob.inc"

static gpuwcet_gpu_desc test_gpu(void) {
  gpuwcet_gpu_desc gpu;
  gpuwcet_status st = gpuwcet_gpu_desc_init(&gpu);
  CHECK(st == GPUWCET_OK);
  gpu.sm_count = 2;
  gpu.max_blocks_per_sm = 16;
  gpu.max_threads_per_sm = 2048;
  gpu.max_warps_per_sm = 64;
  gpu.registers_per_sm = 65536;
  gpu.shared_memory_per_sm = 48 * 1024;
  gpu.dispatch_delay = 100;
  gpu.clock_khz = 1000000; /* 1 GHz */
  return gpu;
}

static gpuwcet_profile open_test_profile(void) {
  gpuwcet_profile p;
  gpuwcet_status st = gpuwcet_profile_open(test_profile, test_profile_size, &p);
  CHECK(st == GPUWCET_OK);
  return p;
}

static void test_open_and_find(void) {
  gpuwcet_profile p = open_test_profile();
  gpuwcet_profile_kernel k;
  gpuwcet_kernel_info info;
  CHECK(p.kernel_count == 5);
  CHECK(gpuwcet_profile_find(&p, "stencil", &k) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(strcmp(info.name, "stencil") == 0);
  CHECK(info.block_threads == 64 && info.warp_count == 2 && info.section_count == 1);
  CHECK(info.registers_per_thread == 40);
  /* One section, warps [length 1200, demand 700] and [1200, 680]:
   * B_1 = max(1200 + 680, 1200 + 700) = 1900, E = 700 + 680 = 1380. */
  CHECK(info.block_bound_alone == 1900);
  CHECK(info.block_interference_cycles == 1380);
  CHECK(gpuwcet_profile_find(&p, "sten", &k) == GPUWCET_NOT_FOUND);
  CHECK(gpuwcet_profile_find(&p, "a_name_longer_than_thirty_one_characters", &k) ==
        GPUWCET_NOT_FOUND);
  /* Indices follow the names' order, not the manifest's. */
  CHECK(gpuwcet_profile_kernel_at(&p, 0, &k) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(strcmp(info.name, "llcll") == 0 && info.section_count == 0);
  CHECK(gpuwcet_profile_kernel_at(&p, 2, &k) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(strcmp(info.name, "saxpy") == 0 && info.section_count == 2);
  CHECK(gpuwcet_profile_kernel_at(&p, 3, &k) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(strcmp(info.name, "scale_tile") == 0);
  CHECK(gpuwcet_profile_kernel_at(&p, 4, &k) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(strcmp(info.name, "stencil") == 0);
  CHECK(gpuwcet_profile_kernel_at(&p, 5, &k) == GPUWCET_NOT_FOUND);
  /* Every kernel is found by its name. */
  {
    uint32_t i;
    for (i = 0; i < p.kernel_count; ++i) {
      gpuwcet_kernel_info found;
      CHECK(gpuwcet_kernel_info_init(&found) == GPUWCET_OK);
      CHECK(gpuwcet_profile_kernel_at(&p, i, &k) == GPUWCET_OK);
      CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
      CHECK(gpuwcet_profile_find(&p, info.name, &k) == GPUWCET_OK);
      CHECK(gpuwcet_profile_kernel_info(&k, &found) == GPUWCET_OK);
      CHECK(strcmp(found.name, info.name) == 0 &&
            found.block_bound_alone == info.block_bound_alone);
    }
  }
  CHECK(gpuwcet_profile_find(&p, "a", &k) == GPUWCET_NOT_FOUND);
  CHECK(gpuwcet_profile_find(&p, "zzz", &k) == GPUWCET_NOT_FOUND);
  CHECK(gpuwcet_profile_find(&p, "", &k) == GPUWCET_NOT_FOUND);
  CHECK(gpuwcet_profile_find(NULL, "stencil", &k) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_profile_find(&p, NULL, &k) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_profile_find(&p, "stencil", NULL) == GPUWCET_INVALID_ARGUMENT);
}

static void test_rejects_bad_blobs(void) {
  unsigned char copy[2048];
  gpuwcet_profile p;
  unsigned int n;
  CHECK(sizeof copy >= test_profile_size + 1);
  CHECK(gpuwcet_profile_open(NULL, 10, &p) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_profile_open(test_profile, test_profile_size, NULL) == GPUWCET_INVALID_ARGUMENT);
  for (n = 0; n < test_profile_size; ++n) {
    CHECK(gpuwcet_profile_open(test_profile, n, &p) == GPUWCET_MALFORMED_DATA);
  }
  /* Any alignment: at an odd address. */
  memcpy(copy + 1, test_profile, test_profile_size);
  CHECK(gpuwcet_profile_open(copy + 1, test_profile_size, &p) == GPUWCET_OK);
  copy[1 + 200] ^= 0x10;
  CHECK(gpuwcet_profile_open(copy + 1, test_profile_size, &p) == GPUWCET_MALFORMED_DATA);
}

/* Field access and resealing, to make blobs a writer of this version could
 * produce but must not: every field valid on its own, the CRC intact. */
static uint32_t get32(const unsigned char* b, size_t at) {
  return (uint32_t)b[at] | ((uint32_t)b[at + 1] << 8) | ((uint32_t)b[at + 2] << 16) |
         ((uint32_t)b[at + 3] << 24);
}

static void put32(unsigned char* b, size_t at, uint32_t v) {
  int i;
  for (i = 0; i < 4; ++i) b[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Offset of the record of kernel `name`, 0 when there is none. */
static size_t record_of(const unsigned char* b, const char* name) {
  uint32_t i;
  for (i = 0; i < get32(b, 12); ++i) {
    const size_t at = get32(b, 32 + 8 * (size_t)i);
    if (strcmp((const char*)b + at, name) == 0) return at;
  }
  return 0;
}

/* A fresh copy of the test profile to patch; NULL if it does not fit. */
static unsigned char* fresh_copy(void) {
  static unsigned char copy[2048];
  CHECK(sizeof copy >= test_profile_size);
  if (sizeof copy < test_profile_size) return NULL;
  memcpy(copy, test_profile, test_profile_size);
  return copy;
}

/* Opens a patched copy after giving it a valid CRC again. */
static gpuwcet_status open_resealed(unsigned char* b) {
  gpuwcet_profile p;
  uint32_t c = 0xFFFFFFFFu;
  size_t i;
  int k;
  for (i = 0; i + 4 < test_profile_size; ++i) { /* every byte before the CRC */
    c ^= b[i];
    for (k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  put32(b, test_profile_size - 4, ~c);
  return gpuwcet_profile_open(b, test_profile_size, &p);
}

/* The makespan model stands for the whole block: a model of fewer warps than
 * the block has would give a B_1 below the block's real time. */
static void test_makespan_warps_cover_the_block(void) {
  unsigned char* b = fresh_copy();
  size_t rec;
  if (b == NULL) return;
  rec = record_of(b, "llcll");
  CHECK(rec != 0 && get32(b, rec + 48) == 8 && get32(b, rec + 56) == 8); /* W = 8 */
  put32(b, rec + 56, 7);
  CHECK(open_resealed(b) == GPUWCET_MALFORMED_DATA);
  put32(b, rec + 56, 1);
  CHECK(open_resealed(b) == GPUWCET_MALFORMED_DATA);
  put32(b, rec + 56, 9); /* more warps than the block: a looser model, still safe */
  CHECK(open_resealed(b) == GPUWCET_OK);
}

/* Names must strictly increase along the directory: that one check proves
 * them unique, so opening stays linear in the kernel count, and lets
 * gpuwcet_profile_find search by halves. */
static void test_names_in_order(void) {
  unsigned char* b = fresh_copy();
  size_t first;
  if (b == NULL) return;
  first = record_of(b, "llcll");
  CHECK(first == get32(b, 32)); /* the smallest name comes first */
  memcpy(b + first, "zzzzz", 5); /* unique, out of order */
  CHECK(open_resealed(b) == GPUWCET_MALFORMED_DATA);
  memcpy(b + first, "reduce", 6); /* the name of the next kernel */
  CHECK(open_resealed(b) == GPUWCET_MALFORMED_DATA);
  memcpy(b + first, "aaaaaa", 6); /* still first */
  CHECK(open_resealed(b) == GPUWCET_OK);
  /* Version 2 allowed any order, version 3 had no alone bound, version 4
   * no barrier issue slots in its demands: refused as foreign versions. */
  b = fresh_copy();
  if (b == NULL) return;
  b[4] = 2;
  CHECK(open_resealed(b) == GPUWCET_UNSUPPORTED_VERSION);
  b[4] = 3;
  CHECK(open_resealed(b) == GPUWCET_UNSUPPORTED_VERSION);
  b[4] = 4;
  CHECK(open_resealed(b) == GPUWCET_UNSUPPORTED_VERSION);
}

static uint64_t get64(const unsigned char* b, size_t at) {
  return (uint64_t)get32(b, at) | ((uint64_t)get32(b, at + 4) << 32);
}

static void put64(unsigned char* b, size_t at, uint64_t v) {
  put32(b, at, (uint32_t)v);
  put32(b, at + 4, (uint32_t)(v >> 32));
}

/* scale_tile is one warp (examples/traces/one-warp.trace): its record holds
 * its time alone, 436 cycles (what `gpuwcet block-wcet` prints for that
 * trace), below B_S = 224 + 220 = 444, the sum of its two section lengths
 * (docs/kernel-wcet.md). A block alone on its SM gets B_1; one that may
 * share it gets B_S plus the others' E. */
static void test_alone_bound(void) {
  gpuwcet_profile p = open_test_profile();
  gpuwcet_profile_kernel k;
  gpuwcet_kernel_info info;
  gpuwcet_gpu_desc gpu = test_gpu();
  gpuwcet_launch launch;
  gpuwcet_kernel_wcet_result r;
  unsigned char* b;
  size_t rec;
  CHECK(gpuwcet_profile_find(&p, "scale_tile", &k) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(info.warp_count == 1 && info.section_count == 2);
  CHECK(info.block_bound_alone == 436 && info.block_bound_co_resident == 444);
  CHECK(info.block_interference_cycles == 12);
  /* A caller of 0.3 (struct_size without the new field) builds B_k from
   * block_bound_alone for every k: it gets B_S there, and the field it does
   * not have is left alone. */
  memset(&info, 0xAB, sizeof info);
  info.struct_size = (uint32_t)offsetof(gpuwcet_kernel_info, block_bound_co_resident);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(info.block_bound_alone == 444 && info.block_bound_co_resident == 0xABABABABABABABABu);
  CHECK(info.block_interference_cycles == 12);
  info.struct_size -= 1;
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_INVALID_ARGUMENT);
  /* The other kernels hold no alone bound: B_S = B_1. */
  CHECK(gpuwcet_kernel_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_profile_find(&p, "stencil", &k) == GPUWCET_OK);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(info.block_bound_alone == 1900 && info.block_bound_co_resident == 1900);

  CHECK(gpuwcet_profile_find(&p, "scale_tile", &k) == GPUWCET_OK);
  CHECK(gpuwcet_launch_init(&launch) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_wcet_result_init(&r) == GPUWCET_OK);
  /* One block: d + B_1 = 100 + 436. */
  launch.grid_blocks = 1;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.blocks_per_sm == 16 && r.block_bound_shared == 436 && r.cycles == 536);
  /* Two blocks may share an SM: d + B_S + E = 100 + 444 + 12 (E: the
   * warp's 7 issue slots, its barrier's slot and its holds). */
  launch.grid_blocks = 2;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.block_bound_alone == 436 && r.block_bound_shared == 456 && r.cycles == 556);
  /* One block per SM (k = 1): 40 blocks on 2 SMs, DS = 20 rounds of
   * d + B_1 (Thm. 2): 20 * 536. */
  gpu.max_blocks_per_sm = 1;
  launch.grid_blocks = 40;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.blocks_per_sm == 1 && r.cycles == 20 * 536);

  /* The record's alone bound (offset 132): above B_S it contradicts the
   * sections; without sections there is nothing to tighten. */
  b = fresh_copy();
  if (b == NULL) return;
  rec = record_of(b, "scale_tile");
  CHECK(rec != 0 && get64(b, rec + 132) == 436);
  put64(b, rec + 132, 444);
  CHECK(open_resealed(b) == GPUWCET_OK);
  put64(b, rec + 132, 445);
  CHECK(open_resealed(b) == GPUWCET_MALFORMED_DATA);
  put64(b, rec + 132, 0);
  CHECK(open_resealed(b) == GPUWCET_OK);
  rec = record_of(b, "llcll");
  CHECK(rec != 0 && get64(b, rec + 132) == 0);
  put64(b, rec + 132, 1);
  CHECK(open_resealed(b) == GPUWCET_MALFORMED_DATA);
}

/* gpuwcet_kernel_info grew in 0.4: the library writes only the struct the
 * caller has. The macro passes this header's sizeof; objects compiled
 * against older headers call the exported function, which fills the 0.3
 * layout (80 bytes) and so never writes past a 0.3 caller's struct. */
static void test_kernel_info_sizes(void) {
  const size_t old_size = offsetof(gpuwcet_kernel_info, block_bound_co_resident);
  gpuwcet_profile p = open_test_profile();
  gpuwcet_profile_kernel k;
  gpuwcet_kernel_info info;
  CHECK(old_size == 80);
  CHECK(gpuwcet_profile_find(&p, "scale_tile", &k) == GPUWCET_OK);
  memset(&info, 0xAB, sizeof info);
  CHECK(gpuwcet_kernel_info_init(&info) == GPUWCET_OK);
  CHECK(info.struct_size == sizeof info && info.block_bound_co_resident == 0);
  memset(&info, 0xAB, sizeof info);
  CHECK((gpuwcet_kernel_info_init)(&info) == GPUWCET_OK);
  CHECK(info.struct_size == old_size && info.block_interference_cycles == 0);
  CHECK(info.block_bound_co_resident == 0xABABABABABABABABu);
  CHECK(gpuwcet_profile_kernel_info(&k, &info) == GPUWCET_OK);
  CHECK(info.block_bound_alone == 444 && info.block_bound_co_resident == 0xABABABABABABABABu);
  memset(&info, 0xAB, sizeof info);
  CHECK(gpuwcet_kernel_info_init_sized(&info, old_size) == GPUWCET_OK);
  CHECK(info.struct_size == old_size && info.block_bound_co_resident == 0xABABABABABABABABu);
  CHECK(gpuwcet_kernel_info_init_sized(&info, old_size - 1) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_kernel_info_init_sized(&info, sizeof info + 1) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_kernel_info_init_sized(NULL, sizeof info) == GPUWCET_INVALID_ARGUMENT);
  CHECK((gpuwcet_kernel_info_init)(NULL) == GPUWCET_INVALID_ARGUMENT);
}

/* gpuwcet_gpu_desc grew in 0.5; a caller compiled before it has 48 bytes,
 * and its fields of 0.5 are neither written nor read. */
static void test_gpu_desc_sizes(void) {
  const size_t old_size = offsetof(gpuwcet_gpu_desc, register_partitions);
  gpuwcet_profile p = open_test_profile();
  gpuwcet_profile_kernel k;
  gpuwcet_gpu_desc gpu;
  gpuwcet_launch launch;
  gpuwcet_kernel_wcet_result r;
  CHECK(old_size == 48);
  CHECK(gpuwcet_profile_find(&p, "stencil", &k) == GPUWCET_OK);
  CHECK(gpuwcet_launch_init(&launch) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_wcet_result_init(&r) == GPUWCET_OK);
  launch.grid_blocks = 100;
  memset(&gpu, 0xAB, sizeof gpu);
  CHECK(gpuwcet_gpu_desc_init(&gpu) == GPUWCET_OK);
  CHECK(gpu.struct_size == sizeof gpu && gpu.register_partitions == 0 &&
        gpu.shared_memory_reserved_per_block == 0);
  memset(&gpu, 0xAB, sizeof gpu);
  CHECK((gpuwcet_gpu_desc_init)(&gpu) == GPUWCET_OK);
  CHECK(gpu.struct_size == old_size && gpu.dispatch_delay == 0);
  CHECK(gpu.register_partitions == 0xABABABABu);
  /* "stencil": 64 threads, 40 registers each, 2 warps of 1280 registers.
   * k = min(32 blocks, 2048 / 64 threads, 64 / 2 warps, 65536 / 2560 = 25
   * by registers); the bytes past the old layout are not read. */
  gpu.sm_count = 2;
  gpu.max_blocks_per_sm = 32;
  gpu.max_threads_per_sm = 2048;
  gpu.max_warps_per_sm = 64;
  gpu.registers_per_sm = 65536;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.blocks_per_sm == 25);
  /* Four register partitions of 16384: 12 warps each, 48 in all, 24
   * blocks; with a 16 KiB-aligned reserve per block, 3 per 48 KiB. */
  gpu.struct_size = sizeof gpu;
  gpu.register_partitions = 4;
  gpu.shared_memory_alloc_unit = 0;
  gpu.shared_memory_reserved_per_block = 0;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.blocks_per_sm == 24);
  gpu.shared_memory_per_sm = 48 * 1024;
  gpu.shared_memory_reserved_per_block = 1;
  gpu.shared_memory_alloc_unit = 16 * 1024;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.blocks_per_sm == 3);
  CHECK(gpuwcet_gpu_desc_init_sized(&gpu, old_size - 1) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_gpu_desc_init_sized(&gpu, sizeof gpu + 1) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_gpu_desc_init_sized(NULL, sizeof gpu) == GPUWCET_INVALID_ARGUMENT);
  CHECK((gpuwcet_gpu_desc_init)(NULL) == GPUWCET_INVALID_ARGUMENT);
  gpu.struct_size = (uint32_t)old_size - 4;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
}

static void test_kernel_wcet_by_hand(void) {
  gpuwcet_profile p = open_test_profile();
  gpuwcet_profile_kernel k;
  gpuwcet_gpu_desc gpu = test_gpu();
  gpuwcet_launch launch;
  gpuwcet_kernel_wcet_result r;
  CHECK(gpuwcet_profile_find(&p, "stencil", &k) == GPUWCET_OK);
  CHECK(gpuwcet_launch_init(&launch) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_wcet_result_init(&r) == GPUWCET_OK);
  /* k = min(16 blocks, 2048/64 threads, 64/2 warps, 65536/(40*32*2) = 25
   * register-limited blocks) = 16; P = 2 * 16 = 32 (docs/kernel-wcet.md). */
  launch.grid_blocks = 8;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.blocks_per_sm == 16 && r.resident_blocks == 32 && r.rounds == 1);
  /* G <= P: d + B_1 + (G - 1) E = 100 + 1900 + 7 * 1380 = 11660 cycles. */
  CHECK(r.cycles == 11660);
  CHECK(r.nanoseconds == 11660);
  /* G = 40 > P (Thm. 1): W' = 39 * 2000 + 15 * 40 * 1380 = 906000,
   * ceil(W' / 32) = 28313, plus 2000 + 15 * 1380 = 22700: 51013. */
  launch.grid_blocks = 40;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.rounds == 2);
  /* B_k = 1900 + 15 * 1380 = 22600; DS (d + B_k) = 2 * 22700. */
  CHECK(r.block_bound_alone == 1900 && r.block_bound_shared == 22600);
  CHECK(r.rounds_estimate == 45400);
  CHECK(r.cycles == 51013);
  /* 500 MHz: 2 ns per cycle. */
  gpu.clock_khz = 500000;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  CHECK(r.nanoseconds == 2 * 51013);
}

static void test_more_blocks_never_less_time(void) {
  gpuwcet_profile p = open_test_profile();
  gpuwcet_gpu_desc gpu = test_gpu();
  gpuwcet_launch launch;
  gpuwcet_kernel_wcet_result r;
  uint32_t i;
  CHECK(gpuwcet_launch_init(&launch) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_wcet_result_init(&r) == GPUWCET_OK);
  for (i = 0; i < p.kernel_count; ++i) {
    gpuwcet_profile_kernel k;
    uint64_t grid;
    uint64_t previous = 0;
    int monotone = 1;
    CHECK(gpuwcet_profile_kernel_at(&p, i, &k) == GPUWCET_OK);
    for (grid = 1; grid <= 400; ++grid) {
      launch.grid_blocks = grid;
      if (gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) != GPUWCET_OK || r.cycles < previous) {
        monotone = 0;
      }
      previous = r.cycles;
    }
    CHECK(monotone);
  }
}

static void test_bad_launches(void) {
  gpuwcet_profile p = open_test_profile();
  gpuwcet_profile_kernel k;
  gpuwcet_gpu_desc gpu = test_gpu();
  gpuwcet_launch launch;
  gpuwcet_kernel_wcet_result r;
  CHECK(gpuwcet_profile_find(&p, "reduce", &k) == GPUWCET_OK);
  CHECK(gpuwcet_launch_init(&launch) == GPUWCET_OK);
  CHECK(gpuwcet_kernel_wcet_result_init(&r) == GPUWCET_OK);
  launch.grid_blocks = 0;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
  launch.grid_blocks = 4;
  launch.block_threads = 256; /* the profile is for 128 threads */
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
  launch.block_threads = 128;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OK);
  gpu.shared_memory_per_sm = 1024; /* the block needs 4096 bytes */
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_LAUNCH_DOES_NOT_FIT);
  gpu = test_gpu();
  gpu.struct_size = 8;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
  gpu = test_gpu();
  gpu.warp_size = 64;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
  gpu = test_gpu();
  gpu.sm_count = 0;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_kernel_wcet(NULL, &gpu, &launch, &r) == GPUWCET_INVALID_ARGUMENT);
  gpu = test_gpu();
  gpu.dispatch_delay = UINT64_MAX;
  CHECK(gpuwcet_kernel_wcet(&k, &gpu, &launch, &r) == GPUWCET_OVERFLOW);
  CHECK(strcmp(gpuwcet_status_message(GPUWCET_LAUNCH_DOES_NOT_FIT),
               "not one block of the launch fits on an SM") == 0);
}

int main(void) {
  test_open_and_find();
  test_rejects_bad_blobs();
  test_makespan_warps_cover_the_block();
  test_names_in_order();
  test_alone_bound();
  test_kernel_info_sizes();
  test_gpu_desc_sizes();
  test_kernel_wcet_by_hand();
  test_more_blocks_never_less_time();
  test_bad_launches();
  printf("capi profile: %d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
