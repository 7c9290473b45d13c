// Algorithm 1 of Jeanmougin, Carle, Rochange (ECRTS 2025): one warp's
// sequence of execution and idle phases, from its instruction sequence and
// the functional-unit table, and per-barrier-section summaries from which a
// block bound is a cheap query (block_bound.hpp).
//
// Machine (docs/multiphase.md): the warp issues in order, at most one
// instruction per cycle. Instruction i issues at the first cycle t with
//   t >= issue(i-1) + 1,
//   t >= ready(r) for every source and destination register r (scoreboard,
//        RAW and WAW),
//   t >= available(resource of i's unit);
// then available(resource) = t + initiation and ready(dst) = the result cycle
// (result_cycle() in block_model.hpp).
// A cycle is an execution cycle when some issued instruction of the warp
// holds its resource in it ([t, t + initiation)); every other cycle up to the
// end of the section is idle (the warp waits for a result). A barrier ends the
// section once every result is written; exit ends the warp likewise. Neither
// takes an issue slot. This reproduces the paper's Example 3 (Fig. 2).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <gsl/span>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

enum class PhaseKind : std::uint8_t { execution = 0, idle = 1 };

struct Phase {
  std::uint64_t start = 0;   // cycle from the warp's start (section starts are drains)
  std::uint64_t length = 0;  // > 0
  PhaseKind kind = PhaseKind::execution;
  std::uint32_t section = 0;  // barrier section it belongs to
};

// What a block bound needs of one warp in one barrier section. The bound is
// safe for summaries profile_warp makes from the same description;
// block_bound checks their consistency only, not that they are so made.
struct SectionSummary {
  // Section start to its drain when the warp runs alone (the sum of its
  // phases), plus, with collector units, the holds of its own queued
  // instructions (any service order: docs/multiphase.md).
  std::uint64_t length = 0;
  std::uint64_t execution = 0;   // cycles in execution phases
  std::uint64_t idle = 0;        // cycles in idle phases
  // Issue slots it may take from other warps: one per instruction
  // (dispatch_delay each when collector_units <= dispatch_delay), and as
  // many for the barrier that ends the section when barrier_delay >= 1 (a
  // barrier that may take an issue slot).
  std::uint64_t issues = 0;
  // Bit r: some instruction used resource r; with collector units, every
  // queued resource once the warp issues anything.
  std::uint32_t resource_mask = 0;
  std::uint32_t phase_count = 0;
  // held[r]: sum over the section's instructions on resource r of their
  // blocking cycles (block_model.hpp): initiation + extra - 1 on a unit
  // without a queue (after the issue cycle), initiation + extra on a queued
  // one (its whole hold).
  std::array<std::uint64_t, kMaxResources> held{};
};

struct ProfileResult {
  std::uint64_t total_cycles = 0;  // warp start to the drain after its last instruction
  std::size_t phase_count = 0;     // phases produced (all of them, even if not stored)
  std::size_t section_count = 0;   // barriers executed + 1
  std::size_t instructions = 0;    // instructions consumed (up to and including exit)
};

// With collector units, the queued instructions the analysis follows one by
// one at once (docs/multiphase.md, "Operand collectors"); beyond that their
// resource falls back on the order-free bound alone until the next drain.
// Load-heavy loops keep many queued instructions whose wait may still matter
// (an unrolled loop of 32 loads: a real trace's bound is 2.1x smaller with
// 128 than with 16), at the price of arena bytes and time per issue.
inline constexpr std::size_t kCollectorQueueWindow = 128;

// Register ids are 16-bit (Instruction::dst, src): no instruction can name
// more registers, and a larger count would only size an arena nobody uses.
inline constexpr std::size_t kMaxRegisterCount = std::size_t{1} << 16;

// Arena bytes profile_warp needs for register ids below `register_count`
// (any alignment accepted): three words per register, and the state of the
// collector units (HardwareDescription::collector_units), about 27 KiB, kept
// out of the stack. 0 when register_count > kMaxRegisterCount.
std::size_t profile_arena_bytes(std::size_t register_count) noexcept;

// Runs Algorithm 1 on `instructions` (stopping after the first exit), in time
// linear in instructions + register_count.
// - `phases` may be empty: phases are then only counted. Otherwise phases
//   beyond its size are counted, not stored, and the call returns
//   buffer_too_small after filling everything else.
// - `sections` receives one summary per barrier section; too few entries
//   give buffer_too_small (result.section_count says how many are needed).
//   Empty `sections` is a sizing call: everything is counted, nothing is
//   stored, and the call returns buffer_too_small with `result` filled.
// Returns invalid_argument for an invalid `hw` (validate()), not_found when
// an instruction names a unit >= hw.unit_count, invalid_argument for
// register_count > kMaxRegisterCount, a register id >= register_count or a
// dst/src count above its array,
// buffer_too_small for a small arena, phases or sections, overflow when a
// cycle count leaves 2^62.
[[nodiscard]] Status profile_warp(const HardwareDescription& hw,
                                  gsl::span<const Instruction> instructions,
                                  std::size_t register_count, gsl::span<std::byte> arena,
                                  gsl::span<Phase> phases, gsl::span<SectionSummary> sections,
                                  ProfileResult& result) noexcept;

// Cycles from the warp's start to its last result written when it runs
// alone: the exact time of a block of this one warp without collector units,
// and with them a bound over every order in which the queued units serve
// (docs/multiphase.md, "Operand collectors"). With `barriers_drain`
// this is profile_warp's total_cycles; without, each barrier lets the warp
// pass barrier_delay cycles after it is free to issue, with its results
// pending (GPGPU-Sim's bar.sync; docs/multiphase.md, "Barriers that do not
// drain"). The block bounds of block_bound.hpp assume draining barriers and
// are safe for both machines. Same arena and errors as profile_warp; `cycles`
// is set only on success.
[[nodiscard]] Status warp_alone_cycles(const HardwareDescription& hw,
                                       gsl::span<const Instruction> instructions,
                                       std::size_t register_count, gsl::span<std::byte> arena,
                                       bool barriers_drain, std::uint64_t& cycles) noexcept;

}  // namespace gpuwcet
