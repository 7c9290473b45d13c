// The native trace format: a plain-text, line-oriented description of thread
// blocks for hand-written examples and tests.
//   kernel <name>
//   block <label>
//   warp <n>
//   <opcode> <dst>... [, <src>...]        # comment
// Format: docs/trace-formats.md, example examples/traces/.
#include <cstddef>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools::detail {

namespace {

bool register_name(std::string_view t) {
  if (t.empty() || (t[0] >= '0' && t[0] <= '9') || t[0] == '-' || t[0] == '+') return false;
  for (char c : t) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '%' || c == '$' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// The first word of a trimmed line.
std::string_view first_word(std::string_view text) {
  return text.substr(0, find_one_of(text, " \t"));
}

// Lines from `pos` up to the next kernel/block/warp line: at least the
// instructions of the warp that starts there, to size its arrays once.
std::size_t lines_of_warp(std::string_view content, std::size_t pos) {
  // A last line without its newline leaves the cursor one past the end.
  if (pos >= content.size()) return 0;
  LineCursor lines(content.substr(pos));
  std::string_view raw;
  std::size_t n = 0;
  while (lines.next(raw)) {
    const std::string_view w = first_word(trim(raw));
    if (w == "warp" || w == "block" || w == "kernel") break;
    ++n;
  }
  return n;
}

}  // namespace

TraceFile read_native_trace(const std::string& name, std::string_view content,
                            const HardwareConfig& config, const TraceReadOptions& options) {
  TraceFile out;
  out.path = name;
  out.format = TraceFormat::native;
  OpcodeResolver resolver(config, &classify_native, true);
  RegisterMap registers;
  std::set<std::uint64_t> warp_ids;
  std::map<std::string, std::size_t> labels;  // a block's label (coordinates normalised) -> its line
  bool have_kernel = false;
  std::size_t block_line = 0;

  auto close_block = [&](std::size_t line) {
    if (out.blocks.empty()) return;
    if (out.blocks.back().warps.empty()) fail_at(name, block_line, "block without warps");
    for (WarpTrace& w : out.blocks.back().warps) {
      if (w.code.empty()) fail_at(name, line, fmt::format("warp {} has no instructions", w.warp_id));
      finish_warp(w, config.hw, name);
    }
    block_read(out, registers.size(), options);
  };
  auto open_block = [&](std::string label, std::size_t line) {
    close_block(line);
    out.blocks.emplace_back();
    out.blocks.back().label = std::move(label);
    warp_ids.clear();
    block_line = line;
  };

  LineCursor lines(content);
  lines.report_to(&options.progress);
  std::string_view raw;
  std::size_t line = 0;
  while (lines.next(raw)) {
    line = lines.line_number();
    std::string_view text = raw;
    const std::size_t hash = text.find('#');
    if (hash != std::string_view::npos) text = text.substr(0, hash);
    text = trim(text);
    if (text.empty()) continue;
    const std::string_view word0 = first_word(text);
    if (word0 == "kernel") {
      if (have_kernel) fail_at(name, line, "kernel named twice");
      if (!out.blocks.empty()) fail_at(name, line, "'kernel' must come before the first block");
      const std::vector<std::string_view> words = split_ws(text);
      if (words.size() != 2) fail_at(name, line, "expected 'kernel <name>'");
      out.kernel = std::string(words[1]);
      have_kernel = true;
    } else if (word0 == "block") {
      const std::string_view given = trim(text.substr(5));
      // An unlabelled block is labelled by its index.
      const std::string label = given.empty() ? std::to_string(out.blocks.size()) : std::string(given);
      // --block picks a block by its label: two blocks with one label
      // (coordinates compared as numbers, an index label included) would
      // make that ambiguous.
      const auto coords = block_coordinates(label);
      const auto [first, fresh] = labels.emplace(coords ? *coords : label, line);
      if (!fresh) {
        fail_at(name, line,
                fmt::format("block label '{}' given twice (first at line {}){}", label, first->second,
                            given.empty() ? ": this unlabelled block takes its index as its label; "
                                            "give it another"
                                          : ""));
      }
      open_block("block " + label, line);
    } else if (word0 == "warp") {
      const std::vector<std::string_view> words = split_ws(text);
      const auto n = words.size() == 2 ? parse_uint(words[1], 0xFFFFFFFFu) : std::nullopt;
      if (!n) fail_at(name, line, "expected 'warp <n>' with n a warp number");
      if (out.blocks.empty()) {
        labels.emplace(*block_coordinates("0"), line);
        open_block("block 0", line);
      }
      if (!warp_ids.insert(*n).second) {
        fail_at(name, line, fmt::format("warp {} appears twice in this block", *n));
      }
      WarpTrace w;
      w.warp_id = static_cast<std::uint32_t>(*n);
      const std::size_t capacity = lines_of_warp(content, lines.position());
      w.code.reserve(capacity);
      w.lines.reserve(capacity);
      out.blocks.back().warps.push_back(std::move(w));
    } else {
      if (out.blocks.empty() || out.blocks.back().warps.empty()) {
        fail_at(name, line, "instruction outside a warp (start one with 'warp <n>')");
      }
      // Destinations, then after the first comma the sources; later commas
      // separate like blanks.
      const std::size_t op_end = find_one_of(text, " \t,");
      std::string_view opcode = text.substr(0, op_end);
      // "load+31": 31 extra cycles on the unit (further transactions, bank
      // passes: Instruction::extra_cycles).
      std::uint8_t extra = 0;
      if (const std::size_t plus = opcode.find('+'); plus != std::string_view::npos) {
        const auto n = parse_uint(opcode.substr(plus + 1), 255);
        if (!n) {
          fail_at(name, line,
                  fmt::format("bad extra cycles in '{}' (expected opcode+N, N up to 255)", opcode));
        }
        extra = static_cast<std::uint8_t>(*n);
        opcode = opcode.substr(0, plus);
      }
      std::string_view rest = op_end == std::string_view::npos ? std::string_view{} : text.substr(op_end);
      const std::size_t comma = rest.find(',');
      const std::string_view src_part =
          comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      const std::string_view dst_part = comma == std::string_view::npos ? rest : rest.substr(0, comma);
      OperandSet ops;
      std::string_view r;
      for (WordCursor dsts(dst_part); dsts.next(r);) {
        if (!register_name(r)) fail_at(name, line, fmt::format("'{}' is not a register name", r));
        ops.add_dst(registers.id(r, name, line));
      }
      for (WordCursor srcs(src_part, " \t\r,"); srcs.next(r);) {
        if (!register_name(r)) fail_at(name, line, fmt::format("'{}' is not a register name", r));
        ops.add_src(registers.id(r, name, line));
      }
      const auto [unit, kind] = resolver.resolve(opcode, name, line);
      WarpTrace& w = out.blocks.back().warps.back();
      Instruction ins = make_instruction(unit, kind, ops, name, line);
      ins.extra_cycles = extra;
      w.code.push_back(ins);
      w.lines.push_back(static_cast<std::uint32_t>(line));
    }
  }
  close_block(line);
  if (out.blocks.empty()) fail_at(name, line, "no 'warp <n>' line");
  out.register_count = registers.size();
  return out;
}

}  // namespace gpuwcet::tools::detail
