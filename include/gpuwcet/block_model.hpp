// Inputs of the multi-phase block analysis (Jeanmougin, Carle, Rochange,
// ECRTS 2025): functional units with initiation interval and latency, and
// per-warp instruction sequences of (unit, destination and source registers).
//
// Timing rule (docs/multiphase.md, reproduces the paper's Example 3): an
// instruction issued at cycle t on unit u keeps u's pipeline resource busy
// during [t, t + initiation) and writes its destinations at
// t + initiation + latency.
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

// A functional unit: after an issue its resource accepts nothing else for
// `initiation` cycles; the result is written `latency` cycles after the
// initiation interval ends.
struct FunctionalUnit {
  std::array<char, kUnitNameSize> name{};  // NUL-terminated, e.g. "fp32", "mem"
  std::uint32_t initiation = 1;            // >= 1
  std::uint32_t latency = 1;
  std::uint16_t resource = kOwnResource;   // shared pipeline, < kMaxResources
};



// What an instruction does besides occupying its unit.
enum class OpKind : std::uint8_t {
  compute = 0,  // ALU/FPU/SFU/tensor work
  load = 1,
  store = 2,
  barrier = 3,  // bar.sync / BAR: ends a barrier section of the block; takes no issue slot
  branch = 4,
  exit = 5,     // ret / EXIT: the warp ends once its results are written; takes no issue slot
};

// Upper limit of the pipeline timing fields below (keeps cycle sums far from
// 64-bit overflow).
inline constexpr std::uint32_t kMaxPipelineCycles = 1u << 20;

struct HardwareDescription {
  std::size_t unit_count = 0;
  std::array<FunctionalUnit, kMaxFunctionalUnits> units{};
  // Timing of the pipeline around the units (docs/multiphase.md, "Machine
  // model"). The defaults are the paper's model (Example 3): a warp may issue
  // every cycle and a result is written initiation + latency after the issue.
  // GPGPU-Sim's SM (hardware_presets.hpp) fetches and decodes a warp's
  // instructions in pairs, flushes the fetched ones on a branch, counts a
  // unit's latency from the issue and adds operand collection and write-back.
  std::uint32_t issue_interval = 1;  // >= 1: cycles between two issues of one warp
  std::uint32_t branch_delay = 0;    // further cycles before a warp issues after a branch
  std::uint32_t result_delay = 0;    // cycles added to every result
  bool latency_from_issue = false;   // result at issue + max(latency, initiation)
  std::uint32_t barrier_delay = 0;   // cycles from the last drain to a barrier's release
};

// The cycle at which an instruction of unit `u` issued at `issue` writes its
// destinations: the one timing rule shared by the analysis and the simulator.
constexpr std::uint64_t result_cycle(const HardwareDescription& hw, const FunctionalUnit& u,
                                     std::uint64_t issue) noexcept {
  const std::uint64_t span =
      hw.latency_from_issue ? (u.latency > u.initiation ? u.latency : u.initiation)
                            : std::uint64_t{u.initiation} + u.latency;
  return issue + span + hw.result_delay;
}

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
  std::array<std::uint16_t, kMaxDestinations> dst{};
  std::array<std::uint16_t, kMaxSources> src{};
};

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
// initiation of 0, a resource >= kMaxResources, an issue interval of 0 or a
// pipeline timing field above kMaxPipelineCycles.
inline Status validate(const HardwareDescription& hw) noexcept {
  if (hw.unit_count == 0 || hw.unit_count > kMaxFunctionalUnits) return Status::invalid_argument;
  if (hw.issue_interval == 0 || hw.issue_interval > kMaxPipelineCycles ||
      hw.branch_delay > kMaxPipelineCycles || hw.result_delay > kMaxPipelineCycles ||
      hw.barrier_delay > kMaxPipelineCycles) {
    return Status::invalid_argument;
  }
  for (std::size_t i = 0; i < hw.unit_count; ++i) {
    if (hw.units[i].initiation == 0) return Status::invalid_argument;
    if (unit_resource(hw, i) >= kMaxResources) return Status::invalid_argument;
  }
  return Status::ok;
}

}  // namespace gpuwcet
