/*
 * gpuwcet: compiled timing profiles and kernel-level WCET. C99.
 * Included by gpuwcet.h. Format: docs/profile-format.md; model and
 * assumptions of the kernel bound: docs/kernel-wcet.md.
 *
 * A profile is read in place: gpuwcet_profile_open() validates the caller's
 * bytes once (magic, version, sizes, CRC-32, every field) and the handles
 * below point into them, so the bytes must stay unchanged while they are
 * used. Nothing is copied or allocated.
 */
#ifndef GPUWCET_PROFILE_H
#define GPUWCET_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "gpuwcet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open profile. Fields are private: only gpuwcet_profile_* may set them. */
typedef struct gpuwcet_profile {
  const uint8_t* data_;
  uint32_t size_;
  uint32_t kernel_count; /* readable */
} gpuwcet_profile;

/* One kernel of an open profile. Fields are private. */
typedef struct gpuwcet_profile_kernel {
  const uint8_t* data_;
  uint32_t size_;
  uint32_t index_;
} gpuwcet_profile_kernel;

#define GPUWCET_PROFILE_NAME_SIZE 32

/* What the profile says about a kernel. */
typedef struct gpuwcet_kernel_info {
  uint32_t struct_size; /* sizeof(gpuwcet_kernel_info) */
  char name[GPUWCET_PROFILE_NAME_SIZE]; /* NUL-terminated */
  uint32_t block_threads;
  uint32_t warp_size;
  uint32_t registers_per_thread;
  uint32_t shared_memory_per_block; /* bytes */
  uint32_t warp_count;
  uint32_t section_count;           /* 0: timing from the makespan model */
  uint64_t block_bound_alone;       /* B_1, cycles: the block alone on its SM (B_S
                                       for a caller whose struct_size ends before
                                       block_bound_co_resident, as 0.3 had it) */
  uint64_t block_interference_cycles;       /* E, cycles */
  /* Since 0.4 (a caller whose struct_size ends before it does not get it):
   * B_S, cycles, the base of the bound of a block that shares its SM with
   * min(k, G) - 1 others, B_S + (min(k, G) - 1) E; >= B_1, and above it when
   * the profile holds a tighter bound alone (docs/kernel-wcet.md). */
  uint64_t block_bound_co_resident;
} gpuwcet_kernel_info;

/* The GPU as the block dispatcher sees it. Zero limits mean "no limit", but
 * at least one of max_blocks/threads/warps_per_sm must be set. The limits
 * must be the hardware's exact ones (docs/kernel-wcet.md, assumption A3). */
typedef struct gpuwcet_gpu_desc {
  uint32_t struct_size; /* sizeof(gpuwcet_gpu_desc) */
  uint32_t sm_count;    /* > 0 */
  uint32_t warp_size;   /* 0: the profile's */
  uint32_t max_blocks_per_sm;
  uint32_t max_threads_per_sm;
  uint32_t max_warps_per_sm;
  uint32_t registers_per_sm;
  uint32_t register_alloc_unit; /* registers per warp round up to this; 0: 1 */
  uint32_t shared_memory_per_sm; /* bytes: the carveout the kernel runs with */
  uint32_t clock_khz;            /* 0: no nanoseconds in the result */
  uint64_t dispatch_delay;       /* d: cycles from a free slot to a block start */
  /* Since 0.5 (0 for a caller whose struct_size ends before them). Give
   * them for a GPU that has them: without, k may come out above the
   * hardware's, and the bound below the launch's time (assumption A3). */
  uint32_t register_partitions;  /* register file sub-partitions, each warp's
                                    registers from one (NVIDIA: 4 since
                                    Kepler, GP100 2); 0: 1 */
  uint32_t shared_memory_alloc_unit;         /* bytes; 0: 1 */
  uint32_t shared_memory_reserved_per_block; /* bytes the system keeps per
                                                block (NVIDIA since Ampere:
                                                1024) */
} gpuwcet_gpu_desc;

/* One launch of a kernel. */
typedef struct gpuwcet_launch {
  uint32_t struct_size;   /* sizeof(gpuwcet_launch) */
  uint32_t block_threads; /* 0: the profile's; otherwise must equal it */
  uint64_t grid_blocks;   /* G = gridDim.x * gridDim.y * gridDim.z, > 0 */
} gpuwcet_launch;

typedef struct gpuwcet_kernel_wcet_result {
  uint32_t struct_size;        /* sizeof(gpuwcet_kernel_wcet_result) */
  uint32_t blocks_per_sm;      /* k */
  uint64_t resident_blocks;    /* G_parallel = SMs * k */
  uint64_t rounds;             /* DS = ceil(G / G_parallel) */
  uint64_t block_bound_alone;  /* B_1 */
  uint64_t block_bound_shared; /* B_k: B_1 if min(k, G) = 1, else B_S + (min(k, G) - 1) * E */
  uint64_t rounds_estimate;    /* DS * (d + B_k): synchronous rounds, NOT proven safe */
  uint64_t cycles;             /* the safe bound on the whole launch */
  uint64_t nanoseconds;        /* ceil(cycles * 10^6 / clock_khz), 0 when clock_khz = 0 */
} gpuwcet_kernel_wcet_result;

/* Each *_init zeroes *x and sets struct_size.
 * Returns GPUWCET_INVALID_ARGUMENT if the pointer is NULL. */
/* gpuwcet_gpu_desc grew in 0.5 (register_partitions and the shared-memory
 * allocation): its init is a macro passing the caller's sizeof, from the
 * first layout (48 bytes, to 0.4) to this header's; else
 * GPUWCET_INVALID_ARGUMENT, as for NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_gpu_desc_init_sized(gpuwcet_gpu_desc* gpu, size_t size);
#define gpuwcet_gpu_desc_init(gpu) gpuwcet_gpu_desc_init_sized((gpu), sizeof(gpuwcet_gpu_desc))
/* The function objects compiled against the headers before 0.5 call: it
 * fills the layout they have, without the fields of 0.5. */
GPUWCET_CHECK_RETURN gpuwcet_status(gpuwcet_gpu_desc_init)(gpuwcet_gpu_desc* gpu);
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_launch_init(gpuwcet_launch* launch);
/* gpuwcet_kernel_info grew in 0.4 (block_bound_co_resident): its init is a
 * macro passing the caller's sizeof, so the library writes only the struct
 * the caller has. `size` is that sizeof: from the 0.3 layout (80 bytes) to
 * this header's; else GPUWCET_INVALID_ARGUMENT, as for NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_kernel_info_init_sized(gpuwcet_kernel_info* info,
                                                                   size_t size);
#define gpuwcet_kernel_info_init(info) \
  gpuwcet_kernel_info_init_sized((info), sizeof(gpuwcet_kernel_info))
/* The function objects compiled against the headers before 0.4.1 call. It
 * cannot know their struct's size, so it fills the 0.3 layout, which every
 * such caller has: gpuwcet_profile_kernel_info then gives B_S in
 * block_bound_alone (safe for every k) and leaves block_bound_co_resident
 * alone. Code compiled against 0.4.0 that reads that field must be
 * recompiled. */
GPUWCET_CHECK_RETURN gpuwcet_status(gpuwcet_kernel_info_init)(gpuwcet_kernel_info* info);
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_kernel_wcet_result_init(
    gpuwcet_kernel_wcet_result* result);

/* Validates the `size` bytes at `blob` (any alignment) as a profile and makes
 * *profile a view of them. Bytes after the profile's own size are ignored.
 * Returns GPUWCET_INVALID_ARGUMENT (NULL blob or profile, or size >= 4 GiB),
 * GPUWCET_MALFORMED_DATA (truncated, corrupted, not a profile) or
 * GPUWCET_UNSUPPORTED_VERSION; *profile is written only on success. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_profile_open(const void* blob, size_t size,
                                                         gpuwcet_profile* profile);

/* The kernel named `name` (NUL-terminated), by binary search over the
 * profile's names. Returns GPUWCET_NOT_FOUND, or GPUWCET_INVALID_ARGUMENT
 * for a NULL argument or a profile not opened. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_profile_find(const gpuwcet_profile* profile,
                                                         const char* name,
                                                         gpuwcet_profile_kernel* kernel);

/* The kernel at `index` < kernel_count. Kernels are indexed in the order of
 * their names (bytewise, as strcmp): index 0 has the smallest name, whatever
 * the order they were listed in when the profile was compiled. Returns
 * GPUWCET_NOT_FOUND for an index out of range, GPUWCET_INVALID_ARGUMENT for a
 * NULL argument. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_profile_kernel_at(const gpuwcet_profile* profile,
                                                              uint32_t index,
                                                              gpuwcet_profile_kernel* kernel);

/* Fills *info. Returns GPUWCET_INVALID_ARGUMENT (NULL, bad struct_size) or
 * GPUWCET_OVERFLOW (the block bound does not fit in 64 bits). */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_profile_kernel_info(
    const gpuwcet_profile_kernel* kernel, gpuwcet_kernel_info* info);

/* Safe WCET of one launch of `kernel` on `gpu` (docs/kernel-wcet.md).
 * Time and stack per call: docs/kernel-wcet.md, "Cost of a query".
 * Returns GPUWCET_INVALID_ARGUMENT (NULL, bad struct_size, zero grid or SMs,
 * no residency limit, a block size or warp size other than the profile's),
 * GPUWCET_LAUNCH_DOES_NOT_FIT (not one block fits on an SM) or
 * GPUWCET_OVERFLOW; *result is written only on success. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_kernel_wcet(const gpuwcet_profile_kernel* kernel,
                                                        const gpuwcet_gpu_desc* gpu,
                                                        const gpuwcet_launch* launch,
                                                        gpuwcet_kernel_wcet_result* result);

#ifdef __cplusplus
}
#endif

#endif /* GPUWCET_PROFILE_H */
