// Collector units (HardwareDescription::collector_units): the simulator's
// round-robin service order against the profile's bound over every order.
// The machine serving queued units in issue order is checked cycle for cycle
// in test_block_simulator.cpp; here the order is GPGPU-Sim's, so a one-warp
// schedule may be shorter than the bound but never longer, and a bound that
// assumed issue order would be exceeded.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "block_bounds_of.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_generator.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

constexpr std::size_t kRegisters = 24;

std::uint64_t alone(const HardwareDescription& hw, const std::vector<Instruction>& code,
                    bool barriers_drain) {
  return testing::warp_alone(hw, code, kRegisters, barriers_drain);
}

// GPGPU-Sim's pipeline, perfect memory, and 1-8 collector units; one warp
// whose memory instructions often carry many transactions, so that several
// wait for the load/store unit at once.
struct Case {
  HardwareDescription hw;
  std::vector<std::vector<Instruction>> block;
};

Case random_case(std::mt19937_64& rng) {
  Case c;
  EXPECT_EQ(make_hardware_preset("orin-sm", 2 + static_cast<std::uint32_t>(rng() % 30), c.hw),
            Status::ok);
  c.hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 8);
  BlockGeneratorOptions o;
  o.warps = 1;
  o.instructions = 4 + rng() % 60;
  o.barriers = rng() % 3;
  o.registers = kRegisters;
  o.dependency = static_cast<double>(rng() % 10) / 10.0;
  o.max_extra_cycles = static_cast<std::uint8_t>(8 + rng() % 40);
  c.block = generate_block(c.hw, o, rng);
  return c;
}

TEST(CollectorUnits, OneWarpNeverExceedsItsBound) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(8));
  int beyond_issue_order = 0;  // schedules longer than an issue-order bound
  int shorter = 0;             // schedules below the bound
  for (int n = 0; n < 3000; ++n) {
    const Case c = random_case(rng);
    HardwareDescription in_order = c.hw;
    in_order.collector_units = 0;
    for (const bool drain : {true, false}) {
      BlockSimulationOptions so;
      so.record_trace = false;
      so.barriers_drain = drain;
      const std::uint64_t simulated = simulate_block(c.hw, c.block, kRegisters, so).cycles;
      const std::uint64_t bound = alone(c.hw, c.block[0], drain);
      ASSERT_LE(simulated, bound) << n << (drain ? " drained" : " passing");
      if (simulated > alone(in_order, c.block[0], drain)) ++beyond_issue_order;
      if (simulated < bound) ++shorter;
    }
  }
  // The service order matters on these cases: an issue-order analysis would
  // undercount some of them, and the bound over every order is not always
  // reached by the round-robin one.
  EXPECT_GT(beyond_issue_order, 0);
  EXPECT_GT(shorter, 0);
  RecordProperty("beyond_issue_order", beyond_issue_order);
  RecordProperty("shorter", shorter);
}

// More instructions waiting at once than the analysis tracks one by one
// (kCollectorQueueWindow): the later ones fall back on the
// backlog bound alone, still above every order the simulator takes.
TEST(CollectorUnits, ManyLoadsInFlightStayBounded) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(10));
  for (int n = 0; n < 200; ++n) {
    HardwareDescription hw;
    ASSERT_EQ(make_hardware_preset("orin-sm", 2 + static_cast<std::uint32_t>(rng() % 30), hw),
              Status::ok);
    hw.collector_units = kMaxCollectorUnits;  // no issue waits for a unit
    const int mem = find_unit(hw, "mem");
    const int shared = find_unit(hw, "mem_shared");
    ASSERT_GE(mem, 0);
    ASSERT_GE(shared, 0);
    // A window's worth of loads, up to 20 fewer or more, into distinct
    // registers, then as many readers.
    const std::size_t loads = kCollectorQueueWindow - 20 + rng() % 41;
    std::vector<Instruction> code;
    for (std::size_t k = 0; k < loads; ++k) {
      Instruction i;
      i.unit = static_cast<std::uint16_t>(rng() % 2 == 0 ? mem : shared);
      i.kind = OpKind::load;
      i.extra_cycles = static_cast<std::uint8_t>(rng() % 32);
      i.dst_count = 1;
      i.dst[0] = static_cast<std::uint16_t>(k);
      code.push_back(i);
    }
    for (std::size_t k = 0; k < loads; ++k) {
      Instruction i;
      i.unit = static_cast<std::uint16_t>(find_unit(hw, "int_add"));
      i.src_count = 1;
      i.src[0] = static_cast<std::uint16_t>(rng() % loads);
      i.dst_count = 1;
      i.dst[0] = static_cast<std::uint16_t>(loads + k % 8);
      code.push_back(i);
    }
    const std::size_t kRegs = loads + 8;
    const std::uint64_t bound = testing::warp_alone(hw, code, kRegs, false);
    BlockSimulationOptions so;
    so.record_trace = false;
    so.barriers_drain = false;
    ASSERT_LE(simulate_block(hw, {code}, kRegs, so).cycles, bound) << n;
  }
}

// Several warps share the collector units: every policy's schedule stays
// within the safe bound.
TEST(CollectorUnits, BlocksNeverExceedTheSafeBound) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(9));
  for (int n = 0; n < 800; ++n) {
    Case c = random_case(rng);
    BlockGeneratorOptions o;
    o.warps = 2 + rng() % 15;
    o.instructions = 4 + rng() % 30;
    o.barriers = rng() % 3;
    o.registers = kRegisters;
    o.same_code = rng() % 2 == 0;
    o.dependency = static_cast<double>(rng() % 10) / 10.0;
    o.max_extra_cycles = static_cast<std::uint8_t>(rng() % 40);
    c.block = generate_block(c.hw, o, rng);
    const BlockBound b = testing::block_bounds_of(c.hw, c.block, kRegisters);
    for (SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest, SchedulerPolicy::loose_round_robin,
                              SchedulerPolicy::random, SchedulerPolicy::defer_holds,
                              SchedulerPolicy::defer_holds_balanced}) {
      for (const bool drain : {true, false}) {
        BlockSimulationOptions so;
        so.policy = p;
        so.seed = static_cast<std::uint64_t>(n) + 1;
        so.record_trace = false;
        so.barriers_drain = drain;
        ASSERT_LE(simulate_block(c.hw, c.block, kRegisters, so).cycles, b.safe_upper_bound)
            << n << " policy " << static_cast<int>(p) << " drain " << drain << " warps "
            << c.block.size() << " units " << c.hw.collector_units
            << " gub " << b.general_upper_bound;
      }
    }
  }
}

// Runs two warps of loads (two each, three with one collector unit) on `hw`
// under GTO, LRR and random, with barriers draining or not (the block has
// none, so both must give the same): over 2^26 cycles, within the safe
// bound, in at most 64 steps.
void expect_few_steps(const HardwareDescription& hw, std::uint32_t collector_units) {
  const std::uint16_t loads = collector_units == 1 ? 3 : 2;
  std::vector<std::vector<Instruction>> block(2);
  for (std::size_t w = 0; w < block.size(); ++w) {
    for (std::uint16_t k = 0; k < loads; ++k) {
      Instruction load;
      load.kind = OpKind::load;
      load.dst_count = 1;
      load.dst[0] = static_cast<std::uint16_t>(1 + loads * w + k);
      block[w].push_back(load);
    }
  }
  const std::uint64_t bound = testing::block_bounds_of(hw, block, kRegisters).safe_upper_bound;
  for (const SchedulerPolicy p : {SchedulerPolicy::greedy_then_oldest,
                                  SchedulerPolicy::loose_round_robin, SchedulerPolicy::random}) {
    for (const bool drain : {true, false}) {
      BlockSimulationOptions so;
      so.policy = p;
      so.barriers_drain = drain;
      const BlockSimulation sim = simulate_block(hw, block, kRegisters, so);
      EXPECT_GE(sim.cycles, std::uint64_t{4} << 24);  // one load per initiation interval
      EXPECT_LE(sim.cycles, bound);
      EXPECT_LE(sim.steps, 64u) << collector_units << " collector units";
    }
  }
}

// The simulator stops at the cycles in which something can happen, not at
// every cycle: loads on a queued unit with an initiation interval of 2^24
// span over 2^26 cycles in a few dozen steps, whether the warps wait for the
// unit or, with every collector unit taken, to issue. (Stepping one cycle at
// a time made `gpuwcet simulate` take minutes on such a four-line trace.)
TEST(CollectorUnits, SimulationStepsFollowEventsNotCycles) {
  for (const std::uint32_t collector_units : {1u, 2u}) {
    HardwareDescription hw;
    hw.unit_count = 1;
    hw.units[0].initiation = 1u << 24;
    hw.units[0].latency = 1;
    hw.units[0].flags = kUnitQueuedDispatch;
    hw.collector_units = collector_units;
    ASSERT_EQ(validate(hw), Status::ok);
    expect_few_steps(hw, collector_units);
  }
}

}  // namespace
}  // namespace gpuwcet::tools
