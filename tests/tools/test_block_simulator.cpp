// The reference block simulator against the multi-phase analysis: one warp
// agrees with Algorithm 1 cycle for cycle; no simulated schedule of a block
// exceeds the General Upper Bound or the tighter bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "block_bounds_of.hpp"
#include "case_count.hpp"
#include "hand_blocks.hpp"
#include "block_schedule_oracle.hpp"
#include "random_blocks.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_generator.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

using ::gpuwcet::testing::case_count;

using testing::Block;
using testing::random_block;
using testing::random_hw;
using testing::tiny_block;
using testing::with_branches;
constexpr std::size_t kRegisters = testing::kRandomBlockRegisters;

struct WarpProfile {
  ProfileResult result;
  std::vector<Phase> phases;
  std::vector<SectionSummary> sections;
};

WarpProfile profile(const HardwareDescription& hw, const std::vector<Instruction>& code) {
  WarpProfile p;
  std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
  p.phases.resize(code.size() * 2 + 4);
  p.sections.resize(code.size() + 1);
  EXPECT_EQ(profile_warp(hw, code, kRegisters, arena, p.phases, p.sections, p.result), Status::ok);
  p.phases.resize(p.result.phase_count);
  p.sections.resize(p.result.section_count);
  return p;
}

BlockBound bound(const HardwareDescription& hw, const std::vector<std::vector<Instruction>>& block) {
  return testing::block_bounds_of(hw, block, kRegisters);
}

// The three schedulers, and the two stress schedules that defer the
// instructions that hold a pipeline.
constexpr SchedulerPolicy kPolicies[] = {
    SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin, SchedulerPolicy::random,
    SchedulerPolicy::defer_holds, SchedulerPolicy::defer_holds_balanced};

// One simulated run of `policy` (a fresh seed from rng), no trace recorded.
BlockSimulationOptions run_of(SchedulerPolicy policy, std::mt19937_64& rng) {
  BlockSimulationOptions so;
  so.policy = policy;
  so.seed = rng();
  so.record_trace = false;
  return so;
}

// The paper's pipeline with units of these (initiation, latency).
HardwareDescription paper_units(std::initializer_list<std::pair<std::uint32_t, std::uint32_t>> units) {
  HardwareDescription hw;
  for (const auto& [initiation, latency] : units) {
    hw.units[hw.unit_count].initiation = initiation;
    hw.units[hw.unit_count].latency = latency;
    ++hw.unit_count;
  }
  return hw;
}

TEST(BlockSimulator, Example3SingleWarp) {
  const HardwareDescription hw = paper_units({{2, 6}, {3, 4}, {2, 4}});
  std::vector<Instruction> code(5);
  code[0].dst_count = 1;
  code[0].dst[0] = 0;
  code[1].unit = 1;
  code[2].unit = 1;
  code[3].unit = 2;
  code[3].src_count = 1;
  code[3].src[0] = 0;
  code[4].kind = OpKind::exit;
  const BlockSimulation sim = simulate_block(hw, {code}, kRegisters, {});
  EXPECT_EQ(sim.cycles, 14u);
  ASSERT_EQ(sim.trace.size(), 4u);
  EXPECT_EQ(sim.trace[1].cycle, 1u);
  EXPECT_EQ(sim.trace[2].cycle, 4u);
  EXPECT_EQ(sim.trace[3].cycle, 8u);
}

TEST(BlockSimulator, SingleWarpAgreesWithAlgorithm1) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(7));
  for (int n = 0; n < 400; ++n) {
    // Issue-order service: one schedule, equal to Algorithm 1.
    auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 396));
    hw.collector_units = 0;
    BlockGeneratorOptions o;
    o.warps = 1;
    o.instructions = 1 + rng() % 60;
    o.barriers = rng() % 3;
    o.registers = kRegisters;
    o.dependency = 0.2 + 0.7 * static_cast<double>(rng() % 8) / 8.0;
    const auto block = with_branches(generate_block(hw, o, rng));
    const WarpProfile p = profile(hw, block[0]);
    const BlockSimulation sim = simulate_block(hw, block, kRegisters, {});
    ASSERT_EQ(sim.cycles, p.result.total_cycles) << n;
    const std::vector<Phase> simulated = simulated_phases(hw, block[0], sim, 0);
    ASSERT_EQ(simulated.size(), p.phases.size()) << n;
    for (std::size_t i = 0; i < simulated.size(); ++i) {
      EXPECT_EQ(simulated[i].start, p.phases[i].start) << n << " phase " << i;
      EXPECT_EQ(simulated[i].length, p.phases[i].length) << n << " phase " << i;
      EXPECT_EQ(simulated[i].kind, p.phases[i].kind) << n << " phase " << i;
      EXPECT_EQ(simulated[i].section, p.phases[i].section) << n << " phase " << i;
    }
  }
}

TEST(BlockSimulator, BarrierWaitsForEveryWarp) {
  HardwareDescription hw;
  hw.unit_count = 1;
  hw.units[0].latency = 10;
  std::vector<Instruction> slow(3), fast(2);
  slow[0].dst_count = 1;
  slow[1].kind = OpKind::barrier;
  slow[2].dst_count = 0;
  fast[0].kind = OpKind::barrier;
  const BlockSimulation sim = simulate_block(hw, {slow, fast}, kRegisters, {});
  ASSERT_EQ(sim.releases.size(), 1u);
  EXPECT_EQ(sim.releases[0], 11u);
  EXPECT_EQ(sim.cycles, 11u + 1u + 11u);  // the two warps share unit 0 after the release
  EXPECT_THROW(simulate_block(hw, {slow, std::vector<Instruction>(1)}, kRegisters, {}),
               std::invalid_argument);
}

TEST(BlockSimulator, NoPolicyExceedsTheBounds) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(2025));
  int gub_violations = 0;
  for (int n = 0; n < case_count(3000); ++n) {
    const auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 396));
    const Block block = random_block(rng, hw, 0);
    const BlockBound b = bound(hw, block);
    for (SchedulerPolicy policy : kPolicies) {
      const BlockSimulation sim = simulate_block(hw, block, kRegisters, run_of(policy, rng));
      // With collector units a warp's profile bounds every service order: its
      // length is no lower bound then.
      if (hw.collector_units == 0) {
        ASSERT_LE(b.lower_bound, sim.cycles) << n;
      }
      ASSERT_LE(sim.cycles, b.safe_upper_bound) << n << " policy " << static_cast<int>(policy);
      if (sim.cycles > b.general_upper_bound) ++gub_violations;
    }
  }
  // The paper's GUB is not a safe bound on this machine (see the test below);
  // on these blocks it is rarely exceeded. Reported, not asserted.
  RecordProperty("gub_violations", gub_violations);
}

// The readers give stores no destination, but the core's API takes stores
// that write registers: a drain once ignored their results past the window
// of followed queued instructions (found by an adversarial review;
// CollectorAnyOrder.StoreWritingARegisterPastTheWindowIsDrained). Long
// blocks of 1-4 warps on descriptions with queued units and collector units,
// every third load or compute with a destination turned into a store that
// keeps it: every policy, three pick rules, both barrier machines.
TEST(BlockSimulator, StoresThatWriteRegistersStayWithinTheBounds) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(4711));
  int stores = 0;
  for (int n = 0; n < case_count(300); ++n) {
    const auto hw = testing::collector_hw(rng, 3);
    Block block = random_block(rng, hw, 0, {1, 4, 100, 300});
    for (auto& warp : block) {
      for (std::size_t i = 0; i < warp.size(); i += 3) {
        Instruction& ins = warp[i];
        if (ins.dst_count != 0 && (ins.kind == OpKind::load || ins.kind == OpKind::compute)) {
          ins.kind = OpKind::store;
          ++stores;
        }
      }
    }
    for (const bool drain : {true, false}) {
      const std::uint64_t limit = block.size() == 1
                                      ? testing::warp_alone(hw, block[0], kRegisters, drain)
                                      : bound(hw, block).safe_upper_bound;
      for (const SchedulerPolicy policy : kPolicies) {
        for (const CollectorPick pick :
             {CollectorPick::round_robin, CollectorPick::oldest, CollectorPick::newest}) {
          BlockSimulationOptions so = run_of(policy, rng);
          so.barriers_drain = drain;
          so.collector_pick = pick;
          ASSERT_LE(simulate_block(hw, block, kRegisters, so).cycles, limit)
              << n << " drain " << drain << " policy " << static_cast<int>(policy) << " pick "
              << static_cast<int>(pick);
        }
      }
    }
  }
  RecordProperty("stores_with_destinations", stores);
}

// Tiny blocks, every work-conserving schedule (tests/support oracle, an
// independent implementation of the machine): the exact worst case is at
// least every simulated policy and at most the safe bound. The random policy
// alone can miss adversarial schedules; the enumeration cannot.
TEST(BlockSimulator, ExhaustiveWorstCaseWithinSafeBound) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(31));
  int gub_violations = 0;
  int exact_at_safe = 0;
  int truncated = 0;
  for (int n = 0; n < 600; ++n) {
    // The oracle enumerates the machine that serves queued units in issue
    // order.
    auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 60));
    hw.collector_units = 0;
    const Block block = tiny_block(rng, hw, std::nullopt);
    const BlockBound b = bound(hw, block);
    gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters);
    const std::uint64_t worst = oracle.worst_case();
    // Cut short, the oracle's answer is a worst case found, not the worst:
    // still within the bound, but no longer above the policies.
    ASSERT_LE(worst, b.safe_upper_bound) << n;
    if (oracle.truncated()) {
      ++truncated;
      continue;
    }
    ASSERT_LE(b.lower_bound, worst) << n;
    if (worst > b.general_upper_bound) ++gub_violations;
    if (worst == b.safe_upper_bound) ++exact_at_safe;
    for (SchedulerPolicy policy : kPolicies) {
      ASSERT_LE(simulate_block(hw, block, kRegisters, run_of(policy, rng)).cycles, worst) << n;
    }
  }
  // None with the fixed seed; a rare block of another seed is too big.
  EXPECT_LE(truncated, 600 / 50);
  RecordProperty("gub_violations", gub_violations);
  RecordProperty("exact_at_safe", exact_at_safe);
}

// Barriers that do not drain (GPGPU-Sim's bar.sync: a warp passes with its
// results pending): the analysis' sections assume drained barriers, and its
// safe bound still covers this machine (docs/multiphase.md, "Barriers that do
// not drain"). The lower bound is for draining barriers only, so it is not
// checked here. Simulated policies on random blocks, then every schedule of
// tiny blocks (oracle, same switch).
TEST(BlockSimulator, SafeBoundCoversBarriersThatDoNotDrain) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(2026));
  int faster = 0;  // blocks the non-draining machine finished earlier
  for (int n = 0; n < 1500; ++n) {
    const auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 396));
    const Block block = random_block(rng, hw, 1);
    const BlockBound b = bound(hw, block);
    for (SchedulerPolicy policy : kPolicies) {
      BlockSimulationOptions so = run_of(policy, rng);
      const std::uint64_t drained = simulate_block(hw, block, kRegisters, so).cycles;
      so.barriers_drain = false;
      const std::uint64_t passing = simulate_block(hw, block, kRegisters, so).cycles;
      ASSERT_LE(passing, b.safe_upper_bound) << n << " policy " << static_cast<int>(policy);
      if (passing < drained) ++faster;
    }
  }
  EXPECT_GT(faster, 0);  // the switch changes the machine
  int truncated = 0;
  for (int n = 0; n < 300; ++n) {
    auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 60));
    hw.collector_units = 0;  // the oracle serves queued units in issue order
    const Block block = tiny_block(rng, hw, 1);
    gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters, false);
    const std::uint64_t worst = oracle.worst_case();
    ASSERT_LE(worst, bound(hw, block).safe_upper_bound) << n;
    if (oracle.truncated()) {  // a worst case found, not the worst
      ++truncated;
      continue;
    }
    BlockSimulationOptions so;
    so.barriers_drain = false;
    so.record_trace = false;
    ASSERT_LE(simulate_block(hw, block, kRegisters, so).cycles, worst) << n;
  }
  EXPECT_LE(truncated, 300 / 50);  // none with the fixed seed
}

// A barrier that takes an issue slot (GPGPU-Sim's bar.sync): the bound
// charges each other warp's barrier as one of its issues. Paper's pipeline,
// one unit U (initiation 1, latency 1), barrier_delay 2; three warps of
// `U; bar; U`. Worked by hand: alone, U issues at 0 and is written at 2, the
// barrier comes at the drain 2, the release 2 cycles later: section lengths
// 4 and 2. Each other warp issues U and its barrier, then U: the safe bound
// is (4 + 2 * 2) + (2 + 2 * 1) = 12 (10 without the barrier slots). GTO on
// the machine whose barriers issue and do not drain: U and bar of A at 0
// and 1, of B at 2 and 3, of C at 4 and 5; release 5 + 2 = 7; the last
// section's U at 7, 8, 9, the last written at 11. With draining barriers
// the release waits for C's U (written at 6): 8, the last result 12.
TEST(BlockSimulator, BarrierIssueSlotsAreCharged) {
  const HardwareDescription hw = testing::one_unit_barrier_machine();
  const std::vector<Instruction> code = testing::u_bar_u();
  const std::vector<std::vector<Instruction>> block{code, code, code};
  EXPECT_EQ(bound(hw, block).safe_upper_bound, 12u);
  BlockSimulationOptions so;
  so.barrier_issues = true;
  so.barriers_drain = false;
  EXPECT_EQ(simulate_block(hw, block, kRegisters, so).cycles, 11u);
  so.barriers_drain = true;
  EXPECT_EQ(simulate_block(hw, block, kRegisters, so).cycles, 12u);
}

// Random blocks on machines whose barriers take an issue slot, drained or
// not (barrier_delay >= 1, which covers the warp's own slot): no policy
// exceeds the safe bound.
TEST(BlockSimulator, SafeBoundCoversBarriersThatIssue) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(2027));
  int slower = 0;  // runs the barrier slots made slower
  for (int n = 0; n < case_count(1500); ++n) {
    auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 396));
    hw.barrier_delay = std::max<std::uint32_t>(hw.barrier_delay, hw.issue_interval);
    const Block block = random_block(rng, hw, 1);
    const BlockBound b = bound(hw, block);
    for (SchedulerPolicy policy : kPolicies) {
      for (const bool drain : {true, false}) {
        BlockSimulationOptions so = run_of(policy, rng);
        so.barriers_drain = drain;
        const std::uint64_t without = simulate_block(hw, block, kRegisters, so).cycles;
        so.barrier_issues = true;
        const std::uint64_t with = simulate_block(hw, block, kRegisters, so).cycles;
        ASSERT_LE(with, b.safe_upper_bound) << n << " policy " << static_cast<int>(policy);
        if (with > without) ++slower;
      }
    }
  }
  EXPECT_GT(slower, 0);  // the switch changes the machine
}

// warp_alone_cycles is the one-warp block's schedule, barriers drained or
// passed; passing is never slower, and draining gives profile_warp's total.
TEST(BlockSimulator, WarpAloneCyclesIsTheOneWarpSchedule) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(33));
  int passing_faster = 0;
  for (int n = 0; n < 500; ++n) {
    // Issue-order service: one schedule, equal to Algorithm 1.
    auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 396));
    hw.collector_units = 0;
    BlockGeneratorOptions o;
    o.warps = 1;
    o.instructions = 1 + rng() % 40;
    o.barriers = rng() % 4;
    o.registers = kRegisters;
    o.dependency = static_cast<double>(rng() % 10) / 10.0;
    o.max_extra_cycles = static_cast<std::uint8_t>(rng() % 2 == 0 ? 0 : rng() % 40);
    const auto block = with_branches(generate_block(hw, o, rng));
    std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
    std::uint64_t drained = 0, passing = 0;
    ASSERT_EQ(warp_alone_cycles(hw, block[0], kRegisters, arena, true, drained), Status::ok);
    ASSERT_EQ(warp_alone_cycles(hw, block[0], kRegisters, arena, false, passing), Status::ok);
    BlockSimulationOptions so;
    so.record_trace = false;
    EXPECT_EQ(simulate_block(hw, block, kRegisters, so).cycles, drained) << n;
    so.barriers_drain = false;
    EXPECT_EQ(simulate_block(hw, block, kRegisters, so).cycles, passing) << n;
    EXPECT_LE(passing, drained) << n;
    EXPECT_EQ(drained, bound(hw, block).safe_upper_bound) << n;
    if (passing < drained) ++passing_faster;
  }
  EXPECT_GT(passing_faster, 0);
}

// The oracle's machine is the simulator's: with one warp there is one schedule.
TEST(BlockSimulator, OracleAgreesWithSimulatorOnOneWarp) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(32));
  for (int n = 0; n < 300; ++n) {
    // Issue-order service: one schedule, equal to Algorithm 1.
    auto hw = random_hw(rng, 5 + static_cast<std::uint32_t>(rng() % 396));
    hw.collector_units = 0;
    BlockGeneratorOptions o;
    o.warps = 1;
    o.instructions = 1 + rng() % 40;
    o.barriers = rng() % 3;
    o.registers = kRegisters;
    const auto block = with_branches(generate_block(hw, o, rng));
    gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters);
    ASSERT_EQ(oracle.worst_case(), simulate_block(hw, block, kRegisters, {}).cycles) << n;
  }
}

// Two identical warps, U0 (initiation 3, latency 1), U1 (2, 1): a on U1, b on
// U0, c on U1, independent. Alone a warp is busy [0,4) and done at 5, so
// GUB = 5 + 4 = 9; but a schedule that delays warp 1 spreads its execution
// phases over 7 cycles and the block takes 10.
TEST(BlockSimulator, GeneralUpperBoundCounterexample) {
  const HardwareDescription hw = paper_units({{3, 1}, {2, 1}});
  std::vector<Instruction> code(4);
  code[0].unit = 1;
  code[1].unit = 0;
  code[2].unit = 1;
  code[3].kind = OpKind::exit;
  const std::vector<std::vector<Instruction>> block{code, code};
  const BlockBound b = bound(hw, block);
  EXPECT_EQ(b.general_upper_bound, 9u);
  EXPECT_EQ(b.safe_upper_bound, 12u);
  std::uint64_t worst = 0;
  for (std::uint64_t seed = 1; seed <= 64; ++seed) {
    BlockSimulationOptions so;
    so.policy = SchedulerPolicy::random;
    so.seed = seed;
    worst = std::max(worst, simulate_block(hw, block, kRegisters, so).cycles);
  }
  EXPECT_EQ(worst, 10u);
}

// The defer-holds stress schedule issues what blocks nobody first. Paper's
// pipeline; unit 0 (initiation 2, latency 1), unit 1 (1, 1); warp 0 issues
// two independent unit-0 instructions, warp 1 two unit-1 ones. Worked by
// hand from the machine rules (docs/multiphase.md, "Machine model"):
// - GTO: w0 at 0; w1 at 1 (unit 0 busy until 2); w1 again at 2 (GTO keeps
//   the last warp); w0 at 3, written at 3 + 2 + 1 = 6;
// - LRR: w0 at 0, w1 at 1, w0 at 2, w1 at 3: both written at 5;
// - defer-holds: w1 at 0 and 1 (they hold nothing after their issue), w0 at
//   2; cycle 3 issues nothing (unit 0 busy); w0 at 4, written at 7.
// 7 is the safe bound: length(w0) 5 + w1's 2 issues + no holds on unit 0.
TEST(BlockSimulator, DeferHoldsLeavesTheHoldsForLast) {
  const HardwareDescription hw = paper_units({{2, 1}, {1, 1}});
  std::vector<Instruction> w0(3), w1(3);
  w0[0].unit = w0[1].unit = 0;
  w1[0].unit = w1[1].unit = 1;
  w0[2].kind = w1[2].kind = OpKind::exit;
  const std::vector<std::vector<Instruction>> block{w0, w1};
  std::mt19937_64 rng(1);
  const auto cycles = [&](SchedulerPolicy p) { return simulate_block(hw, block, kRegisters, run_of(p, rng)).cycles; };
  EXPECT_EQ(cycles(SchedulerPolicy::greedy_then_oldest), 6u);
  EXPECT_EQ(cycles(SchedulerPolicy::loose_round_robin), 5u);
  EXPECT_EQ(cycles(SchedulerPolicy::defer_holds), 7u);
  EXPECT_EQ(cycles(SchedulerPolicy::defer_holds_balanced), 7u);
  EXPECT_EQ(bound(hw, block).safe_upper_bound, 7u);
  BlockSimulationOptions so = run_of(SchedulerPolicy::defer_holds, rng);
  so.record_trace = true;
  const BlockSimulation sim = simulate_block(hw, block, kRegisters, so);
  ASSERT_EQ(sim.trace.size(), 4u);
  const std::uint64_t warp_cycle[4][2] = {{1, 0}, {1, 1}, {0, 2}, {0, 4}};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(sim.trace[k].warp, warp_cycle[k][0]) << k;
    EXPECT_EQ(sim.trace[k].cycle, warp_cycle[k][1]) << k;
  }
}

// defer-holds-balanced breaks ties for the warp furthest behind, where
// defer-holds takes the lowest id. Paper's pipeline, one unit (initiation 1,
// latency 1); warp 0 issues three independent instructions, warp 1 one.
// Every instruction blocks nobody, so all tie. Worked by hand:
// - defer-holds: w0 at 0, 1, 2 (lowest id while it is ready), w1 at 3;
// - balanced: w0 at 0 (both at position 0: lowest id), w1 at 1 (behind),
//   w0 at 2 and 3.
TEST(BlockSimulator, DeferHoldsBalancedTiesGoToTheWarpFurthestBehind) {
  const HardwareDescription hw = paper_units({{1, 1}});
  std::vector<Instruction> w0(4), w1(2);
  w0[3].kind = w1[1].kind = OpKind::exit;
  const std::vector<std::vector<Instruction>> block{w0, w1};
  const auto order = [&](SchedulerPolicy p) {
    BlockSimulationOptions so;
    so.policy = p;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
    for (const IssueEvent& e : simulate_block(hw, block, kRegisters, so).trace) out.emplace_back(e.warp, e.cycle);
    return out;
  };
  using Issues = std::vector<std::pair<std::uint32_t, std::uint64_t>>;
  EXPECT_EQ(order(SchedulerPolicy::defer_holds), (Issues{{0, 0}, {0, 1}, {0, 2}, {1, 3}}));
  EXPECT_EQ(order(SchedulerPolicy::defer_holds_balanced), (Issues{{0, 0}, {1, 1}, {0, 2}, {0, 3}}));
}

// Where the bound's blocking term is all real: warps of independent int_add
// (initiation 2) keep the int pipe busy every other cycle and nobody else can
// issue in between, so every schedule takes the safe bound (docs/multiphase.md,
// "A tighter safe bound: not found"): a tightening that dropped held cycles
// would fail here.
TEST(BlockSimulator, SafeBoundIsExactOnIntPipeBoundWarps) {
  HardwareDescription hw;
  ASSERT_EQ(make_hardware_preset("rtx3070", 200, hw), Status::ok);
  // Without collector units: with them every other-warp instruction is also
  // charged the cycles it holds one (test_collector_units.cpp).
  hw.collector_units = 0;
  std::size_t add = hw.unit_count;
  for (std::size_t u = 0; u < hw.unit_count; ++u) {
    if (std::strcmp(hw.units[u].name.data(), "int_add") == 0) add = u;
  }
  ASSERT_LT(add, hw.unit_count);
  std::vector<Instruction> code(11);
  for (std::uint16_t k = 0; k < 10; ++k) {
    code[k].unit = static_cast<std::uint16_t>(add);
    code[k].dst_count = 1;
    code[k].dst[0] = k;
  }
  code[10].unit = static_cast<std::uint16_t>(add);
  code[10].kind = OpKind::exit;
  for (const std::size_t warps : {std::size_t{2}, std::size_t{4}, std::size_t{8}}) {
    const std::vector<std::vector<Instruction>> block(warps, code);
    const BlockBound b = bound(hw, block);
    for (const SchedulerPolicy p : kPolicies) {
      BlockSimulationOptions so;
      so.policy = p;
      EXPECT_EQ(simulate_block(hw, block, kRegisters, so).cycles, b.safe_upper_bound) << warps;
    }
    if (warps == 2) {
      gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters);
      EXPECT_EQ(oracle.worst_case(), b.safe_upper_bound);
    }
  }
}

}  // namespace
}  // namespace gpuwcet::tools
