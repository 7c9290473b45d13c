// Blocks that share an SM (docs/kernel-wcet.md). The simulator runs several
// blocks at once, each passing its own barriers and starting when it is
// dispatched (BlockSimulationOptions::block_of, resident_blocks,
// block_delay); against it: assumption A1 (a block lasts at most B_S plus
// the E of each block beside it) and the kernel bound of Thm. 0-2, with B_1,
// B_S and E as `gpuwcet compile` stores them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "case_count.hpp"
#include "every_choice.hpp"
#include "gpuwcet/kernel_wcet.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet/profile.hpp"
#include "gpuwcet_tools/block_generator.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/profile_writer.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "hand_blocks.hpp"
#include "random_blocks.hpp"
#include "scratch_folder.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

using ::gpuwcet::testing::case_count;
using ::gpuwcet::testing::test_seed;
using testing::Block;
using testing::BlockSizes;
constexpr std::size_t kRegisters = testing::kRandomBlockRegisters;

constexpr SchedulerPolicy kPolicies[] = {
    SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin, SchedulerPolicy::random,
    SchedulerPolicy::defer_holds, SchedulerPolicy::defer_holds_balanced};

// B_S and E of a block from its warps' section summaries, as the profile
// keeps them (docs/kernel-wcet.md, "Notation"): per section, a warp's
// length and its demand (issues plus the blocking cycles it holds on every
// resource); B_S = sum over sections of max_w (length_w + sum_{v != w}
// demand_v), E = the sum of every demand. Written here from the document,
// not taken from the profile's code.
struct Share {
  std::uint64_t alone_with_others = 0;  // B_S
  std::uint64_t interference = 0;       // E
};

Share share_of(const HardwareDescription& hw, const Block& block) {
  std::vector<std::vector<SectionSummary>> warps;
  for (const auto& code : block) {
    std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
    std::vector<SectionSummary> s(code.size() + 1);
    ProfileResult r{};
    EXPECT_EQ(profile_warp(hw, code, kRegisters, arena, {}, s, r), Status::ok);
    s.resize(r.section_count);
    warps.push_back(s);
  }
  Share out;
  for (std::size_t section = 0; section < warps[0].size(); ++section) {
    std::uint64_t total = 0;
    std::vector<std::uint64_t> demand;
    for (const auto& w : warps) {
      std::uint64_t d = w[section].issues;
      for (std::uint64_t h : w[section].held) d += h;
      demand.push_back(d);
      total += d;
    }
    std::uint64_t worst = 0;
    for (std::size_t w = 0; w < warps.size(); ++w) {
      worst = std::max(worst, warps[w][section].length + total - demand[w]);
    }
    out.alone_with_others += worst;
    out.interference += total;
  }
  return out;
}

// What A1 allows each of blocks sharing an SM: its B_S plus the E of every
// other one.
std::vector<std::uint64_t> a1_bounds(const std::vector<Share>& shares) {
  std::uint64_t all = 0;
  for (const Share& s : shares) all += s.interference;
  std::vector<std::uint64_t> out;
  for (const Share& s : shares) out.push_back(s.alone_with_others + all - s.interference);
  return out;
}

// The warps of `blocks`, one after the other, and each one's block.
struct Sm {
  Block warps;
  std::vector<std::uint32_t> block_of;
};

Sm sm_of(const std::vector<Block>& blocks) {
  Sm sm;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    for (const auto& w : blocks[b]) {
      sm.warps.push_back(w);
      sm.block_of.push_back(static_cast<std::uint32_t>(b));
    }
  }
  return sm;
}

// Block b's end: its last warp's last result written.
std::vector<std::uint64_t> block_ends(const BlockSimulation& sim, const Sm& sm, std::size_t blocks) {
  std::vector<std::uint64_t> end(blocks, 0);
  for (std::size_t w = 0; w < sm.warps.size(); ++w) {
    end[sm.block_of[w]] = std::max(end[sm.block_of[w]], sim.warp_end[w]);
  }
  return end;
}

// Every warp in block 0, through the blocks' bookkeeping, runs as the
// one-block machine does; and without barriers, blocks that all start at s
// run as one block launched s cycles later (barriers are all that tells
// blocks apart). The blocks' path is then checked where the oracle-checked
// one-block path holds.
TEST(CoResidentBlocks, OneBlockRunsAsWithoutBlocks) {
  std::mt19937_64 rng(test_seed(2034));
  int split = 0;  // runs compared with the warps split into blocks
  for (int n = 0; n < case_count(1000); ++n) {
    HardwareDescription hw = testing::collector_hw(rng, 3);
    const Block block = testing::random_block(rng, hw, n % 2, BlockSizes{1, 8, 1, 24});
    const bool barriers = std::any_of(block[0].begin(), block[0].end(),
                                      [](const Instruction& i) { return i.kind == OpKind::barrier; });
    for (const bool drain : {true, false}) {
      for (const bool issue : {false, true}) {
        if (issue && !barrier_slot_covered(hw)) continue;
        for (const SchedulerPolicy policy : kPolicies) {
          BlockSimulationOptions so;
          so.policy = policy;
          so.seed = rng();
          so.collector_pick = rng() % 2 == 0 ? CollectorPick::round_robin : CollectorPick::random;
          so.collector_seed = rng();
          so.barriers_drain = drain;
          so.barrier_issues = issue;
          const BlockSimulation one = simulate_block(hw, block, kRegisters, so);
          BlockSimulationOptions grouped = so;
          grouped.block_of.assign(block.size(), 0);
          const BlockSimulation same = simulate_block(hw, block, kRegisters, grouped);
          ASSERT_EQ(same.cycles, one.cycles) << n;
          ASSERT_EQ(same.warp_end, one.warp_end) << n;
          ASSERT_EQ(same.releases, one.releases) << n;
          ASSERT_EQ(same.trace.size(), one.trace.size()) << n;
          for (std::size_t k = 0; k < one.trace.size(); ++k) {
            ASSERT_EQ(same.trace[k].warp, one.trace[k].warp) << n << " issue " << k;
            ASSERT_EQ(same.trace[k].cycle, one.trace[k].cycle) << n << " issue " << k;
            ASSERT_EQ(same.trace[k].dispatch, one.trace[k].dispatch) << n << " issue " << k;
          }
          if (barriers) continue;
          const std::uint64_t s = rng() % 20;
          HardwareDescription later = hw;
          later.launch_delay += static_cast<std::uint32_t>(s);
          const BlockSimulation launched = simulate_block(later, block, kRegisters, so);
          BlockSimulationOptions parts_of = so;
          // Every part gets a warp: the first ones, in turn.
          const auto parts = static_cast<std::uint32_t>(std::min<std::size_t>(1 + rng() % 3, block.size()));
          for (std::size_t w = 0; w < block.size(); ++w) {
            parts_of.block_of.push_back(static_cast<std::uint32_t>(w < parts ? w : rng() % parts));
          }
          parts_of.block_delay.assign(parts, s);
          const BlockSimulation apart = simulate_block(hw, block, kRegisters, parts_of);
          ASSERT_EQ(apart.cycles, launched.cycles) << n;
          ASSERT_EQ(apart.warp_end, launched.warp_end) << n;
          ++split;
        }
      }
    }
  }
  EXPECT_GT(split, case_count(1000));  // a sixth of the blocks have no barrier, times 10 runs
}

// A block waits at its own barriers only: two one-warp blocks, each `U; bar;
// U` on a unit of initiation 1 and latency 1 (the paper's pipeline,
// barrier_delay 2), the second dispatched 10 cycles after the first. Worked
// by hand: block 0 issues U at 0 (written at 2), is released at 2 + 2 = 4,
// issues U at 4, written at 6. Block 1 does the same from 10: ends at 16.
// As one block started at 10, the warps issue U at 10 and 11 (written at 12
// and 13), are released together at 15 and issue U at 15 and 16: 18. With
// one block at a time, block 1 starts 10 cycles after block 0 ends at 6:
// it ends at 16 + 6 = 22.
TEST(CoResidentBlocks, EachBlockPassesItsOwnBarriers) {
  const HardwareDescription hw = testing::one_unit_barrier_machine();
  const std::vector<Instruction> code = testing::u_bar_u();
  BlockSimulationOptions so;
  so.block_of = {0, 1};
  so.block_delay = {0, 10};
  const BlockSimulation sim = simulate_block(hw, {code, code}, 1, so);
  EXPECT_EQ(sim.warp_end, (std::vector<std::uint64_t>{6, 16}));
  EXPECT_EQ(sim.releases, (std::vector<std::uint64_t>{4}));  // block 0's
  so.block_of = {0, 0};
  so.block_delay = {10};
  EXPECT_EQ(simulate_block(hw, {code, code}, 1, so).cycles, 18u);
  so.block_of = {0, 1};
  so.block_delay = {0, 10};
  so.resident_blocks = 1;
  EXPECT_EQ(simulate_block(hw, {code, code}, 1, so).warp_end, (std::vector<std::uint64_t>{6, 22}));
  so.block_delay = {0};
  EXPECT_THROW(simulate_block(hw, {code, code}, 1, so), std::invalid_argument);
  so.block_of = {0};
  EXPECT_THROW(simulate_block(hw, {code, code}, 1, so), std::invalid_argument);
  so.block_of = {0, 2};  // block 1 has no warp: it would free a slot at once
  so.block_delay = {0, 0, 0};
  EXPECT_THROW(simulate_block(hw, {code, code}, 1, so), std::invalid_argument);
  so.block_of = {0, 1u << 30};
  EXPECT_THROW(simulate_block(hw, {code, code}, 1, so), std::invalid_argument);
  so.block_of.clear();
  so.block_delay.clear();
  EXPECT_THROW(simulate_block(hw, {code, code}, 1, so), std::invalid_argument);  // resident_blocks alone
}

// A1 on random machines: 2-4 blocks of 1-4 warps, each with its own code
// and 0-2 barriers, dispatched within d = 0-40 cycles of each other, every
// policy and both barrier machines: each block ends within B_S + the E of
// every other block of its start.
TEST(CoResidentBlocks, EachBlockWithinItsShareOfTheSm) {
  std::mt19937_64 rng(test_seed(2035));
  int shared = 0;  // runs in which some block outlasted its bound alone
  for (int n = 0; n < case_count(3000); ++n) {
    const HardwareDescription hw = testing::collector_hw(rng, 3);
    const std::size_t k = 2 + rng() % 3;
    std::vector<Block> blocks;
    std::vector<Share> shares;
    for (std::size_t b = 0; b < k; ++b) {
      blocks.push_back(testing::random_block(rng, hw, 0, BlockSizes{1, 4, 1, 24}));
      shares.push_back(share_of(hw, blocks.back()));
    }
    const std::vector<std::uint64_t> allowed = a1_bounds(shares);
    const Sm sm = sm_of(blocks);
    const std::uint64_t d = rng() % 41;
    for (const bool drain : {true, false}) {
      for (const SchedulerPolicy policy : kPolicies) {
        BlockSimulationOptions so;
        so.policy = policy;
        so.seed = rng();
        so.record_trace = false;
        so.barriers_drain = drain;
        so.barrier_issues = barrier_slot_covered(hw) && rng() % 2 == 0;
        so.collector_pick = rng() % 2 == 0 ? CollectorPick::round_robin : CollectorPick::random;
        so.collector_seed = rng();
        so.block_of = sm.block_of;
        for (std::size_t b = 0; b < k; ++b) so.block_delay.push_back(rng() % (d + 1));
        const BlockSimulation sim = simulate_block(hw, sm.warps, kRegisters, so);
        const std::vector<std::uint64_t> end = block_ends(sim, sm, k);
        for (std::size_t b = 0; b < k; ++b) {
          ASSERT_LE(end[b] - so.block_delay[b], allowed[b])
              << n << " block " << b << " of " << k << ", policy " << static_cast<int>(policy) << " drain "
              << drain;
          if (end[b] - so.block_delay[b] > shares[b].alone_with_others) ++shared;
        }
      }
    }
  }
  EXPECT_GT(shared, 0);  // the blocks do delay each other
  RecordProperty("shared", shared);
}

// A1 over every schedule: 2-3 small blocks (1-2 warps of 2-5 instructions,
// 0-1 barriers) started up to 6 cycles apart, every choice of issuing warp
// and of collector pick enumerated (up to 20,000 runs), both barrier
// machines: in every run each block ends within its share.
TEST(CoResidentBlocks, EveryScheduleOfSmallBlocksWithinTheirShare) {
  std::mt19937_64 rng(test_seed(2037));
  int complete = 0, cases = 0;
  int shared = 0;  // enumerations in which some block outlasted its B_S
  for (int n = 0; n < case_count(300); ++n) {
    const HardwareDescription hw = testing::collector_hw(rng, 3);
    const std::size_t k = 2 + rng() % 2;
    std::vector<Block> blocks;
    std::vector<Share> shares;
    for (std::size_t b = 0; b < k; ++b) {
      BlockGeneratorOptions o;
      o.warps = k == 3 ? 1 : 1 + rng() % 2;
      o.instructions = 2 + rng() % 4;
      o.barriers = rng() % 2;
      o.registers = 8;
      o.dependency = static_cast<double>(rng() % 10) / 10.0;
      o.max_extra_cycles = static_cast<std::uint8_t>(rng() % 2 == 0 ? 0 : rng() % 6);
      blocks.push_back(testing::with_branches(generate_block(hw, o, rng)));
      shares.push_back(share_of(hw, blocks.back()));
    }
    const std::vector<std::uint64_t> allowed = a1_bounds(shares);
    const Sm sm = sm_of(blocks);
    for (const bool drain : {true, false}) {
      ++cases;
      BlockSimulationOptions so;
      so.barriers_drain = drain;
      so.barrier_issues = barrier_slot_covered(hw) && rng() % 2 == 0;
      so.block_of = sm.block_of;
      for (std::size_t b = 0; b < k; ++b) so.block_delay.push_back(rng() % 7);
      bool within = true;
      bool beyond_own = false;
      const bool all = testing::every_choice(hw, sm.warps, kRegisters, so, 20000, [&](const BlockSimulation& sim) {
        const std::vector<std::uint64_t> end = block_ends(sim, sm, k);
        for (std::size_t b = 0; b < k; ++b) {
          if (end[b] - so.block_delay[b] > allowed[b]) within = false;
          if (end[b] - so.block_delay[b] > shares[b].alone_with_others) beyond_own = true;
        }
      });
      ASSERT_TRUE(within) << n << ": " << k << " blocks, drain " << drain;
      if (all) ++complete;
      if (beyond_own) ++shared;
    }
  }
  EXPECT_GT(complete, cases / 2) << complete << " of " << cases;
  EXPECT_GT(shared, 0);
  RecordProperty("complete", complete);
  RecordProperty("shared", shared);
}

// End to end: a trace of G blocks compiled as `gpuwcet compile` does
// (`block = "worst"`, A4), its B_1, B_S and E, and kernel_wcet for a grid of
// G blocks on one SM that holds k = 1-4 (Thm. 0 for G <= k, Thm. 1 and 2
// beyond): the bound covers every simulated run, the blocks dispatched in
// order into the slots as they free up, each up to d cycles late. On the
// presets' machines (orin-sm: collector units, barriers that issue and do
// not drain). Where all G blocks start at once, each also ends within
// B_S + (G - 1) E of its start (A1).
TEST(CoResidentBlocks, KernelBoundCoversEveryDispatch) {
  namespace fs = std::filesystem;
  const gpuwcet::testing::ScratchFolder scratch("gpuwcet_co_resident_blocks");
  const fs::path& dir = scratch.path();
  std::mt19937_64 rng(test_seed(2036));
  int beyond_one = 0;  // runs of k blocks at once longer than d + B_S
  int above_rounds = 0;  // runs longer than the synchronous-rounds estimate (recorded only)
  for (int n = 0; n < case_count(300); ++n) {
    const std::uint32_t latency = std::array<std::uint32_t, 3>{5, 50, 200}[n % 3];
    const std::string preset = n % 2 == 0 ? "orin-sm" : "rtx3070";
    const HardwareConfig hw = hardware_preset(preset, latency);
    const std::size_t k = 1 + rng() % 4;
    // Every slot filled at the launch (Thm. 0), or blocks left over.
    const std::size_t grid = (n / 3) % 2 == 0 ? k : k + 1 + rng() % (2 * k);
    const std::size_t warps = 1 + rng() % 4;  // A4: one block size per kernel
    TraceFile trace;
    trace.path = "generated";
    for (std::size_t b = 0; b < grid; ++b) {
      BlockGeneratorOptions o;
      o.warps = warps;
      o.instructions = 4 + rng() % 40;
      o.barriers = rng() % 3;
      o.dependency = 0.2 + 0.2 * static_cast<double>(rng() % 4);
      BlockTrace block;
      block.label = "block " + std::to_string(b);
      const Block code = generate_block(hw.hw, o, rng);
      for (std::size_t w = 0; w < warps; ++w) {
        block.warps.push_back({static_cast<std::uint32_t>(w), code[w], std::vector<std::uint32_t>(code[w].size(), 0)});
      }
      trace.blocks.push_back(block);
    }
    std::ofstream(dir / "t.trace") << write_native_trace(trace, hw.hw);
    std::ofstream(dir / "m.toml") << "[[kernel]]\nname = \"k\"\nblock_threads = " << 32 * warps
                                  << "\ntrace = \"t.trace\"\nhardware = \"" << preset
                                  << "\"\nmemory_latency = " << latency << "\nblock = \"worst\"\n";
    const auto blob = write_profile(load_manifest((dir / "m.toml").string()));
    Profile profile;
    ASSERT_EQ(open_profile(gsl::span<const std::uint8_t>(blob.data(), blob.size()), profile), Status::ok);
    BlockTiming timing;
    ASSERT_EQ(block_timing(profile.kernel(0), timing), Status::ok);
    GpuDescription gpu;
    gpu.sm_count = 1;
    gpu.max_blocks_per_sm = static_cast<std::uint32_t>(k);
    gpu.dispatch_delay = rng() % 41;
    KernelWcet bound;
    ASSERT_EQ(kernel_wcet(gpu, timing, grid, bound), Status::ok);
    ASSERT_EQ(bound.blocks_per_sm, k);

    // The trace as read back is what was compiled.
    const TraceFile read = read_trace((dir / "t.trace").string(), TraceFormat::native, hw);
    std::vector<Block> codes;
    for (const auto& b : read.blocks) {
      codes.emplace_back();
      for (const auto& w : b.warps) codes.back().push_back(w.code);
    }
    const Sm sm = sm_of(codes);
    for (const SchedulerPolicy policy : kPolicies) {
      BlockSimulationOptions so;
      so.policy = policy;
      so.seed = rng();
      so.record_trace = false;
      so.barriers_drain = hw.barriers_drain;
      so.barrier_issues = hw.barrier_issues;
      so.block_of = sm.block_of;
      so.resident_blocks = k;
      for (std::size_t b = 0; b < grid; ++b) so.block_delay.push_back(rng() % (gpu.dispatch_delay + 1));
      const BlockSimulation sim = simulate_block(hw.hw, sm.warps, read.register_count, so);
      ASSERT_LE(sim.cycles, bound.cycles) << n << ": " << grid << " blocks of " << warps << " warps, " << k
                                          << " at once on " << preset << ", policy " << static_cast<int>(policy);
      if (sim.cycles > bound.rounds_estimate) ++above_rounds;
      if (grid > k) continue;
      if (grid > 1 && sim.cycles > gpu.dispatch_delay + timing.co_resident_bound) ++beyond_one;
      const std::vector<std::uint64_t> end = block_ends(sim, sm, grid);
      for (std::size_t b = 0; b < grid; ++b) {
        ASSERT_LE(end[b] - so.block_delay[b], timing.co_resident_bound + (grid - 1) * timing.interference_cycles)
            << n << " block " << b;
      }
    }
  }
  // Runs that need the co-resident term (12 with the fixed seed: dropping
  // it from kernel_wcet fails the test), and runs above the synchronous
  // estimate (none). Too rare to require under every seed; the A1 tests
  // show the term is needed.
  RecordProperty("beyond_one_block", beyond_one);
  RecordProperty("above_rounds_estimate", above_rounds);
}

}  // namespace
}  // namespace gpuwcet::tools
