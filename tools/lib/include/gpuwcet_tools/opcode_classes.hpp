// Built-in opcode classification of the trace readers: which preset unit
// (hardware_presets.hpp, plus "alu") an opcode issues to and what kind of
// instruction it is. Tables and reasons: docs/trace-formats.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "gpuwcet/block_model.hpp"

namespace gpuwcet::tools {

struct OpcodeClass {
  std::string unit;  // empty for barrier and exit
  OpKind kind = OpKind::compute;
};

// SASS opcodes of Accel-Sim traces ("FFMA", "IMAD.WIDE", "LDG.E", ...),
// by their base name (the part before the first '.') and a few modifiers.
std::optional<OpcodeClass> classify_sass(std::string_view opcode);

// PTX opcodes of GPGPU-Sim traces ("add.s32", "fma.rn.f32", "ld.global.u8"),
// following GPGPU-Sim's latency lists: index 0 add/sub, 1 max/min, 2 mul,
// 3 mad/fma, 4 div (on the SFU); f32 -> fp_*, f64 -> dp_*, other -> int_*.
std::optional<OpcodeClass> classify_ptx(std::string_view opcode);

// Native trace opcodes: a unit name of the presets ("fp_mad", "alu"),
// "load", "store", "branch", "barrier", "exit"; otherwise the PTX, then the
// SASS classification.
std::optional<OpcodeClass> classify_native(std::string_view opcode);

// Whether a '.'-separated component of `opcode` equals `part`
// ("ld.global.u8", "global" -> true).
bool has_component(std::string_view opcode, std::string_view part);

// PTX opcodes ("st.global.u32", "bra", ...) whose operands are all read: no
// destination operand (bar.red and barrier.red do write one).
bool ptx_writes_nothing(std::string_view opcode);

// "barrier"/"exit" -> that kind with no unit; anything else is a unit name
// whose kind is guessed from the unit ("mem" -> load, "branch" -> branch).
OpcodeClass opcode_class_from_name(std::string_view unit_or_kind);

}  // namespace gpuwcet::tools
