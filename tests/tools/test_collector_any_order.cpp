// The collector-unit bounds cover every order in which a queued unit may
// serve its waiting instructions, not only GPGPU-Sim's round-robin (the
// simulator's default): here the simulator also picks at random, oldest,
// newest, longest and shortest first, and tiny one-warp sequences run in
// every order (every pick at every step). A one-warp block stays at or below
// warp_alone_cycles, a block of several warps at or below the safe bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "block_bounds_of.hpp"
#include "block_schedule_oracle.hpp"
#include "case_count.hpp"
#include "every_choice.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_generator.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "test_seed.hpp"

namespace gpuwcet::tools {
namespace {

using ::gpuwcet::testing::case_count;

constexpr std::size_t kRegisters = 24;
using Code = std::vector<Instruction>;

constexpr CollectorPick kPicks[] = {CollectorPick::round_robin, CollectorPick::oldest,
                                    CollectorPick::newest,      CollectorPick::longest,
                                    CollectorPick::shortest,    CollectorPick::random};

std::uint64_t alone(const HardwareDescription& hw, const Code& code, bool drain) {
  return testing::warp_alone(hw, code, kRegisters, drain);
}

std::uint64_t run(const HardwareDescription& hw, const std::vector<Code>& block, bool drain,
                  CollectorPick pick, std::uint64_t seed) {
  BlockSimulationOptions so;
  so.record_trace = false;
  so.barriers_drain = drain;
  so.collector_pick = pick;
  so.collector_seed = seed;
  return simulate_block(hw, block, kRegisters, so).cycles;
}

// One warp: every pick order.
std::uint64_t worst_order(const HardwareDescription& hw, const Code& code, bool drain,
                          std::size_t budget) {
  return testing::worst_of_every_choice(hw, {code}, kRegisters, drain, budget);
}

// The orin-sm preset at a memory latency.
HardwareDescription orin_at(std::uint32_t latency) {
  HardwareDescription hw;
  EXPECT_EQ(make_hardware_preset("orin-sm", latency, hw), Status::ok);
  return hw;
}

// The index of unit `name` (the test fails when there is none).
int unit_of(const HardwareDescription& hw, const char* name) {
  const int u = find_unit(hw, name);
  EXPECT_GE(u, 0) << name;
  return u < 0 ? 0 : u;
}

// An instruction on `unit` with `extra` further cycles, one destination
// and one source register (-1: none).
Instruction instruction(int unit, OpKind kind, int extra, int dst, int src = -1) {
  Instruction i;
  i.unit = static_cast<std::uint16_t>(unit);
  i.kind = kind;
  i.extra_cycles = static_cast<std::uint8_t>(extra);
  if (dst >= 0) {
    i.dst_count = 1;
    i.dst[0] = static_cast<std::uint16_t>(dst);
  }
  if (src >= 0) {
    i.src_count = 1;
    i.src[0] = static_cast<std::uint16_t>(src);
  }
  return i;
}

HardwareDescription orin(std::mt19937_64& rng) {
  HardwareDescription hw = orin_at(2 + static_cast<std::uint32_t>(rng() % 39));
  hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 8);
  return hw;
}

// A few units, unit 0 queued, a random pipeline (dispatch_delay up to 4).
HardwareDescription handmade(std::mt19937_64& rng) {
  HardwareDescription hw;
  hw.unit_count = 1 + rng() % 5;
  for (std::size_t u = 0; u < hw.unit_count; ++u) {
    hw.units[u].initiation = 1 + static_cast<std::uint32_t>(rng() % 6);
    hw.units[u].latency = static_cast<std::uint32_t>(rng() % 12);
    if (u > 0 && rng() % 4 == 0) hw.units[u].resource = static_cast<std::uint16_t>(rng() % u);
    hw.units[u].flags = static_cast<std::uint16_t>(rng() % 8);
  }
  hw.units[0].flags |= kUnitQueuedDispatch;
  hw.units[0].latency = 2 + static_cast<std::uint32_t>(rng() % 39);
  for (std::size_t u = 0; u < hw.unit_count; ++u) {  // one resource, one queue flag
    const std::size_t r = unit_resource(hw, u);
    if (r != u) {
      hw.units[u].flags = static_cast<std::uint16_t>((hw.units[u].flags & ~kUnitQueuedDispatch) |
                                                     (hw.units[r].flags & kUnitQueuedDispatch));
    }
  }
  hw.issue_interval = 1 + static_cast<std::uint32_t>(rng() % 3);
  hw.branch_delay = static_cast<std::uint32_t>(rng() % 4);
  hw.result_delay = static_cast<std::uint32_t>(rng() % 4);
  hw.latency_from_issue = rng() % 2 == 0;
  hw.barrier_delay = static_cast<std::uint32_t>(rng() % 6);
  hw.dispatch_delay = static_cast<std::uint32_t>(rng() % 5);
  hw.launch_delay = static_cast<std::uint32_t>(rng() % 4);
  hw.exit_issues = rng() % 2 == 0;
  hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 8);
  return hw;
}

HardwareDescription any_hw(std::mt19937_64& rng) { return rng() % 2 ? orin(rng) : handmade(rng); }

std::vector<Code> block_of(std::mt19937_64& rng, const HardwareDescription& hw, std::size_t warps,
                           std::size_t max_instructions) {
  BlockGeneratorOptions o;
  o.warps = warps;
  o.instructions = 1 + rng() % max_instructions;
  o.barriers = rng() % 3;
  o.registers = kRegisters;
  o.same_code = rng() % 2 == 0;
  o.dependency = static_cast<double>(rng() % 11) / 10.0;
  o.max_extra_cycles = static_cast<std::uint8_t>(rng() % 41);
  auto block = generate_block(hw, o, rng);
  for (auto& w : block) {  // branches, for branch_delay
    for (std::size_t i = 3; i < w.size(); i += 7) {
      if (w[i].kind == OpKind::compute) w[i].kind = OpKind::branch;
    }
  }
  return block;
}

// A tiny one-warp sequence where many queued instructions wait at once:
// mostly queued units, long extra cycles, few dependencies.
Code tiny_queued(std::mt19937_64& rng, const HardwareDescription& hw) {
  std::vector<std::uint16_t> queued, other;
  for (std::size_t u = 0; u < hw.unit_count; ++u) {
    ((hw.units[u].flags & kUnitQueuedDispatch) != 0 ? queued : other)
        .push_back(static_cast<std::uint16_t>(u));
  }
  const std::size_t n = 2 + rng() % 11;
  const unsigned dependency = static_cast<unsigned>(rng() % 4);  // in 8
  Code code;
  for (std::size_t k = 0; k < n; ++k) {
    Instruction i;
    if (rng() % 12 == 0) {
      i.kind = OpKind::barrier;
      code.push_back(i);
      continue;
    }
    const bool q = other.empty() || rng() % 10 < 7;
    i.unit = q ? queued[rng() % queued.size()] : other[rng() % other.size()];
    i.kind = q ? (rng() % 4 == 0 ? OpKind::store : OpKind::load)
               : (rng() % 6 == 0 ? OpKind::branch : OpKind::compute);
    if (rng() % 2 == 0) i.extra_cycles = static_cast<std::uint8_t>(rng() % 41);
    if (i.kind != OpKind::store && rng() % 8 != 0) {
      i.dst_count = 1;
      i.dst[0] = static_cast<std::uint16_t>(rng() % 8);
    }
    i.src_count = static_cast<std::uint8_t>(rng() % 3);
    for (std::size_t s = 0; s < i.src_count; ++s) {
      if (rng() % 8 < dependency && !code.empty()) {
        const Instruction& p = code[code.size() - 1 - rng() % std::min<std::size_t>(3, code.size())];
        i.src[s] = p.dst_count != 0 ? p.dst[0] : static_cast<std::uint16_t>(rng() % 8);
      } else {
        i.src[s] = static_cast<std::uint16_t>(8 + rng() % 8);  // never written
      }
    }
    code.push_back(i);
  }
  return code;
}

BlockBound safe_bound(const HardwareDescription& hw, const std::vector<Code>& block) {
  return testing::block_bounds_of(hw, block, kRegisters);
}

TEST(CollectorAnyOrder, OneWarpUnderEveryPickRule) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(20250611));
  int slower_than_round_robin = 0;
  for (int n = 0; n < 2000; ++n) {
    const HardwareDescription hw = any_hw(rng);
    const auto block = block_of(rng, hw, 1, 60);
    for (const bool drain : {true, false}) {
      const std::uint64_t bound = alone(hw, block[0], drain);
      const std::uint64_t rr = run(hw, block, drain, CollectorPick::round_robin, 1);
      for (const CollectorPick p : kPicks) {
        for (std::uint64_t seed = 1; seed <= (p == CollectorPick::random ? 4u : 1u); ++seed) {
          const std::uint64_t c = run(hw, block, drain, p, seed + static_cast<std::uint64_t>(n) * 17);
          ASSERT_LE(c, bound) << n << " pick " << static_cast<int>(p) << " drain " << drain;
          if (c > rr) ++slower_than_round_robin;
        }
      }
    }
  }
  EXPECT_GT(slower_than_round_robin, 0);  // the orders differ on these warps
}

TEST(CollectorAnyOrder, TinyWarpsInEveryOrder) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(77));
  int worse_than_round_robin = 0;
  for (int n = 0; n < 1500; ++n) {
    HardwareDescription hw = any_hw(rng);
    if (rng() % 2 == 0) hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 3);
    const Code code = tiny_queued(rng, hw);
    for (const bool drain : {true, false}) {
      const std::uint64_t worst = worst_order(hw, code, drain, 20000);
      ASSERT_LE(worst, alone(hw, code, drain)) << n << " drain " << drain;
      if (worst > run(hw, {code}, drain, CollectorPick::round_robin, 1)) ++worse_than_round_robin;
    }
  }
  EXPECT_GT(worse_than_round_robin, 0);
}

// The independent oracle (tests/support/block_schedule_oracle.hpp), which
// enumerates the collector units' picks on its own, finds the same worst case
// as the simulator driven through every choice: queue-heavy warps alone and
// in pairs.
TEST(CollectorAnyOrder, OracleFindsTheSameWorstCase) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(4242));
  int compared = 0, cases = 0;
  for (int n = 0; n < case_count(300); ++n) {
    HardwareDescription hw = any_hw(rng);
    if (rng() % 2 == 0) hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 3);
    Code code = tiny_queued(rng, hw);
    std::vector<Code> block{code};
    if (rng() % 2 == 0) {  // two warps of the same code: the same barriers
      code.resize(std::min<std::size_t>(code.size(), 5));
      block = {code, code};
    }
    for (const bool drain : {true, false}) {
      ++cases;
      bool complete = false;
      const std::uint64_t sim =
          testing::worst_of_every_choice(hw, block, kRegisters, drain, 5000, &complete);
      if (!complete) continue;
      gpuwcet::testing::BlockScheduleOracle oracle(hw, block, kRegisters, drain);
      const std::uint64_t exact = oracle.worst_case(1'000'000);
      if (oracle.truncated()) continue;
      ++compared;
      const std::uint64_t bound =
          block.size() == 1 ? alone(hw, code, drain) : safe_bound(hw, block).safe_upper_bound;
      ASSERT_LE(exact, bound) << n;
      ASSERT_EQ(exact, sim) << n << ": " << block.size() << " warps, " << code.size()
                            << " instructions, collector units " << hw.collector_units << " drain " << drain;
    }
  }
  EXPECT_GT(compared, cases * 3 / 4);  // 580 of the 600 enumerated completely by both
}

TEST(CollectorAnyOrder, BlocksUnderEveryPickRule) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(31337));
  for (int n = 0; n < 250; ++n) {
    const HardwareDescription hw = any_hw(rng);
    const auto block = block_of(rng, hw, 2 + rng() % 15, 30);
    const BlockBound b = safe_bound(hw, block);
    for (SchedulerPolicy policy : {SchedulerPolicy::greedy_then_oldest,
                                   SchedulerPolicy::loose_round_robin, SchedulerPolicy::random}) {
      for (const bool drain : {true, false}) {
        for (const CollectorPick p : kPicks) {
          BlockSimulationOptions so;
          so.policy = policy;
          so.seed = static_cast<std::uint64_t>(n) + 1;
          so.collector_pick = p;
          so.collector_seed = static_cast<std::uint64_t>(n) * 3 + 7;
          so.record_trace = false;
          so.barriers_drain = drain;
          ASSERT_LE(simulate_block(hw, block, kRegisters, so).cycles, b.safe_upper_bound)
              << n << " policy " << static_cast<int>(policy) << " pick " << static_cast<int>(p);
        }
      }
    }
  }
}

// Dependency chains through fixed-latency units between queued loads: the
// wait bounds count the cycles such a chain forces between two issues
// (CollectorQueues::advance), which must hold whatever the service order,
// here every one.
Code chained(std::mt19937_64& rng, const HardwareDescription& hw) {
  Code code;
  std::uint16_t next = 0;
  auto add = [&](std::uint16_t unit, OpKind kind, int src) {
    const int dst = kind != OpKind::store ? next : -1;
    if (dst >= 0) next = static_cast<std::uint16_t>((next + 1) % 12);
    const int extra = unit == 0 && rng() % 2 == 0 ? static_cast<int>(rng() % 41) : 0;
    code.push_back(instruction(unit, kind, extra, dst, src));
    return static_cast<int>(code.back().dst[0]);
  };
  const std::size_t segments = 2 + rng() % 4;
  for (std::size_t s = 0; s < segments; ++s) {
    int r = add(0, OpKind::load, rng() % 3 == 0 && !code.empty() ? code.back().dst[0] : -1);
    for (std::size_t k = rng() % 4; k > 0; --k) {
      r = add(static_cast<std::uint16_t>(1 + rng() % (hw.unit_count - 1)),
              rng() % 5 == 0 ? OpKind::branch : OpKind::compute, rng() % 4 == 0 ? -1 : r);
    }
    if (rng() % 2 == 0) add(0, rng() % 3 == 0 ? OpKind::store : OpKind::load, r);
  }
  return code;
}

TEST(CollectorAnyOrder, DependencyChainsInEveryOrder) {
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(4242));
  for (int n = 0; n < 1200; ++n) {
    HardwareDescription hw;
    hw.unit_count = 2 + rng() % 3;
    for (std::size_t u = 0; u < hw.unit_count; ++u) {
      hw.units[u].initiation = 1 + static_cast<std::uint32_t>(rng() % 3);
      hw.units[u].latency = static_cast<std::uint32_t>(rng() % 21);
    }
    hw.units[0].flags = kUnitQueuedDispatch;
    hw.units[0].latency = 2 + static_cast<std::uint32_t>(rng() % 30);
    hw.issue_interval = 1 + static_cast<std::uint32_t>(rng() % 2);
    hw.branch_delay = static_cast<std::uint32_t>(rng() % 3);
    hw.result_delay = static_cast<std::uint32_t>(rng() % 3);
    hw.dispatch_delay = static_cast<std::uint32_t>(rng() % 4);
    hw.collector_units = 1 + static_cast<std::uint32_t>(rng() % 4);
    const Code code = chained(rng, hw);
    for (const bool drain : {true, false}) {
      ASSERT_LE(worst_order(hw, code, drain, 20000), alone(hw, code, drain))
          << n << " drain " << drain;
    }
  }
}

// Past the tracked window (kCollectorQueueWindow) an instruction is bounded
// by the backlog alone, and the drain must allow for it being served last:
// here a global load whose result nobody reads, behind a window's worth of
// shared loads (and up to 8 more) with
// long bank conflicts. Served longest first, it goes last and completes a
// memory latency after the backlog end, beyond every shared load's
// completion in issue order.
TEST(CollectorAnyOrder, UnreadLoadPastTheWindowServedLast) {
  for (const std::uint32_t latency : {50u, 200u}) {
    HardwareDescription hw = orin_at(latency);
    hw.collector_units = kMaxCollectorUnits;
    const int mem = unit_of(hw, "mem");
    const int shared = unit_of(hw, "mem_shared");
    for (std::size_t before = kCollectorQueueWindow; before <= kCollectorQueueWindow + 8;
         before += 4) {
      for (std::size_t after = 0; after <= 4; after += 2) {
        Code code;
        auto add = [&](int unit, int extra) {
          code.push_back(instruction(unit, OpKind::load, extra,
                                     static_cast<int>(code.size() % kRegisters)));
        };
        for (std::size_t k = 0; k < before; ++k) add(shared, 31);
        add(mem, 0);
        for (std::size_t k = 0; k < after; ++k) add(shared, 31);
        for (const bool drain : {true, false}) {
          const std::uint64_t bound = alone(hw, code, drain);
          for (const CollectorPick p : kPicks) {
            EXPECT_LE(run(hw, {code}, drain, p, 1), bound)
                << "latency " << latency << " before " << before << " after " << after
                << " pick " << static_cast<int>(p);
          }
        }
      }
    }
  }
}

// In a block, an instruction the warp's own profile takes as next in line
// (every earlier one of the warp has started) can wait behind another
// warp's access, and a later access of its own warp, arriving meanwhile, can
// then go first: a delay the one-warp profile excludes and the other warps'
// charges do not contain. The section length counts the warp's own queued
// holds a second time for it (docs/multiphase.md, "Operand collectors").
// Here warp 1's global load waits behind warp 0's two shared accesses and
// is overtaken by warp 1's own long shared access, newest first.
TEST(CollectorAnyOrder, OwnLaterAccessOvertakesANextInLineOneInABlock) {
  for (const std::uint32_t latency : {20u, 200u}) {
    const HardwareDescription hw = orin_at(latency);
    const int mem = unit_of(hw, "mem");
    const int shared = unit_of(hw, "mem_shared");
    const int fp_add = unit_of(hw, "fp_add");
    for (int lead = 0; lead <= 5; ++lead) {
      // The second access of warp 0 takes the unit's output register while
      // the first is served, so warp 1's load has to wait among the others.
      Code other{instruction(shared, OpKind::load, 255, 0),
                 instruction(shared, OpKind::load, 0, 4)};
      Code mine;
      for (int k = 0; k < lead; ++k) mine.push_back(instruction(fp_add, OpKind::compute, 0, 5));
      mine.push_back(instruction(mem, OpKind::load, 0, 1));
      mine.push_back(instruction(shared, OpKind::load, 255, 2));
      mine.push_back(instruction(fp_add, OpKind::compute, 0, 3, 1));
      const std::vector<Code> block{other, mine};
      const BlockBound b = safe_bound(hw, block);
      for (SchedulerPolicy policy : {SchedulerPolicy::greedy_then_oldest,
                                     SchedulerPolicy::loose_round_robin}) {
        for (const CollectorPick p : kPicks) {
          BlockSimulationOptions so;
          so.policy = policy;
          so.collector_pick = p;
          so.record_trace = false;
          EXPECT_LE(simulate_block(hw, block, kRegisters, so).cycles, b.safe_upper_bound)
              << "latency " << latency << " lead " << lead << " pick " << static_cast<int>(p);
        }
      }
    }
  }
}

// Found by review against an earlier issue rule, which counted only the
// profile's current busy period of the unit: a load that has not arrived
// yet (dispatch_delay 3 or more) still holds its collector unit. Three
// independent loads on one queued unit, two collector units: 26 simulated
// cycles against a bound of 25 at dispatch_delay 3.
TEST(CollectorAnyOrder, LoadsNotYetArrivedHoldTheirUnits) {
  for (const std::uint32_t dd : {3u, 4u, 8u, 20u}) {
    HardwareDescription hw;
    hw.unit_count = 1;
    hw.units[0].initiation = 1;
    hw.units[0].latency = 19;
    hw.units[0].flags = kUnitQueuedDispatch;
    hw.dispatch_delay = dd;
    hw.collector_units = 2;
    Code code(3);
    for (std::size_t k = 0; k < 3; ++k) {
      code[k].kind = OpKind::load;
      code[k].dst_count = 1;
      code[k].dst[0] = static_cast<std::uint16_t>(k);
    }
    for (const bool drain : {true, false}) {
      for (const CollectorPick p : kPicks) {
        EXPECT_LE(run(hw, {code}, drain, p, 1), alone(hw, code, drain)) << dd;
      }
    }
    for (std::size_t warps = 2; warps <= 4; ++warps) {
      const std::vector<Code> block(warps, code);
      const BlockBound b = safe_bound(hw, block);
      for (const CollectorPick p : kPicks) EXPECT_LE(run(hw, block, true, p, 1), b.safe_upper_bound);
    }
  }
}

// Found by review against the same rule, on the orin-sm preset as shipped (8
// collector units): a load with x1 further transactions, n1 single ones, one
// with 255 and n2 single ones, then a dp_div. Served newest first, the long
// load overtakes short ones of an earlier busy period of the profile, which
// then hold their collector units through its service: 607 simulated cycles
// against a bound of 361 (x1 4, n1 10, n2 6, latency 2).
TEST(CollectorAnyOrder, ShortLoadsOvertakenByALongOneHoldTheirUnits) {
  for (const std::uint32_t latency : {2u, 200u}) {
    const HardwareDescription hw = orin_at(latency);
    const int mem = unit_of(hw, "mem");
    const int dp_div = unit_of(hw, "dp_div");
    for (int x1 = 4; x1 <= 40; x1 += 12) {
      for (int n1 = 6; n1 <= 14; n1 += 4) {
        for (int n2 = 0; n2 <= 9; n2 += 3) {
          Code code;
          auto add = [&](int unit, int extra, OpKind kind) {
            code.push_back(
                instruction(unit, kind, extra, static_cast<int>(code.size() % kRegisters)));
          };
          add(mem, x1, OpKind::load);
          for (int k = 0; k < n1; ++k) add(mem, 0, OpKind::load);
          add(mem, 255, OpKind::load);
          for (int k = 0; k < n2; ++k) add(mem, 0, OpKind::load);
          add(dp_div, 0, OpKind::compute);
          for (const bool drain : {true, false}) {
            const std::uint64_t bound = alone(hw, code, drain);
            for (const CollectorPick p : kPicks) {
              EXPECT_LE(run(hw, {code}, drain, p, 1), bound)
                  << "latency " << latency << " x1 " << x1 << " n1 " << n1 << " n2 " << n2;
            }
          }
        }
      }
    }
  }
}


// Found by an adversarial review: a store that writes a register (the
// readers give stores none; the core's API takes one) completed at the end
// of its hold, its result uncounted. Past the window of followed queued
// instructions its register settles at the next drain, which then came
// before the result: 128 loads, a store writing r1 (latency 5000) on their
// queued resource, a draining barrier, then a reader of r1 took 5514
// simulated cycles against a bound of 514 alone and 1026 for the block. A
// drain now waits for every register a store writes (completion_cycle).
TEST(CollectorAnyOrder, StoreWritingARegisterPastTheWindowIsDrained) {
  HardwareDescription hw;
  hw.unit_count = 3;
  hw.units[0] = {{'l', 'd'}, 2, 0, kOwnResource, kUnitQueuedDispatch};
  hw.units[1] = {{'s', 't'}, 1, 5000, 0, kUnitQueuedDispatch};  // shares unit 0's resource
  hw.units[2] = {{'a', 'l', 'u'}, 1, 1, kOwnResource, 0};
  hw.collector_units = 1;
  for (const std::size_t loads : {kCollectorQueueWindow - 2, kCollectorQueueWindow}) {
    Code code;
    for (std::size_t k = 0; k < loads; ++k) code.push_back(instruction(0, OpKind::load, k == 0 ? 255 : 0, -1));
    code.push_back(instruction(1, OpKind::store, 0, 1));
    code.push_back(instruction(0, OpKind::barrier, 0, -1));
    code.push_back(instruction(2, OpKind::compute, 0, 2, 1));
    for (const bool drain : {true, false}) {
      for (const std::size_t warps : {1u, 2u, 4u}) {
        const std::vector<Code> block(warps, code);
        const std::uint64_t bound =
            warps == 1 ? alone(hw, code, drain) : safe_bound(hw, block).safe_upper_bound;
        for (const CollectorPick p : kPicks) {
          BlockSimulationOptions so;
          so.record_trace = false;
          so.barriers_drain = drain;
          so.collector_pick = p;
          const std::uint64_t simulated = simulate_block(hw, block, kRegisters, so).cycles;
          EXPECT_LE(simulated, bound) << "loads " << loads << " drain " << drain << " warps "
                                      << warps << " pick " << static_cast<int>(p);
          // The result, 5000 cycles after the store's dispatch, is in both.
          EXPECT_GT(simulated, 5000u);
        }
      }
    }
  }
}

}  // namespace
}  // namespace gpuwcet::tools
