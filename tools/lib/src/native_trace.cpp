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

namespace {

// Reads the lines one at a time (line, then finish): nothing of a line is
// kept past it, so that a trace from a pipe can be read a chunk at a time.
// `content`, when the whole text is at hand, sizes each warp's arrays once
// from the lines that follow its 'warp' line.
class Reader {
 public:
  Reader(const std::string& name, const HardwareConfig& config, const TraceReadOptions& options)
      : name_(name), config_(config), options_(options), resolver_(config, &classify_native, true) {
    out_.path = name;
    out_.format = TraceFormat::native;
  }

  TraceFile run(std::string_view content) {
    content_ = content;
    LineCursor lines(content);
    lines.report_to(&options_.progress);
    std::string_view raw;
    while (lines.next(raw)) {
      next_line_at_ = lines.position();
      line(raw, lines.line_number());
    }
    return finish();
  }

  void line(std::string_view raw, std::size_t number) {
    line_ = number;
    std::string_view text = raw;
    const std::size_t hash = text.find('#');
    if (hash != std::string_view::npos) text = text.substr(0, hash);
    text = trim(text);
    if (text.empty()) return;
    const std::string_view word0 = first_word(text);
    if (word0 == "kernel") {
      if (have_kernel_) fail_at(name_, line_, "kernel named twice");
      if (!out_.blocks.empty()) fail_at(name_, line_, "'kernel' must come before the first block");
      const std::vector<std::string_view> words = split_ws(text);
      if (words.size() != 2) fail_at(name_, line_, "expected 'kernel <name>'");
      out_.kernel = std::string(words[1]);
      have_kernel_ = true;
    } else if (word0 == "block") {
      const std::string_view given = trim(text.substr(5));
      // An unlabelled block is labelled by its index.
      const std::string label = given.empty() ? std::to_string(out_.blocks.size()) : std::string(given);
      // --block picks a block by its label: two blocks with one label
      // (coordinates compared as numbers, an index label included) would
      // make that ambiguous.
      const auto coords = block_coordinates(label);
      const auto [first, fresh] = labels_.emplace(coords ? *coords : label, line_);
      if (!fresh) {
        fail_at(name_, line_,
                fmt::format("block label '{}' given twice (first at line {}){}", label, first->second,
                            given.empty() ? ": this unlabelled block takes its index as its label; "
                                            "give it another"
                                          : ""));
      }
      open_block("block " + label);
    } else if (word0 == "warp") {
      const std::vector<std::string_view> words = split_ws(text);
      const auto n = words.size() == 2 ? parse_uint(words[1], 0xFFFFFFFFu) : std::nullopt;
      if (!n) fail_at(name_, line_, "expected 'warp <n>' with n a warp number");
      if (out_.blocks.empty()) {
        labels_.emplace(*block_coordinates("0"), line_);
        open_block("block 0");
      }
      if (!warp_ids_.insert(*n).second) {
        fail_at(name_, line_, fmt::format("warp {} appears twice in this block", *n));
      }
      WarpTrace w;
      w.warp_id = static_cast<std::uint32_t>(*n);
      if (!content_.empty()) {
        const std::size_t capacity = lines_of_warp(content_, next_line_at_);
        w.code.reserve(capacity);
        w.lines.reserve(capacity);
      }
      out_.blocks.back().warps.push_back(std::move(w));
    } else {
      instruction(text);
    }
  }

  TraceFile finish() {
    close_block();
    if (out_.blocks.empty()) fail_at(name_, line_, "no 'warp <n>' line");
    out_.register_count = registers_.size();
    return std::move(out_);
  }

 private:
  void close_block() {
    if (out_.blocks.empty()) return;
    if (out_.blocks.back().warps.empty()) fail_at(name_, block_line_, "block without warps");
    for (WarpTrace& w : out_.blocks.back().warps) {
      if (w.code.empty()) fail_at(name_, line_, fmt::format("warp {} has no instructions", w.warp_id));
      finish_warp(w, config_.hw, name_);
    }
    block_read(out_, registers_.size(), options_);
  }

  void open_block(std::string label) {
    close_block();
    out_.blocks.emplace_back();
    out_.blocks.back().label = std::move(label);
    warp_ids_.clear();
    block_line_ = line_;
  }

  void instruction(std::string_view text) {
    if (out_.blocks.empty() || out_.blocks.back().warps.empty()) {
      fail_at(name_, line_, "instruction outside a warp (start one with 'warp <n>')");
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
        fail_at(name_, line_,
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
      if (!register_name(r)) fail_at(name_, line_, fmt::format("'{}' is not a register name", r));
      ops.add_dst(registers_.id(r, name_, line_));
    }
    for (WordCursor srcs(src_part, " \t\r,"); srcs.next(r);) {
      if (!register_name(r)) fail_at(name_, line_, fmt::format("'{}' is not a register name", r));
      ops.add_src(registers_.id(r, name_, line_));
    }
    const auto [unit, kind] = resolver_.resolve(opcode, name_, line_);
    WarpTrace& w = out_.blocks.back().warps.back();
    Instruction ins = make_instruction(unit, kind, ops, name_, line_);
    ins.extra_cycles = extra;
    w.code.push_back(ins);
    w.lines.push_back(static_cast<std::uint32_t>(line_));
  }

  const std::string& name_;
  const HardwareConfig& config_;
  const TraceReadOptions& options_;
  OpcodeResolver resolver_;
  RegisterMap registers_;
  TraceFile out_;
  std::set<std::uint64_t> warp_ids_;
  std::map<std::string, std::size_t> labels_;  // a block's label (coordinates normalised) -> its line
  bool have_kernel_ = false;
  std::size_t block_line_ = 0;
  std::size_t line_ = 0;
  std::string_view content_;      // the whole text, when read whole
  std::size_t next_line_at_ = 0;  // its offset after the current line
};

}  // namespace

TraceFile read_native_trace(const std::string& name, std::string_view content,
                            const HardwareConfig& config, const TraceReadOptions& options) {
  return Reader(name, config, options).run(content);
}

TraceFile read_native_lines(const std::string& name, const LineSource& source,
                            const HardwareConfig& config, const TraceReadOptions& options) {
  Reader reader(name, config, options);
  return read_lines_with(reader, source);
}

}  // namespace gpuwcet::tools::detail
