#include "gpuwcet_tools/trace_parsing.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include <fmt/format.h>

#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools::detail {

void fail_at(const std::string& name, std::size_t line, const std::string& message) {
  // An empty file has no line 0 to point at; its first line is where the
  // missing content belongs.
  throw ToolError(fmt::format("{}:{}: {}", name, std::max<std::size_t>(line, 1), message));
}

bool LineCursor::next(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  std::size_t end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  line = text_.substr(pos_, end - pos_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  pos_ = end + 1;
  ++line_;
  if (progress_ != nullptr && *progress_ && line_ % kProgressLines == 0) {
    (*progress_)(std::min(pos_, text_.size()), text_.size());
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::size_t find_one_of(std::string_view text, std::string_view set, std::size_t from) {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (is_one_of(text[i], set)) return i;
  }
  return std::string_view::npos;
}

bool WordCursor::next(std::string_view& word) {
  // Character loops, not find_first_(not_)of: libstdc++ calls memchr on the
  // separators once per character of the line, a fifth of the instructions
  // spent reading a native trace (callgrind, docs/multiphase.md "Costs").
  std::size_t start = pos_;
  while (start < text_.size() && is_one_of(text_[start], separators_)) ++start;
  if (start >= text_.size()) {
    pos_ = text_.size();
    return false;
  }
  std::size_t end = start + 1;
  while (end < text_.size() && !is_one_of(text_[end], separators_)) ++end;
  word = text_.substr(start, end - start);
  pos_ = end;
  return true;
}

void split_ws(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  WordCursor words(s);
  std::string_view w;
  while (words.next(w)) out.push_back(w);
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  split_ws(s, out);
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

std::optional<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max, int base) {
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || ptr != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

std::optional<std::string> block_coordinates(std::string_view s) {
  std::string out;
  std::size_t count = 0;
  for (;;) {
    const std::size_t comma = s.find(',');
    // Coordinates are 32-bit (CUDA's gridDim limits).
    const auto v = parse_uint(trim(s.substr(0, comma)), 0xFFFFFFFFu);
    if (!v || ++count > 3) return std::nullopt;
    if (!out.empty()) out += ',';
    out += std::to_string(*v);
    if (comma == std::string_view::npos) {
      // Coordinates a launch of fewer dimensions leaves out are 0 there.
      for (; count < 3; ++count) out += ",0";
      return out;
    }
    s = s.substr(comma + 1);
  }
}

std::uint16_t RegisterMap::id(const std::string& space, std::uint64_t number,
                              const std::string& file, std::size_t line) {
  char digits[24];
  const auto end = std::to_chars(std::begin(digits), std::end(digits), number).ptr;
  std::string name;
  name.reserve(space.size() + static_cast<std::size_t>(end - digits));
  name.append(space).append(digits, end);
  return id(std::string_view(name), file, line);
}

std::uint16_t RegisterMap::id(std::string_view name, const std::string& file, std::size_t line) {
  const auto it = names_.find(name);
  if (it != names_.end()) return it->second;
  // Register ids are 16-bit in the model; the core sizes its scoreboard by
  // the count, so a trace with more distinct registers is refused.
  if (names_.size() >= std::numeric_limits<std::uint16_t>::max()) {
    fail_at(file, line, fmt::format("more than {} distinct registers",
                                    std::numeric_limits<std::uint16_t>::max()));
  }
  const auto id = static_cast<std::uint16_t>(names_.size());
  names_.emplace(storage_.emplace_back(name), id);
  return id;
}

void OperandSet::add(std::array<std::uint16_t, kCapacity>& regs, std::size_t& count,
                     std::uint16_t r) {
  const std::size_t stored = std::min(count, kCapacity);
  if (std::find(regs.begin(), regs.begin() + static_cast<std::ptrdiff_t>(stored), r) !=
      regs.begin() + static_cast<std::ptrdiff_t>(stored)) {
    return;
  }
  if (count < kCapacity) regs[count] = r;
  ++count;
}

std::pair<std::uint16_t, OpKind> OpcodeResolver::resolve(std::string_view opcode,
                                                         const std::string& file,
                                                         std::size_t line) {
  key_.assign(opcode.data(), opcode.size());
  if (const auto it = cache_.find(key_); it != cache_.end()) return it->second;
  const std::string& key = key_;

  std::optional<OpcodeClass> cls;
  std::size_t best = 0;
  for (const OpcodeRule& r : config_.rules) {
    const bool match = opcode == r.opcode || (starts_with(opcode, r.opcode) &&
                                              opcode.size() > r.opcode.size() &&
                                              opcode[r.opcode.size()] == '.');
    if (match && !r.opcode.empty() && (!cls || r.opcode.size() > best)) {
      cls = OpcodeClass{r.unit, r.kind};
      best = r.opcode.size();
    }
  }
  if (!cls && unit_names_ && key.size() < kUnitNameSize && find_unit(config_.hw, key.c_str()) >= 0) {
    cls = opcode_class_from_name(opcode);
  }
  if (!cls) cls = builtin_(opcode);
  if (!cls) {
    fail_at(file, line,
            fmt::format("unknown opcode '{}' (map it to a unit in the [opcodes] table of a "
                        "hardware file)",
                        opcode));
  }
  std::pair<std::uint16_t, OpKind> out{0, cls->kind};
  if (cls->kind != OpKind::barrier && cls->kind != OpKind::exit) {
    int u = find_unit(config_.hw, cls->unit.c_str());
    // A description without the memory-space units runs every access on mem.
    if (u < 0 && (cls->unit == "mem_shared" || cls->unit == "mem_param")) {
      cls->unit = "mem";
      u = find_unit(config_.hw, "mem");
    }
    if (u < 0 || cls->unit.size() >= kUnitNameSize) {
      fail_at(file, line,
              fmt::format("opcode '{}' maps to unit '{}', which the hardware description ({}) "
                          "lacks",
                          opcode, cls->unit, config_.source));
    }
    out.first = static_cast<std::uint16_t>(u);
  }
  cache_.emplace(key, out);
  return out;
}

Instruction make_instruction(std::uint16_t unit, OpKind kind, const OperandSet& ops,
                             const std::string& file, std::size_t line) {
  if (ops.dst_count() > kMaxDestinations) {
    fail_at(file, line, fmt::format("{} destination registers (at most {})", ops.dst_count(),
                                    kMaxDestinations));
  }
  if (ops.src_count() > kMaxSources) {
    fail_at(file, line,
            fmt::format("{} source registers (at most {})", ops.src_count(), kMaxSources));
  }
  Instruction ins;
  ins.unit = unit;
  ins.kind = kind;
  ins.dst_count = static_cast<std::uint8_t>(ops.dst_count());
  ins.src_count = static_cast<std::uint8_t>(ops.src_count());
  for (std::size_t k = 0; k < ops.dst_count(); ++k) ins.dst[k] = ops.dst(k);
  for (std::size_t k = 0; k < ops.src_count(); ++k) ins.src[k] = ops.src(k);
  return ins;
}

void finish_warp(WarpTrace& warp, const HardwareDescription& hw, const std::string& file) {
  for (std::size_t i = 0; i + 1 < warp.code.size(); ++i) {
    Instruction& ins = warp.code[i];
    if (ins.kind != OpKind::exit) continue;
    const int branch = find_unit(hw, "branch");
    if (branch < 0) {
      fail_at(file, warp.lines[i],
              fmt::format("exit before the end of warp {} needs a 'branch' unit to issue on",
                          warp.warp_id));
    }
    ins.kind = OpKind::branch;
    ins.unit = static_cast<std::uint16_t>(branch);
  }
  if (warp.code.empty() || warp.code.back().kind != OpKind::exit) {
    Instruction exit;
    exit.kind = OpKind::exit;
    warp.code.push_back(exit);
    warp.lines.push_back(warp.lines.empty() ? 0 : warp.lines.back());
  }
  // An exit that issues runs as an ALU operation (GPGPU-Sim: on the INT unit).
  if (hw.exit_issues) {
    const int alu = find_unit(hw, "alu");
    if (alu < 0) {
      fail_at(file, warp.lines.back(),
              "the hardware issues exits, which needs an 'alu' unit to issue them on");
    }
    warp.code.back().unit = static_cast<std::uint16_t>(alu);
  }
}

void resolve_taken_branch(WarpTrace& warp, std::uint64_t pc, std::uint64_t& last_pc,
                          std::uint64_t instruction_bytes) {
  // The instruction before this one, if a branch, fell through when this one
  // follows it in memory.
  if (warp.code.size() >= 2) {
    Instruction& prev = warp.code[warp.code.size() - 2];
    if (prev.kind == OpKind::branch && pc == last_pc + instruction_bytes) {
      prev.kind = OpKind::compute;
    }
  }
  last_pc = pc;
}

void block_read(TraceFile& out, std::size_t register_count, const TraceReadOptions& options) {
  if (!options.on_block) return;
  out.register_count = register_count;
  if (options.on_block(out, out.blocks.size() - 1)) drop_instructions(out.blocks.back());
}

std::string_view skip_byte_order_mark(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (starts_with(text, kBom)) text.remove_prefix(kBom.size());
  return text;
}

}  // namespace gpuwcet::tools::detail

namespace gpuwcet::tools {

namespace {

// Whether a line tells the format (detect_format): one that is neither
// blank nor a '#' comment other than #BEGIN_TB.
bool tells_format(std::string_view line) {
  line = detail::trim(line);
  return !line.empty() && (line.front() != '#' || detail::starts_with(line, "#BEGIN_TB"));
}

TraceFormat detect_format(std::string_view content) {
  detail::LineCursor lines(content);
  std::string_view line;
  while (lines.next(line)) {
    if (!tells_format(line)) continue;
    line = detail::trim(line);
    if (line.front() == '-' || detail::starts_with(line, "#BEGIN_TB")) return TraceFormat::accelsim;
    const auto words = detail::split_ws(line);
    if (words.size() >= 2 && detail::starts_with(words[0], "warp") &&
        (line.find("PC=") != std::string_view::npos || (words.size() >= 3 && words[2] == ":"))) {
      return TraceFormat::ptx;
    }
    return TraceFormat::native;
  }
  return TraceFormat::native;
}

// A text of blanks only is an empty trace: said plainly, before any
// format's reader words it in its own terms.
void refuse_empty(const std::string& name, std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw ToolError(fmt::format("{}: the file is empty: no trace lines", name));
  }
}

// A NUL byte in `text` from `from` on is an error at its line; `text`
// starts on line `first_line`. (A byte-order mark holds no end of line.)
void refuse_nul(const std::string& name, std::string_view text, std::size_t from, std::size_t first_line) {
  const std::size_t nul = text.find('\0', from);
  if (nul == std::string_view::npos) return;
  const auto ends = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
  detail::fail_at(name, first_line + static_cast<std::size_t>(ends), "not a text trace (a NUL byte)");
}

}  // namespace

TraceFile read_trace_text(const std::string& name, std::string_view content, TraceFormat format,
                          const HardwareConfig& config, const TraceReadOptions& options) {
  content = detail::skip_byte_order_mark(content);
  refuse_empty(name, content);
  refuse_nul(name, content, 0, 1);
  if (format == TraceFormat::automatic) format = detect_format(content);
  switch (format) {
    case TraceFormat::accelsim:
      return detail::read_accelsim_trace(name, content, config, options);
    case TraceFormat::ptx:
      return detail::read_ptx_trace(name, content, config, options);
    case TraceFormat::native:
    case TraceFormat::automatic:
      break;
  }
  return detail::read_native_trace(name, content, config, options);
}

namespace {

// Appends up to `bytes` more of `in` to `text`; false once nothing more came.
bool read_more(std::istream& in, const std::string& name, std::string& text, std::size_t bytes) {
  const std::size_t had = text.size();
  text.resize(had + bytes);
  in.read(text.data() + had, static_cast<std::streamsize>(bytes));
  text.resize(had + static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw file_error(name, "read error", errno);
  return text.size() > had;
}

// The lines of `in`, whose first bytes are `text`, a chunk at a time: each
// without its end of line, numbered from 1. A NUL byte is an error, as for
// a text in memory (read_trace_text), refused in the chunk it comes in
// (binary input without a newline would otherwise be read until memory
// runs out); the caller has refused those of `text`.
void stream_lines(std::istream& in, const std::string& name, std::string text, std::size_t chunk,
                  const detail::LineSink& sink,
                  const std::function<void(std::size_t, std::size_t)>& progress) {
  std::size_t number = 0, read = text.size();
  bool more = true;
  while (true) {
    std::size_t start = 0;
    for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
      std::string_view line(text.data() + start, nl - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      sink(line, ++number);
      start = nl + 1;
    }
    text.erase(0, start);
    if (!more) break;
    const std::size_t kept = text.size();
    more = read_more(in, name, text, chunk);
    refuse_nul(name, text, kept, number + 1);
    read += text.size() - kept;
    if (progress) progress(read, 0);  // a stream's size is unknown
    if (!more && text.empty()) break;
    if (!more) text += '\n';  // the last line, without an end of line
  }
}

}  // namespace

TraceFile read_trace_stream(const std::string& name, std::istream& in, TraceFormat format,
                            const HardwareConfig& config, const TraceReadOptions& options) {
  return detail::read_trace_chunks(name, in, format, config, options, detail::kStreamChunk);
}

TraceFile detail::read_trace_chunks(const std::string& name, std::istream& in, TraceFormat format,
                                    const HardwareConfig& config, const TraceReadOptions& options,
                                    std::size_t chunk) {
  // Enough of the text to tell its format, as read_trace_text would: the
  // first whole line that tells it (or the whole text, if it has none),
  // past any length of comments.
  std::string head;
  std::size_t told_up_to = 0;  // whole lines of head before this tell nothing
  const auto first_line_read = [&] {
    for (std::size_t nl = head.find('\n', told_up_to); nl != std::string::npos;
         nl = head.find('\n', told_up_to)) {
      const std::string_view line(head.data() + told_up_to, nl - told_up_to);
      if (tells_format(told_up_to == 0 ? detail::skip_byte_order_mark(line) : line)) return true;
      told_up_to = nl + 1;
    }
    return false;
  };
  // Each byte refused if NUL as it comes (binary input such as /dev/zero
  // may hold no line at all).
  while (!first_line_read()) {
    const std::size_t had = head.size();
    if (!read_more(in, name, head, chunk)) break;
    refuse_nul(name, head, had, 1);
  }
  if (format == TraceFormat::automatic) format = detect_format(detail::skip_byte_order_mark(head));
  refuse_empty(name, detail::skip_byte_order_mark(head));
  head.erase(0, head.size() - detail::skip_byte_order_mark(head).size());
  const detail::LineSource source = [&](const detail::LineSink& sink) {
    stream_lines(in, name, std::move(head), chunk, sink, options.progress);
  };
  switch (format) {
    case TraceFormat::accelsim:
      return detail::read_accelsim_lines(name, source, config, options);
    case TraceFormat::ptx:
      return detail::read_ptx_lines(name, source, config, options);
    case TraceFormat::native:
    case TraceFormat::automatic:
      break;
  }
  return detail::read_native_lines(name, source, config, options);
}

TraceFile read_trace(const std::string& path, TraceFormat format, const HardwareConfig& config,
                     const TraceReadOptions& options) {
  if (path == "-") return read_trace_stream("<stdin>", std::cin, format, config, options);
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec) &&
      !std::filesystem::is_directory(path, ec)) {
    // A pipe or a device: read as it comes.
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw file_error(path, "cannot open the file", errno);
    return read_trace_stream(path, in, format, config, options);
  }
  const FileText content(path);
  TraceFile t = read_trace_text(path, content.text(), format, config, options);
  if (options.progress) options.progress(content.text().size(), content.text().size());
  return t;
}

void drop_instructions(BlockTrace& block) {
  std::vector<WarpTrace>().swap(block.warps);
  block.dropped = true;
}

TraceFormat parse_trace_format(const std::string& name) {
  if (name == "native") return TraceFormat::native;
  if (name == "accelsim") return TraceFormat::accelsim;
  if (name == "ptx") return TraceFormat::ptx;
  if (name == "auto") return TraceFormat::automatic;
  throw ToolError(
      fmt::format("unknown trace format '{}' (expected native, accelsim, ptx or auto)", name));
}

}  // namespace gpuwcet::tools

namespace gpuwcet::tools::detail {

std::uint8_t extra_cycles_for(const HardwareConfig& config, std::uint16_t unit,
                              std::uint32_t passes) {
  if (passes <= 1 || unit >= config.hw.unit_count) return 0;
  const int mem = find_unit(config.hw, "mem");
  const int shared = find_unit(config.hw, "mem_shared");
  std::uint64_t extra = 0;
  if (unit == shared) {
    extra = passes - 1;  // one pass per cycle
  } else if (unit == mem) {
    // Transactions: cycles_per_8_transactions per eight, rounded up.
    extra = (std::uint64_t{passes - 1} * config.cycles_per_8_transactions + 7) / 8;
  }
  return static_cast<std::uint8_t>(std::min<std::uint64_t>(extra, 255));
}

bool ptx_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '.';
}

std::size_t ptx_opcode_length(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && s[n] != ' ' && s[n] != '\t' && s[n] != '%' && s[n] != '{' && s[n] != '[') ++n;
  return n;
}

}  // namespace gpuwcet::tools::detail
