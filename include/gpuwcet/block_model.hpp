// Inputs of the multi-phase block analysis (Jeanmougin, Carle, Rochange,
// ECRTS 2025): functional units with initiation interval and latency, and
// per-warp instruction sequences of (unit, destination and source registers).
//
// Timing rule (docs/multiphase.md, "Machine model"): an instruction issued at
// cycle t enters its unit at its *dispatch* cycle d >= t + dispatch_delay,
// keeps the unit's pipeline resource busy during [d, d + initiation) and
// writes its destinations at d + initiation + latency (or d + max(latency,
// initiation) with latency_from_issue). With the defaults (dispatch_delay 0,
// no queue) d = t: the paper's Example 3.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gpuwcet/status.hpp"

namespace gpuwcet {

// 32 so that the presets can give every (pipeline, opcode variant) pair of
// GPGPU-Sim's latency lists its own unit (hardware_presets.hpp).
inline constexpr std::size_t kMaxFunctionalUnits = 32;
inline constexpr std::size_t kMaxDestinations = 4;
inline constexpr std::size_t kMaxSources = 6;
inline constexpr std::size_t kUnitNameSize = 16;
// Pipeline resources (what an initiation interval blocks). Several units may
// share one, e.g. int_add and int_mul both occupy the "int" pipeline.
inline constexpr std::size_t kMaxResources = 32;
// FunctionalUnit::resource value meaning "a resource of its own" (the unit's
// index): the paper's model, one FU = one resource.
inline constexpr std::uint16_t kOwnResource = 0xFFFF;

// FunctionalUnit::flags bit: an instruction's extra_cycles lengthen only its
// hold of the unit, not its result (GPGPU-Sim's shared-memory bank passes, as
// the single-warp traces show them: docs/multiphase.md).
inline constexpr std::uint16_t kUnitExtraHoldsOnly = 1;
// FunctionalUnit::flags bit: results skip HardwareDescription::result_delay
// (GPGPU-Sim's perfect constant cache releases the scoreboard without a
// register-file write-back).
inline constexpr std::uint16_t kUnitSkipsResultDelay = 2;
// FunctionalUnit::flags bit: an instruction whose unit is busy waits in front
// of it (in issue order) while its warp goes on issuing (GPGPU-Sim's
// load/store unit); without it the warp does not issue the instruction
// before the unit can take it dispatch_delay cycles later. Units sharing a
// resource must agree on it.
inline constexpr std::uint16_t kUnitQueuedDispatch = 4;
inline constexpr std::uint16_t kUnitFlagsMask =
    kUnitExtraHoldsOnly | kUnitSkipsResultDelay | kUnitQueuedDispatch;

// A functional unit: after a dispatch its resource accepts nothing else for
// `initiation` cycles; the result is written `latency` cycles after the
// initiation interval ends (or after the dispatch, see latency_from_issue).
struct FunctionalUnit {
  std::array<char, kUnitNameSize> name{};  // NUL-terminated, e.g. "fp32", "mem"
  std::uint32_t initiation = 1;            // >= 1
  std::uint32_t latency = 1;
  std::uint16_t resource = kOwnResource;   // shared pipeline, < kMaxResources
  std::uint16_t flags = 0;                 // kUnit* bits above
};



// What an instruction does besides occupying its unit.
enum class OpKind : std::uint8_t {
  compute = 0,  // ALU/FPU/SFU/tensor work
  load = 1,
  store = 2,
  barrier = 3,  // bar.sync / BAR: ends a barrier section; with barrier_delay >= 1 it may
                // take an issue slot (docs/multiphase.md, "Barriers")
  branch = 4,
  exit = 5,     // ret / EXIT: the warp ends once its results are written (it issues on
                // its unit first when exit_issues)
};

// Most operand-collector units a description may have
// (HardwareDescription::collector_units).
inline constexpr std::uint32_t kMaxCollectorUnits = 64;

// Upper limit of the pipeline timing fields below (keeps cycle sums far from
// 64-bit overflow).
inline constexpr std::uint32_t kMaxPipelineCycles = 1u << 20;

struct HardwareDescription {
  std::size_t unit_count = 0;
  std::array<FunctionalUnit, kMaxFunctionalUnits> units{};
  // Timing of the pipeline around the units (docs/multiphase.md, "Machine
  // model"). The defaults are the paper's model (Example 3): a warp may issue
  // every cycle, an instruction enters its unit when it issues and its result
  // is written initiation + latency later. GPGPU-Sim's SM
  // (hardware_presets.hpp) collects operands for two cycles before an
  // instruction enters its unit, counts a unit's latency from the dispatch
  // and writes back two cycles later.
  std::uint32_t issue_interval = 1;  // >= 1: cycles between two issues of one warp
  std::uint32_t branch_delay = 0;    // further cycles before a warp issues after a (taken) branch
  std::uint32_t result_delay = 0;    // cycles added to every result
  bool latency_from_issue = false;   // result at dispatch + max(latency, initiation)
  std::uint32_t barrier_delay = 0;   // cycles from the last drain to a barrier's release
  std::uint32_t dispatch_delay = 0;  // cycles from an issue to the earliest dispatch
  std::uint32_t launch_delay = 0;  // cycles before a warp's first issue
  // true: an exit takes an issue slot and its unit like a compute
  // instruction before the warp ends at its drain; false: it takes neither.
  bool exit_issues = false;
  // 0: instructions waiting for a queued unit are served in issue order.
  // N > 0: every issued instruction holds one of N operand-collector units
  // until its dispatch, the warp issues only while one is free, and a queued
  // unit serves the instructions waiting for it in any order (GPGPU-Sim's
  // collector units, round-robin; docs/multiphase.md, "Operand collectors").
  // The profiles and the block bounds then bound every order (checked
  // against the simulator under every pick, and against every schedule and
  // order of tiny blocks: tests/tools/test_block_adversary.cpp).
  std::uint32_t collector_units = 0;
};

// The first cycle at which the warp may issue again after issuing an
// instruction of kind `kind` at `issue`.
constexpr std::uint64_t next_issue_cycle(const HardwareDescription& hw, OpKind kind,
                                         std::uint64_t issue) noexcept {
  return issue + hw.issue_interval + (kind == OpKind::branch ? hw.branch_delay : 0);
}

// One dynamic instruction of one warp. Registers are dense ids assigned by
// the reader (a predicate is a source register like any other).
// `unit` is ignored for barrier and exit.
struct Instruction {
  std::uint16_t unit = 0;  // index into HardwareDescription::units
  OpKind kind = OpKind::compute;
  std::uint8_t dst_count = 0;
  std::uint8_t src_count = 0;
  // Cycles this instance keeps its unit busy beyond the unit's initiation
  // interval, and delays its result by as much (unless the unit has
  // kUnitExtraHoldsOnly): the further transactions of an uncoalesced memory
  // access, the further passes of a shared-memory bank conflict.
  std::uint8_t extra_cycles = 0;
  std::array<std::uint16_t, kMaxDestinations> dst{};
  std::array<std::uint16_t, kMaxSources> src{};
};

// Cycles instruction `i` on unit `u` keeps u's resource busy from its
// dispatch.
constexpr std::uint64_t occupancy(const FunctionalUnit& u, const Instruction& i) noexcept {
  return std::uint64_t{u.initiation} + i.extra_cycles;
}

// The cycle at which instruction `i` on unit `u`, dispatched at `dispatch`,
// writes its destinations: the one timing rule shared by the analysis and
// the simulator.
constexpr std::uint64_t result_cycle(const HardwareDescription& hw, const FunctionalUnit& u,
                                     const Instruction& i, std::uint64_t dispatch) noexcept {
  const std::uint64_t span =
      hw.latency_from_issue ? (u.latency > u.initiation ? u.latency : u.initiation)
                            : std::uint64_t{u.initiation} + u.latency;
  const std::uint64_t extra = (u.flags & kUnitExtraHoldsOnly) != 0 ? 0 : i.extra_cycles;
  const std::uint64_t write_back = (u.flags & kUnitSkipsResultDelay) != 0 ? 0 : hw.result_delay;
  return dispatch + span + write_back + extra;
}

// The cycle by which instruction `i`, dispatched at `dispatch`, has completed,
// for the drains of barriers and exits: its result and the end of its hold;
// for a store, the end of its hold plus the write-back cycles, and its
// result too if it writes registers (the readers give stores none, a
// caller may): a drained warp has every register written
// (docs/multiphase.md, "Barriers").
constexpr std::uint64_t completion_cycle(const HardwareDescription& hw, const FunctionalUnit& u,
                                         const Instruction& i, std::uint64_t dispatch) noexcept {
  const std::uint64_t result = result_cycle(hw, u, i, dispatch);
  const std::uint64_t held = dispatch + occupancy(u, i);
  if (i.kind == OpKind::store) {
    const std::uint64_t stored = held + hw.result_delay;
    return i.dst_count != 0 && result > stored ? result : stored;
  }
  return result > held ? result : held;
}

// The earliest issue cycle unit `u`, whose resource is free from
// `resource_free`, allows: any cycle with a queue, else one whose dispatch
// finds it free.
constexpr std::uint64_t unit_allows_issue(const HardwareDescription& hw, const FunctionalUnit& u,
                                          std::uint64_t resource_free) noexcept {
  if ((u.flags & kUnitQueuedDispatch) != 0 || resource_free <= hw.dispatch_delay) return 0;
  return resource_free - hw.dispatch_delay;
}

// The cycle an instruction issued at `issue` enters its unit, whose resource
// is free from `resource_free` (in issue order: earlier instructions of every
// warp have already set it).
constexpr std::uint64_t dispatch_cycle(const HardwareDescription& hw, std::uint64_t issue,
                                       std::uint64_t resource_free) noexcept {
  const std::uint64_t ready = issue + hw.dispatch_delay;
  return ready > resource_free ? ready : resource_free;
}

// Cycles in which instruction `i` on unit `u` can keep another warp's
// instruction from issuing (without a queue) or from entering a unit (with
// one) beyond its own issue slot: its hold, less the issue cycle itself
// without a queue (docs/multiphase.md, "The safe bound").
constexpr std::uint64_t blocking_cycles(const FunctionalUnit& u, const Instruction& i) noexcept {
  return occupancy(u, i) - ((u.flags & kUnitQueuedDispatch) != 0 ? 0 : 1);
}

// The pipeline resource unit `index` occupies.
constexpr std::size_t unit_resource(const HardwareDescription& hw, std::size_t index) noexcept {
  return hw.units[index].resource == kOwnResource ? index : hw.units[index].resource;
}

// Index of the unit called `name`, or -1 when there is none (or name is null).
inline int find_unit(const HardwareDescription& hw, const char* name) noexcept {
  if (name == nullptr) return -1;
  for (std::size_t i = 0; i < hw.unit_count && i < kMaxFunctionalUnits; ++i) {
    if (std::strncmp(hw.units[i].name.data(), name, kUnitNameSize) == 0) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// ok, or invalid_argument for unit_count 0 or > kMaxFunctionalUnits, an
// initiation of 0, a resource >= kMaxResources, unknown unit flags, units of
// one resource that disagree on kUnitQueuedDispatch, an issue interval of 0
// a pipeline timing field above kMaxPipelineCycles or more than
// kMaxCollectorUnits collector units.
inline Status validate(const HardwareDescription& hw) noexcept {
  if (hw.unit_count == 0 || hw.unit_count > kMaxFunctionalUnits) return Status::invalid_argument;
  if (hw.issue_interval == 0 || hw.issue_interval > kMaxPipelineCycles ||
      hw.branch_delay > kMaxPipelineCycles || hw.result_delay > kMaxPipelineCycles ||
      hw.barrier_delay > kMaxPipelineCycles || hw.dispatch_delay > kMaxPipelineCycles ||
      hw.launch_delay > kMaxPipelineCycles || hw.collector_units > kMaxCollectorUnits) {
    return Status::invalid_argument;
  }
  for (std::size_t i = 0; i < hw.unit_count; ++i) {
    if (hw.units[i].initiation == 0) return Status::invalid_argument;
    if ((hw.units[i].flags & ~kUnitFlagsMask) != 0) return Status::invalid_argument;
    if (unit_resource(hw, i) >= kMaxResources) return Status::invalid_argument;
    for (std::size_t j = 0; j < i; ++j) {
      if (unit_resource(hw, j) == unit_resource(hw, i) &&
          ((hw.units[i].flags ^ hw.units[j].flags) & kUnitQueuedDispatch) != 0) {
        return Status::invalid_argument;
      }
    }
  }
  return Status::ok;
}

}  // namespace gpuwcet
