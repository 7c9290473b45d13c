// Kernel-level WCET from a block bound: how many blocks fit on an SM, how
// many are resident across the GPU, and a safe bound on the whole grid under
// a work-conserving block dispatcher. The assumptions and the proof are in
// docs/kernel-wcet.md; the synchronous-rounds formula of Klashtorny et al.
// (predictable wavefront splitting, Eqs. 4-6 with no splitting) is reported
// alongside for comparison.
#pragma once

#include <cstdint>

#include "gpuwcet/status.hpp"

namespace gpuwcet {

// The GPU as the block dispatcher sees it. Zero in a limit means "no limit"
// except for sm_count and warp_size, which must be positive.
struct GpuDescription {
  std::uint32_t sm_count = 0;
  std::uint32_t warp_size = 32;
  std::uint32_t max_blocks_per_sm = 0;
  std::uint32_t max_threads_per_sm = 0;
  std::uint32_t max_warps_per_sm = 0;
  std::uint32_t registers_per_sm = 0;        // 32-bit registers
  std::uint32_t register_alloc_unit = 0;     // registers per warp are rounded up to this (0: 1)
  // Sub-partitions of the register file (0: 1). A warp's registers come from
  // one of them, so at most floor(registers_per_sm / partitions / registers
  // per warp) warps fit in each: 4 on NVIDIA SMs since Kepler (GP100: 2).
  std::uint32_t register_partitions = 0;
  std::uint32_t shared_memory_per_sm = 0;    // bytes: the carveout the kernel runs with
  // A block's shared memory, plus what the system reserves per block, is
  // rounded up to the allocation unit (0: 1).
  std::uint32_t shared_memory_alloc_unit = 0;          // bytes
  std::uint32_t shared_memory_reserved_per_block = 0;  // bytes (1024 on NVIDIA SMs since Ampere)
  std::uint64_t dispatch_delay = 0;          // d: cycles from a free slot to the next block start
  std::uint64_t clock_khz = 0;               // 0: no nanoseconds
};

// What one block of the kernel needs and how long it can take.
struct BlockTiming {
  std::uint32_t block_threads = 0;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t shared_memory_per_block = 0;  // bytes
  // B_1: safe bound on a block's execution alone on an SM (the block bound
  // of docs/multiphase.md, or a one-warp block's time alone).
  std::uint64_t alone_bound = 0;
  // B_S: a bound that, plus the cycles in which warps of other blocks on
  // the SM execute, bounds the block when it shares its SM (assumption A1
  // of docs/kernel-wcet.md): the block bound of docs/multiphase.md. A
  // one-warp block's time alone is no such bound: with another warp beside
  // it, the service order of its own queued instructions changes. Used as
  // max(co_resident_bound, alone_bound), so 0 means "the same as B_1":
  // set it whenever alone_bound is below the block bound (block_timing does).
  std::uint64_t co_resident_bound = 0;
  // E: the cycles in which the block's warps can delay a warp of another
  // block on the same SM (issue slots and initiation intervals they occupy,
  // summed over all warps and sections).
  std::uint64_t interference_cycles = 0;
};

struct KernelWcet {
  std::uint32_t blocks_per_sm = 0;     // k
  std::uint64_t resident_blocks = 0;   // G_parallel = sm_count * k
  std::uint64_t rounds = 0;            // DS = ceil(G / G_parallel)
  std::uint64_t block_bound_shared = 0;  // B_k: B_1 if k_eff = 1, else B_S + (k_eff - 1) * E
  std::uint64_t rounds_estimate = 0;   // DS * (d + B_k): synchronous rounds, see docs
  std::uint64_t cycles = 0;            // the safe bound
  std::uint64_t nanoseconds = 0;       // ceil(cycles * 1e6 / clock_khz), 0 without a clock
};

// k: blocks of this size that fit on one SM (min over the limits; threads
// count in whole warps, as the SM allocates them: docs/kernel-wcet.md).
// Returns invalid_argument (zero threads, zero SMs or warp size, or none of
// max_blocks/threads/warps_per_sm set), or launch_does_not_fit (k = 0).
[[nodiscard]] Status blocks_per_sm(const GpuDescription& gpu, const BlockTiming& block,
                                   std::uint32_t& k) noexcept;

// Safe WCET of a grid of `grid_blocks` blocks (docs/kernel-wcet.md, Thm. 1).
// Returns invalid_argument (grid_blocks = 0 or what blocks_per_sm refuses),
// launch_does_not_fit, overflow (a product on the way passes 64 bits, even
// where the bound itself would not); `out` is written only on ok.
[[nodiscard]] Status kernel_wcet(const GpuDescription& gpu, const BlockTiming& block,
                                 std::uint64_t grid_blocks, KernelWcet& out) noexcept;

}  // namespace gpuwcet
