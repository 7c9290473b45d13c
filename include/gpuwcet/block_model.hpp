// Inputs of the multi-phase block analysis (Jeanmougin, Carle, Rochange,
// ECRTS 2025): functional units with initiation interval and latency, and
// per-warp instruction sequences of (unit, destination and source registers).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace gpuwcet {

inline constexpr std::size_t kMaxFunctionalUnits = 16;
inline constexpr std::size_t kMaxDestinations = 4;
inline constexpr std::size_t kMaxSources = 6;
inline constexpr std::size_t kUnitNameSize = 16;

// A functional unit: after an issue it accepts nothing else for `initiation`
// cycles; the result is written `latency` cycles after the issue.
struct FunctionalUnit {
  std::array<char, kUnitNameSize> name{};  // NUL-terminated, e.g. "fp32", "mem"
  std::uint32_t initiation = 1;
  std::uint32_t latency = 1;
};

struct HardwareDescription {
  std::size_t unit_count = 0;
  std::array<FunctionalUnit, kMaxFunctionalUnits> units{};
};

// What an instruction does besides occupying its unit.
enum class OpKind : std::uint8_t {
  compute = 0,  // ALU/FPU/SFU/tensor work
  load = 1,
  store = 2,
  barrier = 3,  // bar.sync / BAR: ends a barrier section of the block
  branch = 4,
  exit = 5,     // ret / EXIT
};

// One dynamic instruction of one warp. Registers are dense ids assigned by
// the reader (a predicate is a source register like any other).
struct Instruction {
  std::uint16_t unit = 0;  // index into HardwareDescription::units
  OpKind kind = OpKind::compute;
  std::uint8_t dst_count = 0;
  std::uint8_t src_count = 0;
  std::array<std::uint16_t, kMaxDestinations> dst{};
  std::array<std::uint16_t, kMaxSources> src{};
};

}  // namespace gpuwcet
