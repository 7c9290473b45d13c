// Kernel-level WCET: docs/kernel-wcet.md states the model and proves Thm. 1.
#include "gpuwcet/kernel_wcet.hpp"

#include <algorithm>

#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {

namespace {

// min(k, limit / need) when the limit is set (0 means no limit).
void apply_limit(std::uint64_t limit, std::uint64_t need, std::uint64_t& k) noexcept {
  if (limit == 0 || need == 0) return;
  k = std::min(k, limit / need);
}

}  // namespace

Status blocks_per_sm(const GpuDescription& gpu, const BlockTiming& block,
                     std::uint32_t& k) noexcept {
  if (gpu.sm_count == 0 || gpu.warp_size == 0 || block.block_threads == 0) {
    return Status::invalid_argument;
  }
  const std::uint64_t warps = ceil_div(block.block_threads, gpu.warp_size);
  // Without any limit a block size still needs one: an unbounded residency
  // would make the interference term unbounded.
  if (gpu.max_blocks_per_sm == 0 && gpu.max_threads_per_sm == 0 && gpu.max_warps_per_sm == 0) {
    return Status::invalid_argument;
  }
  std::uint64_t fit = ~std::uint64_t{0};
  apply_limit(gpu.max_blocks_per_sm, 1, fit);
  // The SM holds threads in whole warps: an 80-thread block takes 96 of
  // them (docs/kernel-wcet.md, "Notation: k").
  apply_limit(gpu.max_threads_per_sm, warps * gpu.warp_size, fit);  // < block_threads + warp_size
  apply_limit(gpu.max_warps_per_sm, warps, fit);
  if (block.registers_per_thread != 0 && gpu.registers_per_sm != 0) {
    // Registers are allocated per warp, rounded up to the allocation unit,
    // each warp's from one sub-partition of the register file: the warps
    // that fit are those that fit in one partition times the partitions.
    std::uint64_t per_warp = 0;
    if (!checked_mul(block.registers_per_thread, gpu.warp_size, per_warp)) return Status::overflow;
    const std::uint64_t unit = gpu.register_alloc_unit == 0 ? 1 : gpu.register_alloc_unit;
    per_warp = ceil_div(per_warp, unit) * unit;  // <= 2^32 * 2^32 / 1: fits in 64 bits
    const std::uint64_t partitions = gpu.register_partitions == 0 ? 1 : gpu.register_partitions;
    const std::uint64_t warps_fit = (gpu.registers_per_sm / partitions / per_warp) * partitions;
    fit = std::min(fit, warps_fit / warps);
  }
  // Shared memory per block, with the system's reserve, in whole allocation
  // units; the reserve counts even for a block that declares none.
  std::uint64_t smem = std::uint64_t{block.shared_memory_per_block} +
                       gpu.shared_memory_reserved_per_block;  // < 2^33
  if (smem != 0 && gpu.shared_memory_per_sm != 0) {
    const std::uint64_t unit =
        gpu.shared_memory_alloc_unit == 0 ? 1 : gpu.shared_memory_alloc_unit;
    smem = ceil_div(smem, unit) * unit;  // < 2^33 + 2^32
    apply_limit(gpu.shared_memory_per_sm, smem, fit);
  }
  if (fit == 0) return Status::launch_does_not_fit;
  // fit <= the smallest limit set (at least one of the block, thread and
  // warp limits is), each at most 32 bits.
  k = static_cast<std::uint32_t>(std::min<std::uint64_t>(fit, 0xFFFFFFFFu));
  return Status::ok;
}

Status kernel_wcet(const GpuDescription& gpu, const BlockTiming& block, std::uint64_t grid_blocks,
                   KernelWcet& out) noexcept {
  if (grid_blocks == 0) return Status::invalid_argument;
  std::uint32_t k = 0;
  const Status st = blocks_per_sm(gpu, block, k);
  if (st != Status::ok) return st;

  KernelWcet r;
  r.blocks_per_sm = k;
  r.resident_blocks = std::uint64_t{gpu.sm_count} * k;  // < 2^64
  const std::uint64_t slots = r.resident_blocks;        // P
  r.rounds = ceil_div(grid_blocks, slots);               // DS, Eq. (5) with no splitting

  const std::uint64_t others = std::min<std::uint64_t>(k, grid_blocks) - 1;  // k_eff - 1
  // A block that has its SM to itself takes at most B_1. One that may share
  // it takes at most B_S plus the cycles the others' warps execute (A1):
  // B_1 may be a one-warp block's time alone, which others can stretch more.
  // With k = 1 no block ever shares (Thm. 2), so B_1 serves throughout.
  const std::uint64_t base =
      others == 0 ? block.alone_bound : std::max(block.co_resident_bound, block.alone_bound);
  std::uint64_t interference = 0;
  std::uint64_t d_b1 = 0;  // d + B_1, or d + B_S when blocks may share an SM
  if (!checked_mul(others, block.interference_cycles, interference) ||
      !checked_add(base, interference, r.block_bound_shared) ||
      !checked_add(gpu.dispatch_delay, base, d_b1)) {
    return Status::overflow;
  }
  std::uint64_t slot_time = 0;  // d + B_k
  if (!checked_add(gpu.dispatch_delay, r.block_bound_shared, slot_time) ||
      !checked_mul(r.rounds, slot_time, r.rounds_estimate)) {
    return Status::overflow;
  }

  if (grid_blocks <= slots) {
    // Every block is dispatched at once and no block arrives later: a block
    // shares its SM with at most k_eff - 1 others for its whole life.
    r.cycles = slot_time;
  } else {
    // Thm. 1: the last-dispatched block starts by W'/P, where
    // W' = (G-1)(d + B_S) + (k-1) G E bounds the slot time of all other
    // blocks, and then runs at most d + B_S + (k-1) E (B_1 for k = 1).
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::uint64_t work = 0;
    std::uint64_t kg = 0;
    if (!checked_mul(grid_blocks - 1, d_b1, a) ||
        !checked_mul(std::uint64_t{k} - 1, grid_blocks, kg) ||
        !checked_mul(kg, block.interference_cycles, b) || !checked_add(a, b, work)) {
      return Status::overflow;
    }
    std::uint64_t last_block = 0;
    std::uint64_t tail = 0;
    if (!checked_mul(std::uint64_t{k} - 1, block.interference_cycles, tail) ||
        !checked_add(d_b1, tail, last_block) ||
        !checked_add(ceil_div(work, slots), last_block, r.cycles)) {
      return Status::overflow;
    }
    if (k == 1) {
      // No co-resident block: each block takes at most d + B_1 whatever the
      // other SMs do, and greedy list scheduling of G such blocks on P slots
      // ends within DS (d + B_1) (docs/kernel-wcet.md, Thm. 2).
      r.cycles = std::min(r.cycles, r.rounds_estimate);
    }
  }
  if (gpu.clock_khz != 0) {
    // cycles / (kHz * 1000) seconds = ceil(cycles * 10^6 / kHz) nanoseconds,
    // without the product, which passes 64 bits from about 1.8e13 cycles
    // (the nanoseconds only from about 584 years). Inexact only for clocks
    // above about 1.8e13 kHz, and then less than 10^6 below: adding 10^6
    // bounds it from above, the safe side for a time bound.
    bool exact = true;
    if (!checked_mul_ceil_div(r.cycles, 1000000u, gpu.clock_khz, r.nanoseconds, exact) ||
        (!exact && !checked_add(r.nanoseconds, 1000000u, r.nanoseconds))) {
      return Status::overflow;
    }
  }
  out = r;
  return Status::ok;
}

}  // namespace gpuwcet
