// GPGPU-Sim PTX traces: one line per dynamic warp instruction,
//   warp 0 :  PC=0xa38 (file.ptx:118) @!%p5 ld.param.u64 %rd2, [sym+4];
// ending with "kernel_execution_time : N". Each warp number becomes a warp
// of one block. Operand rules: docs/trace-formats.md.
#include <algorithm>
#include <cstddef>
#include <map>
#include <string>

#include <fmt/format.h>

#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools::detail {

namespace {

// A load (ld/ldu/atom) without a state space: a generic address.
bool generic_access(std::string_view opcode) {
  static constexpr std::string_view kSpaces[] = {"global", "shared", "local", "param",
                                                 "const",  "tex"};
  for (std::string_view space : kSpaces) {
    if (has_component(opcode, space)) return false;
  }
  return true;
}

// Cycles by which a shared-memory result comes later than one of `unit`
// (0 when the description has no "mem_shared" or it is not slower).
std::uint32_t shared_surplus(const HardwareDescription& hw, std::uint16_t unit) {
  const int shared = find_unit(hw, "mem_shared");
  if (shared < 0 || unit >= hw.unit_count) return 0;
  const Instruction none{};
  const std::uint64_t s = result_cycle(hw, hw.units[static_cast<std::size_t>(shared)], none, 0);
  const std::uint64_t m = result_cycle(hw, hw.units[unit], none, 0);
  return s > m ? static_cast<std::uint32_t>(std::min<std::uint64_t>(s - m, 255)) : 0;
}

// PTX special registers: read-only values nothing in the warp produces.
bool special_register(std::string_view name) {
  if (name.find('.') != std::string_view::npos) return true;  // %tid.x, %ctaid.y, ...
  static constexpr std::string_view kSpecial[] = {
      "tid",       "ntid",        "ctaid",        "nctaid",      "laneid",     "warpid",
      "nwarpid",   "smid",        "nsmid",        "gridid",      "clock",      "clock64",
      "globaltimer", "globaltimer_lo", "globaltimer_hi", "lanemask_eq", "lanemask_le",
      "lanemask_lt", "lanemask_ge", "lanemask_gt", "total_smem_size", "dynamic_smem_size",
      "aggr_smem_size", "reserved_smem_offset_begin", "reserved_smem_offset_end",
      "reserved_smem_offset_cap",
  };
  for (std::string_view s : kSpecial) {
    if (name == s) return true;
  }
  auto numbered = [&](std::string_view prefix) {
    if (!starts_with(name, prefix) || name.size() == prefix.size()) return false;
    for (char c : name.substr(prefix.size())) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  return numbered("envreg") || numbered("pm");
}

// Whether every [, { and ( of `s` is closed, by its own kind and in order.
bool brackets_balanced(std::string_view s) {
  std::string open;
  for (const char c : s) {
    if (c == '[' || c == '{' || c == '(') open += c;
    const char opener = c == ']' ? '[' : c == '}' ? '{' : c == ')' ? '(' : '\0';
    if (opener == '\0') continue;
    if (open.empty() || open.back() != opener) return false;
    open.pop_back();
  }
  return open.empty();
}

// Splits at commas outside [], {} and ().
std::vector<std::string_view> split_operands(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '[' || c == '{' || c == '(') ++depth;
    if ((c == ']' || c == '}' || c == ')') && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  const std::string_view last = trim(s.substr(start));
  if (!last.empty() || !out.empty()) out.push_back(last);
  return out;
}

class Reader {
 public:
  Reader(const std::string& name, const HardwareConfig& config, const TraceReadOptions& options)
      : name_(name), config_(config), options_(options), resolver_(config, &classify_ptx) {
    out_.path = name;
    out_.format = TraceFormat::ptx;
  }

  TraceFile run(std::string_view content) {
    LineCursor lines(content);
    lines.report_to(&options_.progress);
    std::string_view raw;
    while (lines.next(raw)) line(raw, lines.line_number());
    return finish();
  }

  // One line of the trace, `number` from 1, without its end of line.
  // Nothing of it is kept past the call (registers and the analysis copy
  // what they keep), so that a trace can be read a chunk at a time.
  void line(std::string_view raw, std::size_t number) {
    if (out_.blocks.empty()) {
      out_.blocks.emplace_back();
      out_.blocks.back().label = "block 0";
    }
    line_ = number;
    const std::string_view text = trim(raw);
    if (text.empty()) return;
    if (starts_with(text, "kernel_execution_time")) {
      execution_time(text);
    } else {
      if (out_.observed_cycles) fail_at(name_, line_, "instruction after kernel_execution_time");
      instruction(text);
    }
  }

  TraceFile finish() {
    if (out_.blocks.empty()) fail_at(name_, line_, "no instruction lines ('warp n : PC=...')");
    BlockTrace& block = out_.blocks.back();
    if (block.warps.empty()) fail_at(name_, line_, "no instruction lines ('warp n : PC=...')");
    for (WarpTrace& w : block.warps) {
      // GPGPU-Sim prints every instruction a warp runs, its ret or exit
      // last: a trace that stops before it was cut short, and the bound
      // covers only what it shows.
      if (w.code.back().kind != OpKind::exit && block.incomplete.empty()) {
        block.incomplete = fmt::format("warp {} ends without ret or exit (line {}): the trace may be "
                                       "cut short",
                                       w.warp_id, w.lines.back());
      }
      // A guarded ret or exit (its guard a source) ends the lanes whose
      // guard holds; the others, if any, went on past the trace's end.
      if (w.code.back().kind == OpKind::exit && w.code.back().src_count != 0 &&
          block.incomplete.empty()) {
        block.incomplete = fmt::format("warp {} ends with a guarded ret or exit (line {}): lanes "
                                       "whose guard fails went on, and the trace may be cut short",
                                       w.warp_id, w.lines.back());
      }
      finish_warp(w, config_.hw, name_);
    }
    // A launch shape with more warps than the trace shows: the block's
    // other warps ran too, and the bound would leave them out.
    const BlockShape& shape = options_.block_shape;
    if (shape.known() && block.incomplete.empty()) {
      const std::uint64_t threads = std::uint64_t{shape.x} * shape.y * shape.z;
      const std::uint64_t warps = (threads + 31) / 32;
      if (block.warps.size() < warps) {
        block.incomplete = fmt::format("the trace shows {} of the {} warps of a block of {} threads "
                                       "(--block-dim)",
                                       block.warps.size(), warps, threads);
      }
    }
    for (std::size_t k = 0; k < lanes_.size(); ++k) {
      if (!lanes_[k].flow_left().empty()) {
        out_.notes.push_back(fmt::format("warp {}: join points followed up to {}; from there on, "
                                         "lanes may join at any label",
                                         block.warps[k].warp_id, lanes_[k].flow_left()));
      }
    }
    out_.register_count = registers_.size();
    return std::move(out_);
  }

 private:
  void execution_time(std::string_view line) {
    if (out_.observed_cycles) fail_at(name_, line_, "kernel_execution_time given twice");
    const std::size_t colon = line.find(':');
    const auto v = colon == std::string_view::npos
                       ? std::nullopt
                       : parse_uint(trim(line.substr(colon + 1)), ~std::uint64_t{0});
    if (!v) fail_at(name_, line_, fmt::format("expected 'kernel_execution_time : N', got '{}'", line));
    out_.observed_cycles = *v;
  }

  std::uint16_t reg(std::string_view name) {
    return registers_.id(name, name_, line_);
  }

  // Every non-special register named in an operand.
  void registers_in(std::string_view operand, bool dst, OperandSet& ops) {
    for (std::size_t i = 0; i < operand.size(); ++i) {
      if (operand[i] != '%') continue;
      std::size_t end = i + 1;
      while (end < operand.size() && ptx_ident_char(operand[end])) ++end;
      const std::string_view name = operand.substr(i + 1, end - i - 1);
      if (name.empty()) fail_at(name_, line_, fmt::format("'%' without a register name in '{}'", operand));
      if (!special_register(name)) {
        const std::uint16_t r = reg(operand.substr(i, end - i));
        if (dst) {
          ops.add_dst(r);
        } else {
          ops.add_src(r);
        }
      }
      i = end - 1;
    }
  }

  void instruction(std::string_view line) {
    // "warp N :"
    split_ws(line.substr(0, std::min<std::size_t>(line.size(), 64)), head_);
    const std::vector<std::string_view>& head = head_;
    if (head.size() < 2 || head[0] != "warp") {
      fail_at(name_, line_, fmt::format("expected 'warp n : PC=0x... instruction;', got '{}'", line));
    }
    std::string_view number = head[1];
    if (!number.empty() && number.back() == ':') number.remove_suffix(1);
    const auto warp = parse_uint(number, 0xFFFFFFFFu);
    if (!warp) fail_at(name_, line_, fmt::format("bad warp number '{}'", head[1]));
    std::size_t pos = line.find(':');
    if (pos == std::string_view::npos) fail_at(name_, line_, "missing ':' after the warp number");
    std::string_view rest = trim(line.substr(pos + 1));
    if (!starts_with(rest, "PC=")) fail_at(name_, line_, "missing 'PC=0x...' after 'warp n :'");
    std::size_t pc_end = 3;
    while (pc_end < rest.size() && rest[pc_end] != ' ' && rest[pc_end] != '\t') ++pc_end;
    std::string_view pc_text = rest.substr(3, pc_end - 3);
    if (starts_with(pc_text, "0x") || starts_with(pc_text, "0X")) pc_text.remove_prefix(2);
    const auto pc_value = parse_uint(pc_text, ~std::uint64_t{0}, 16);
    if (!pc_value) fail_at(name_, line_, fmt::format("bad PC '{}'", rest.substr(0, pc_end)));
    const std::uint64_t pc = *pc_value;
    rest = trim(rest.substr(pc_end));
    TraceLocation where{pc, {}, 0, {}};
    if (starts_with(rest, "(")) {  // (file.ptx:line)
      const std::size_t close = rest.find(')');
      if (close == std::string_view::npos) fail_at(name_, line_, "unclosed '(' of the source location");
      const std::string_view source = rest.substr(1, close - 1);
      const std::size_t colon = source.rfind(':');
      if (colon != std::string_view::npos) {
        // An unreadable line number reads as unknown: every instruction may
        // then follow a label.
        where.file = source.substr(0, colon);
        where.line = parse_uint(source.substr(colon + 1), ~std::uint64_t{0}).value_or(0);
      }
      rest = trim(rest.substr(close + 1));
    }
    const std::size_t semi = rest.find(';');
    if (semi == std::string_view::npos) fail_at(name_, line_, "instruction without its ';'");
    if (!trim(rest.substr(semi + 1)).empty()) fail_at(name_, line_, "text after the instruction's ';'");
    rest = trim(rest.substr(0, semi));
    where.text = rest;

    OperandSet ops;
    std::string_view guard_text;
    if (starts_with(rest, "@")) {  // guard predicate @%p or @!%p: a source
      std::size_t end = 1;
      while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t') ++end;
      const std::string_view guard = rest.substr(0, end);
      if (guard.find('%') == std::string_view::npos) {
        fail_at(name_, line_, fmt::format("bad guard predicate '{}'", guard));
      }
      registers_in(guard, false, ops);
      guard_text = guard;
      rest = trim(rest.substr(end));
    }
    const std::size_t op_end = ptx_opcode_length(rest);
    const std::string_view opcode = rest.substr(0, op_end);
    if (opcode.empty()) fail_at(name_, line_, "missing opcode");
    // A type picks the unit and an access's width: one PTX does not have
    // (".u35") must not pass as a 4-byte integer.
    if (const std::string_view bad = unknown_ptx_type(opcode); !bad.empty()) {
      fail_at(name_, line_, fmt::format("'{}' in '{}' is not a PTX type", bad, opcode));
    }
    // An operand cut short ("[%rd4+8" without its "]") would run into the
    // next one and be read as other registers.
    if (!brackets_balanced(rest.substr(op_end))) {
      fail_at(name_, line_, fmt::format("unbalanced brackets in the operands of '{}'", rest));
    }
    const std::vector<std::string_view> operands = split_operands(rest.substr(op_end));
    const bool first_is_dst = !ptx_writes_nothing(opcode) && !operands.empty() &&
                              !starts_with(operands.front(), "[");
    for (std::size_t k = 0; k < operands.size(); ++k) {
      if (operands[k].empty()) fail_at(name_, line_, "empty operand");
      registers_in(operands[k], first_is_dst && k == 0, ops);
    }
    const auto [unit, kind] = resolver_.resolve(opcode, name_, line_);
    auto [it, added] = index_.emplace(*warp, out_.blocks.back().warps.size());
    if (added) {
      WarpTrace w;
      w.warp_id = static_cast<std::uint32_t>(*warp);
      out_.blocks.back().warps.push_back(std::move(w));
      lanes_.emplace_back(options_.block_shape);
      lanes_.back().follow(options_.control_flow);
      last_pc_.push_back(0);
    }
    WarpTrace& w = out_.blocks.back().warps[it->second];
    // Registers as affine functions of the thread index give each memory
    // access its transactions / bank passes (lane_values.hpp).
    AccessCost cost;
    try {
      cost = lanes_[it->second].step(opcode, guard_text, operands, where);
    } catch (const PtxFileMismatch& e) {
      throw PtxFileMismatch(fmt::format("{}:{}: {}", name_, line_, e.what()));
    } catch (const ToolError& e) {
      fail_at(name_, line_, e.what());
    }
    Instruction ins = make_instruction(unit, kind, ops, name_, line_);
    ins.extra_cycles = extra_cycles_for(config_, unit, cost.passes);
    if (kind == OpKind::load && generic_access(opcode)) {
      // A generic address may point to shared memory: wait at least as long
      // as a shared-memory load would (the access is costed as global, whose
      // sectors outnumber its bank passes).
      ins.extra_cycles = static_cast<std::uint8_t>(
          std::min<std::uint32_t>(255, ins.extra_cycles + shared_surplus(config_.hw, unit)));
    }
    w.code.push_back(ins);
    resolve_taken_branch(w, pc, last_pc_[it->second], kPtxInstructionBytes);
    w.lines.push_back(static_cast<std::uint32_t>(line_));
  }

  const std::string& name_;
  const HardwareConfig& config_;
  const TraceReadOptions& options_;
  OpcodeResolver resolver_;
  std::vector<LaneValueAnalysis> lanes_;  // per warp, as index_ numbers them
  std::vector<std::uint64_t> last_pc_;     // per warp: address of its last instruction
  RegisterMap registers_;
  std::vector<std::string_view> head_;  // words opening the current line, storage reused
  TraceFile out_;
  std::size_t line_ = 0;
  std::map<std::uint64_t, std::size_t> index_;  // warp number -> index in the block
};

}  // namespace

TraceFile read_ptx_trace(const std::string& name, std::string_view content,
                         const HardwareConfig& config, const TraceReadOptions& options) {
  return Reader(name, config, options).run(content);
}

TraceFile read_ptx_lines(const std::string& name, const LineSource& source,
                         const HardwareConfig& config, const TraceReadOptions& options) {
  Reader reader(name, config, options);
  return read_lines_with(reader, source);
}

}  // namespace gpuwcet::tools::detail
