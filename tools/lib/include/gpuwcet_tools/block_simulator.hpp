// Reference cycle-level simulator of one thread block on one SM, for the
// multi-phase analysis (block_bound.hpp). Same machine as phase_profile.hpp
// (docs/multiphase.md, "Machine model"): the SM issues at most one
// instruction per cycle, each warp in order; a per-warp scoreboard on
// registers; pipeline resources shared by all warps of the block, entered in
// issue order and each busy for an instruction's occupancy; results written
// by the rule of block_model.hpp; at a barrier every warp waits, drained,
// until all have arrived. The warp scheduler is work-conserving: a cycle in
// which some warp can issue always issues one. Several blocks can share the
// SM (BlockSimulationOptions::block_of): one scheduler and one set of units,
// each block passing its own barriers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet/phase_profile.hpp"

namespace gpuwcet::tools {

enum class SchedulerPolicy {
  greedy_then_oldest,  // GTO: keep the last warp while it can issue, else the lowest id
  loose_round_robin,   // LRR: first ready warp after the last one issued
  random,              // a uniformly drawn ready warp (seeded)
  // Stress schedules, not schedulers a GPU runs: the ready warp whose next
  // instruction blocks the fewest cycles after its issue (blocking_cycles,
  // with a queued unit's counted as none). Issuing the work that blocks
  // nobody first leaves the instructions that hold a pipeline resource for
  // later, when every warp may be waiting for that resource and no issue
  // hides the hold. Ties: the lowest id (defer_holds) or the warp furthest
  // behind in its code (fewest instructions issued and barriers passed),
  // then the lowest id (defer_holds_balanced,
  // which keeps the warps abreast so that they reach such stretches
  // together). docs/multiphase.md, "Tightness".
  defer_holds,
  defer_holds_balanced,
};

struct IssueEvent {
  std::uint32_t warp = 0;
  std::uint32_t index = 0;  // position in the warp's instruction sequence
  std::uint64_t cycle = 0;     // issue
  std::uint64_t dispatch = 0;  // entry into its unit
};

// How a queued unit behind collector units picks the next instruction to
// serve among those whose operands are collected. The analysis bounds every
// order; the simulator takes GPGPU-Sim's unless told otherwise.
enum class CollectorPick {
  round_robin,  // GPGPU-Sim: round-robin over the collector units
  random,       // uniformly (collector_seed)
  oldest,       // issue order
  newest,       // the last issued first
  longest,      // the largest occupancy first (ties: the newest)
  shortest,     // the smallest occupancy first (ties: the newest)
};

struct BlockSimulationOptions {
  CollectorPick collector_pick = CollectorPick::round_robin;
  std::uint64_t collector_seed = 1;
  // When set, called with the number (>= 2) of candidates, in issue order,
  // and returns the index to pick; overrides collector_pick (exhaustive
  // searches over orders).
  std::function<std::size_t(std::size_t)> collector_chooser;
  SchedulerPolicy policy = SchedulerPolicy::greedy_then_oldest;
  // When set, called in every cycle where two or more warps can issue with
  // their indices (ascending), and returns the position of the one to issue;
  // overrides `policy` (adversarial and exhaustive searches over schedules,
  // all of them work-conserving).
  std::function<std::size_t(const std::vector<std::size_t>&)> issue_chooser;
  std::uint64_t seed = 1;     // for SchedulerPolicy::random
  // When set, every choice the run makes is appended to it, in the order
  // the two choosers would be asked: the position of the warp issued among
  // the ready ones (when two or more are), and of the instruction a queued
  // unit picks among the arrived ones (when two or more have). Handing
  // these positions back through the choosers replays the run
  // (schedule_search.hpp starts from a policy's schedule that way).
  std::vector<std::uint32_t>* record_choices = nullptr;
  bool record_trace = true;
  // false: a warp reaches a barrier as soon as it is free to issue, its
  // results still pending, and the block is released barrier_delay cycles
  // after the last arrival (GPGPU-Sim's bar.sync). The analysis assumes
  // draining barriers; its safe bound also holds for this machine
  // (docs/multiphase.md, "Barriers that do not drain").
  bool barriers_drain = true;
  // true: a barrier issues like an instruction, taking one cycle's issue
  // slot, and the warp is at the barrier from that cycle on (GPGPU-Sim's
  // bar.sync); false: it takes no slot. Needs barrier_slot_covered(hw).
  bool barrier_issues = false;
  // Several blocks sharing the SM (the co-resident blocks of
  // docs/kernel-wcet.md): when not empty, block_of[w] is warp w's block and
  // a barrier waits for the warps of its own block only. Every warp of a
  // block executes the same number of barriers; blocks may differ. Empty:
  // all warps form one block.
  std::vector<std::uint32_t> block_of;
  // At most resident_blocks blocks run at once (0: all of them). Blocks are
  // dispatched in block order: the first resident_blocks at the launch, each
  // later one into the slot of a running block once that block is known to
  // end (its warps have issued their last instruction and its queued ones
  // are served), as running blocks become known to end, which need not be
  // the order in which they end (A2 of docs/kernel-wcet.md allows any
  // order). Block b starts block_delay[b] cycles after its slot is free (the
  // launch, or the end of the block before it: its last result written),
  // its warps issuing from launch_delay after that (block_delay empty: 0).
  // Every block number below the largest in block_of must have a warp.
  std::size_t resident_blocks = 0;
  std::vector<std::uint64_t> block_delay;
};

// Whether a barrier may take an issue slot on `hw` (validated: issue_interval
// >= 1): the warp's own slot then lies within barrier_delay, and a nonzero
// barrier_delay makes the summaries charge the slot to the other warps
// (docs/multiphase.md, "Barriers").
inline bool barrier_slot_covered(const HardwareDescription& hw) {
  return hw.barrier_delay >= hw.issue_interval;
}

struct BlockSimulation {
  std::uint64_t cycles = 0;                 // the last warp's last result written
  std::vector<std::uint64_t> warp_end;      // per warp: its last result written
  std::vector<std::uint64_t> releases;      // cycle each barrier released the block (block 0's)
  std::vector<IssueEvent> trace;            // in issue order (if recorded)
  // Cycles the simulation stopped at: its work, which follows the issues,
  // dispatches and releases, not the number of cycles they span.
  std::uint64_t steps = 0;
};

// Simulates `warps` (register ids below register_count). Throws
// std::invalid_argument for an invalid description, an unknown unit, a
// register out of range, warps of a block that do not all execute the same
// number of barriers, or block_of / block_delay not matching the warps (a
// block number without warps).
BlockSimulation simulate_block(const HardwareDescription& hw,
                               const std::vector<std::vector<Instruction>>& warps,
                               std::size_t register_count, const BlockSimulationOptions& options);

// Execution and idle phases of warp `warp` in a recorded simulation, by the
// rule of phase_profile.hpp (execution = some issued instruction has not yet
// left its unit's initiation interval); the wait at a barrier after the
// drain counts as idle (a barrier passed with results pending leaves the
// phases running). For a block of one warp with draining barriers this
// equals profile_warp's phases.
std::vector<Phase> simulated_phases(const HardwareDescription& hw,
                                    const std::vector<Instruction>& instructions,
                                    const BlockSimulation& sim, std::uint32_t warp);

}  // namespace gpuwcet::tools
