// Kernel-level WCET (docs/kernel-wcet.md): residency, hand computations of
// Thm. 1 and Thm. 2, and monotonicity.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "gpuwcet/kernel_wcet.hpp"
#include "test_seed.hpp"

namespace {

using gpuwcet::BlockTiming;
using gpuwcet::GpuDescription;
using gpuwcet::KernelWcet;
using gpuwcet::Status;

GpuDescription small_gpu() {
  GpuDescription g;
  g.sm_count = 2;
  g.warp_size = 32;
  g.max_blocks_per_sm = 4;
  g.max_threads_per_sm = 256;
  g.max_warps_per_sm = 8;
  g.registers_per_sm = 4096;
  g.dispatch_delay = 3;
  g.clock_khz = 1000;
  return g;
}

// Two warps, one section: exec 10 + 10, idle 5 and 3:
// B_1 = 20 + max(5, 3) = 25, E = 20.
BlockTiming small_block() {
  BlockTiming b;
  b.block_threads = 64;
  b.registers_per_thread = 32;
  b.alone_bound = 25;
  b.interference_cycles = 20;
  return b;
}

TEST(KernelWcet, BlocksPerSmIsTheTightestLimit) {
  std::uint32_t k = 0;
  GpuDescription g = small_gpu();
  BlockTiming b = small_block();
  // blocks 4, threads 256/64 = 4, warps 8/2 = 4, registers 4096/(32*32*2) = 2.
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 2u);
  b.registers_per_thread = 0;
  b.shared_memory_per_block = 12 * 1024;
  g.shared_memory_per_sm = 48 * 1024;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 4u);
  g.max_warps_per_sm = 3;  // 3 / 2 warps
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 1u);
  b.shared_memory_per_block = 64 * 1024;
  EXPECT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::launch_does_not_fit);
  // Registers rounded up per warp to the allocation unit: 33*32 = 1056 -> 1280.
  g = small_gpu();
  b = small_block();
  b.registers_per_thread = 33;
  g.register_alloc_unit = 256;
  g.registers_per_sm = 5120;  // 5120 / (1280 * 2) = 2
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 2u);
  g.register_alloc_unit = 0;  // 2112 per block: 5120 / 2112 = 2
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 2u);
}

TEST(KernelWcet, RejectsBadInput) {
  KernelWcet w;
  GpuDescription g = small_gpu();
  EXPECT_EQ(gpuwcet::kernel_wcet(g, small_block(), 0, w), Status::invalid_argument);
  g.sm_count = 0;
  EXPECT_EQ(gpuwcet::kernel_wcet(g, small_block(), 1, w), Status::invalid_argument);
  g = small_gpu();
  g.max_blocks_per_sm = g.max_threads_per_sm = g.max_warps_per_sm = 0;
  EXPECT_EQ(gpuwcet::kernel_wcet(g, small_block(), 1, w), Status::invalid_argument);
  g = small_gpu();
  BlockTiming b = small_block();
  b.interference_cycles = ~std::uint64_t{0};
  EXPECT_EQ(gpuwcet::kernel_wcet(g, b, 100, w), Status::overflow);
  b = small_block();
  b.alone_bound = ~std::uint64_t{0} / 2;
  g.clock_khz = 0;
  EXPECT_EQ(gpuwcet::kernel_wcet(g, b, 1, w), Status::ok);  // fits, but no nanoseconds:
  g.clock_khz = 1000;
  EXPECT_EQ(gpuwcet::kernel_wcet(g, b, 1, w), Status::overflow);
}

// ceil(cycles * 10^6 / kHz) nanoseconds, computed without the product, so
// that a bound whose nanoseconds fit is never an overflow: 2^50 cycles at
// 1 GHz (10^6 kHz) are 2^50 ns, while 2^50 * 10^6 passes 64 bits. Rounded
// up: one cycle at 3 kHz is 333,333.3 ns.
TEST(KernelWcet, NanosecondsRoundUpAndFitWhereverTheirValueDoes) {
  KernelWcet w;
  GpuDescription g = small_gpu();
  BlockTiming b = small_block();
  b.alone_bound = (std::uint64_t{1} << 50) - g.dispatch_delay;  // one block: d + B_1
  g.clock_khz = 1000000;
  ASSERT_EQ(gpuwcet::kernel_wcet(g, b, 1, w), Status::ok);
  EXPECT_EQ(w.cycles, std::uint64_t{1} << 50);
  EXPECT_EQ(w.nanoseconds, std::uint64_t{1} << 50);
  b.alone_bound = 1;
  g.dispatch_delay = 0;
  g.clock_khz = 3;
  ASSERT_EQ(gpuwcet::kernel_wcet(g, b, 1, w), Status::ok);
  EXPECT_EQ(w.cycles, 1u);
  EXPECT_EQ(w.nanoseconds, 333334u);
  // A clock above 1.8e13 kHz (the C++ field is 64-bit): (cycles mod kHz) *
  // 10^6 cannot be formed, and the fraction is bounded by 10^6 ns from
  // above. 2^45 cycles at 2^50 kHz are 31,250 ns.
  b.alone_bound = std::uint64_t{1} << 45;
  g.clock_khz = std::uint64_t{1} << 50;
  ASSERT_EQ(gpuwcet::kernel_wcet(g, b, 1, w), Status::ok);
  EXPECT_EQ(w.cycles, std::uint64_t{1} << 45);
  EXPECT_EQ(w.nanoseconds, 1000000u);
}

// Without a register limit, a register demand beyond 64 bits is no
// overflow: nothing limits by it.
TEST(KernelWcet, RegistersCountOnlyAgainstALimit) {
  std::uint32_t k = 0;
  GpuDescription g = small_gpu();
  BlockTiming b = small_block();
  // Two warps of 2^32 - 2 threads with 2^32 - 1 registers each: the
  // block's registers pass 2^64.
  g.warp_size = 0xFFFFFFFEu;
  b.block_threads = 0xFFFFFFFFu;
  b.registers_per_thread = 0xFFFFFFFFu;
  g.max_blocks_per_sm = 1;
  g.max_threads_per_sm = 0;  // two whole warps: 2^33 - 4 thread slots
  g.max_warps_per_sm = 0;
  g.registers_per_sm = 0;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 1u);
  g.registers_per_sm = 0xFFFFFFFFu;  // now it limits, and nothing fits
  EXPECT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::launch_does_not_fit);
}

// The SM's allocation rules, by hand from NVIDIA's occupancy calculator
// (cuda_occupancy.h: cudaOccMaxBlocksPerSMRegsLimit, ...WarpsLimit and
// ...SmemLimit), on an A100-like SM (docs/kernel-wcet.md, "Notation: k").
TEST(KernelWcet, ResidencyFollowsTheSmAllocationRules) {
  std::uint32_t k = 0;
  GpuDescription g;
  g.sm_count = 108;
  g.max_blocks_per_sm = 32;
  g.max_warps_per_sm = 64;
  g.registers_per_sm = 65536;
  g.register_alloc_unit = 256;
  BlockTiming b;
  b.block_threads = 32;
  b.registers_per_thread = 200;  // 6400 per warp
  // One register file: 65536 / 6400 = 10 warps. Four partitions of 16384:
  // 2 warps each, 8 in all.
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 10u);
  g.register_partitions = 4;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 8u);
  // A warp larger than a partition's registers: nothing fits.
  b.registers_per_thread = 255;
  g.registers_per_sm = 4 * 8000;  // 8000 per partition < 8192 per warp
  EXPECT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::launch_does_not_fit);

  // Threads in whole warps: 80 threads hold 3 warps, 96 thread slots;
  // 2048 / 96 = 21 blocks (2048 / 80 would be 25).
  g = GpuDescription{};
  g.sm_count = 1;
  g.max_threads_per_sm = 2048;
  b = BlockTiming{};
  b.block_threads = 80;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 21u);

  // Shared memory: 32 KiB + 1 KiB reserved, in 128-byte units, from a
  // 164 KiB carveout: 167936 / 33792 = 4 (without the reserve 5).
  g.max_threads_per_sm = 2048;
  g.shared_memory_per_sm = 164 * 1024;
  b.block_threads = 64;
  b.shared_memory_per_block = 32 * 1024;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 5u);
  g.shared_memory_reserved_per_block = 1024;
  g.shared_memory_alloc_unit = 128;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 4u);
  // 100 bytes take a unit of 128, plus the reserve: 1152 per block,
  // 167936 / 1152 = 145.
  b.shared_memory_per_block = 100;
  g.max_threads_per_sm = 0;
  g.max_blocks_per_sm = 1000;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 145u);
  // The reserve counts for a block that declares no shared memory.
  b.shared_memory_per_block = 0;
  ASSERT_EQ(gpuwcet::blocks_per_sm(g, b, k), Status::ok);
  EXPECT_EQ(k, 164u);
}

// blocks_per_sm against a constructive count: blocks are placed one by
// one, each warp into a register partition with room, until one does not
// fit. Random SMs and blocks, small enough to place.
TEST(KernelWcet, ResidencyEqualsPlacingBlocksOneByOne) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(20261125));
  const auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
    return static_cast<std::uint32_t>(std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng));
  };
  for (int round = 0; round < 5000; ++round) {
    GpuDescription g;
    g.sm_count = 1;
    g.warp_size = pick(1, 4) * 8;
    g.max_blocks_per_sm = pick(1, 40);
    g.max_threads_per_sm = pick(0, 1) * pick(1, 3000);
    g.max_warps_per_sm = pick(0, 1) * pick(1, 80);
    g.registers_per_sm = pick(0, 1) * pick(1, 70000);
    g.register_alloc_unit = pick(0, 1) * pick(1, 300);
    g.register_partitions = pick(0, 4);
    g.shared_memory_per_sm = pick(0, 1) * pick(1, 200000);
    g.shared_memory_alloc_unit = pick(0, 1) * pick(1, 512);
    g.shared_memory_reserved_per_block = pick(0, 1) * pick(1, 2048);
    BlockTiming b;
    b.block_threads = pick(1, 1024);
    b.registers_per_thread = pick(0, 255);
    b.shared_memory_per_block = pick(0, 1) * pick(1, 60000);

    const std::uint32_t warps = (b.block_threads + g.warp_size - 1) / g.warp_size;
    const std::uint32_t parts = g.register_partitions == 0 ? 1 : g.register_partitions;
    const std::uint32_t unit = g.register_alloc_unit == 0 ? 1 : g.register_alloc_unit;
    const std::uint64_t warp_regs =
        (std::uint64_t{b.registers_per_thread} * g.warp_size + unit - 1) / unit * unit;
    const std::uint32_t smem_unit = g.shared_memory_alloc_unit == 0 ? 1 : g.shared_memory_alloc_unit;
    const std::uint64_t block_smem =
        (std::uint64_t{b.shared_memory_per_block} + g.shared_memory_reserved_per_block + smem_unit - 1) /
        smem_unit * smem_unit;
    std::vector<std::uint64_t> free_regs(parts, g.registers_per_sm / parts);
    std::uint64_t threads = 0, warps_used = 0, smem = 0;
    std::uint32_t placed = 0;
    for (;;) {
      if (placed == g.max_blocks_per_sm) break;
      if (g.max_threads_per_sm != 0 && threads + warps * g.warp_size > g.max_threads_per_sm) break;
      if (g.max_warps_per_sm != 0 && warps_used + warps > g.max_warps_per_sm) break;
      if (g.shared_memory_per_sm != 0 && smem + block_smem > g.shared_memory_per_sm) break;
      std::vector<std::uint64_t> regs = free_regs;
      bool fits = true;
      if (g.registers_per_sm != 0 && warp_regs != 0) {
        for (std::uint32_t w = 0; w < warps && fits; ++w) {
          // The partition with the most room; any with room gives the same count.
          auto most = std::max_element(regs.begin(), regs.end());
          if (*most < warp_regs) fits = false;
          else *most -= warp_regs;
        }
      }
      if (!fits) break;
      free_regs = regs;
      threads += warps * g.warp_size;
      warps_used += warps;
      smem += block_smem;
      ++placed;
    }
    std::uint32_t k = 0;
    const Status st = gpuwcet::blocks_per_sm(g, b, k);
    if (placed == 0) {
      EXPECT_EQ(st, Status::launch_does_not_fit) << "round " << round;
    } else {
      ASSERT_EQ(st, Status::ok) << "round " << round;
      EXPECT_EQ(k, placed) << "round " << round;
    }
  }
}

// Hand computation, docs/kernel-wcet.md "Worked example": k = 2, P = 4,
// d = 3, B_1 = 25, E = 20.
TEST(KernelWcet, HandComputation) {
  KernelWcet w;
  // G = 4 <= P: d + B_1 + (min(k, G) - 1) E = 3 + 25 + 20 = 48.
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), small_block(), 4, w), Status::ok);
  EXPECT_EQ(w.blocks_per_sm, 2u);
  EXPECT_EQ(w.resident_blocks, 4u);
  EXPECT_EQ(w.rounds, 1u);
  EXPECT_EQ(w.block_bound_shared, 45u);
  EXPECT_EQ(w.cycles, 48u);
  EXPECT_EQ(w.nanoseconds, 48000u);  // 1 MHz: 1 us per cycle
  // G = 1: a block alone, 3 + 25.
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), small_block(), 1, w), Status::ok);
  EXPECT_EQ(w.cycles, 28u);
  // G = 10 > P (Thm. 1): W' = 9 * 28 + (2 - 1) * 10 * 20 = 452,
  // ceil(452 / 4) = 113, plus d + B_1 + (k - 1) E = 48: 161.
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), small_block(), 10, w), Status::ok);
  EXPECT_EQ(w.rounds, 3u);
  EXPECT_EQ(w.rounds_estimate, 144u);  // 3 * (3 + 45), synchronous rounds
  EXPECT_EQ(w.cycles, 161u);
  EXPECT_EQ(w.nanoseconds, 161000u);
  // k = 1 (Thm. 2): DS (d + B_1) = 5 * 28 = 140 beats Thm. 1's 126 + 28 = 154.
  GpuDescription one = small_gpu();
  one.max_blocks_per_sm = 1;
  ASSERT_EQ(gpuwcet::kernel_wcet(one, small_block(), 10, w), Status::ok);
  EXPECT_EQ(w.rounds, 5u);
  EXPECT_EQ(w.cycles, 140u);
}

// A block whose bound alone (B_1 = 25) is below the base of its bound beside
// other blocks (B_S = 31, as a one-warp block's time alone is below its
// section lengths): hand computations with k = 2, P = 4, d = 3, E = 20.
TEST(KernelWcet, BoundAloneOnlyWhereNoBlockSharesTheSm) {
  BlockTiming b = small_block();
  b.co_resident_bound = 31;
  KernelWcet w;
  // G = 1: alone, d + B_1 = 28.
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), b, 1, w), Status::ok);
  EXPECT_EQ(w.block_bound_shared, 25u);
  EXPECT_EQ(w.cycles, 28u);
  // G = 4 <= P: two blocks may share an SM: d + B_S + E = 3 + 31 + 20.
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), b, 4, w), Status::ok);
  EXPECT_EQ(w.block_bound_shared, 51u);
  EXPECT_EQ(w.cycles, 54u);
  // G = 10 > P (Thm. 1 with B_S): W' = 9 * 34 + 10 * 20 = 506,
  // ceil(506 / 4) = 127, plus d + B_S + E = 54: 181.
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), b, 10, w), Status::ok);
  EXPECT_EQ(w.cycles, 181u);
  // k = 1: no block ever shares, B_1 throughout: as HandComputation, 140.
  GpuDescription one = small_gpu();
  one.max_blocks_per_sm = 1;
  ASSERT_EQ(gpuwcet::kernel_wcet(one, b, 10, w), Status::ok);
  EXPECT_EQ(w.cycles, 140u);
  // B_S below B_1 is read as B_1 (0, the default, means "as B_1").
  b.co_resident_bound = 7;
  KernelWcet same;
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), b, 10, w), Status::ok);
  ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), small_block(), 10, same), Status::ok);
  EXPECT_EQ(w.cycles, same.cycles);
}

TEST(KernelWcet, MoreBlocksNeverLessTime) {
  BlockTiming tighter_alone = small_block();
  tighter_alone.co_resident_bound = 40;
  for (const BlockTiming& block : {small_block(), tighter_alone}) {
    for (std::uint32_t sms : {1u, 2u, 7u}) {
      for (std::uint32_t max_blocks : {1u, 2u, 3u, 8u}) {
        for (std::uint64_t d : {0u, 5u}) {
          GpuDescription g = small_gpu();
          g.sm_count = sms;
          g.max_blocks_per_sm = max_blocks;
          g.registers_per_sm = 0;
          g.dispatch_delay = d;
          std::uint64_t previous = 0;
          for (std::uint64_t grid = 1; grid <= 300; ++grid) {
            KernelWcet w;
            ASSERT_EQ(gpuwcet::kernel_wcet(g, block, grid, w), Status::ok);
            EXPECT_GE(w.cycles, previous) << "sms " << sms << " k " << max_blocks << " G " << grid;
            // Never below what the blocks need even with perfect packing.
            EXPECT_GE(w.cycles, w.rounds * block.alone_bound);
            previous = w.cycles;
          }
        }
      }
    }
  }
}

TEST(KernelWcet, LongerBlocksNeverLessTime) {
  KernelWcet a;
  KernelWcet b;
  BlockTiming slow = small_block();
  for (std::uint64_t grid : {1u, 4u, 5u, 64u}) {
    slow = small_block();
    ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), slow, grid, a), Status::ok);
    slow.alone_bound += 7;
    ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), slow, grid, b), Status::ok);
    EXPECT_GT(b.cycles, a.cycles);
    slow.interference_cycles += 7;
    ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), slow, grid, a), Status::ok);
    EXPECT_GE(a.cycles, b.cycles);
    slow.co_resident_bound = slow.alone_bound + 9;
    ASSERT_EQ(gpuwcet::kernel_wcet(small_gpu(), slow, grid, b), Status::ok);
    EXPECT_GE(b.cycles, a.cycles);
  }
}

}  // namespace
