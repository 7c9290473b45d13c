// Accel-Sim .traceg files (NVBit tracer): header lines "-key = value",
// "#BEGIN_TB" ... "#END_TB" sections (one thread block each) holding
// "warp = n", "insts = k" and k instruction lines
//   [line_num] PC mask dest_num {Rd} opcode src_num {Rs} mem_width
//   [addr_mode addresses...] [immediate]
// One kernel per file: a header after the blocks is an error. Format and
// register handling: docs/trace-formats.md.
#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools::detail {

namespace {

// SASS instructions are 16 bytes apart from Volta on.
constexpr std::uint64_t kSassInstructionBytes = 16;

// Shared-memory opcodes; LDC reads the constant bank (one transaction);
// every other memory opcode reaches global (or local) memory.
MemorySpace sass_memory_space(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  if (base == "LDS" || base == "STS" || base == "ATOMS" || base == "LDSM") return MemorySpace::shared;
  if (base == "LDC" || base == "ULDC") return MemorySpace::other;
  return MemorySpace::global;
}

struct Register {
  std::string space;  // "R", "UR", "P", "UP", "B"
  std::uint64_t number = 0;
  bool zero = false;  // RZ, URZ, PT, UPT: no dependency
};

// R<n> (R255 = RZ), UR<n> (UR63 = URZ), P<n> / UP<n> (7 = PT / UPT), B<n>.
std::optional<Register> parse_register(std::string_view t) {
  if (t == "RZ" || t == "URZ" || t == "PT" || t == "UPT") return Register{"", 0, true};
  struct Space {
    std::string_view prefix;
    std::uint64_t max;
    std::uint64_t zero;
  };
  static constexpr Space kSpaces[] = {
      {"UR", 63, 63}, {"UP", 7, 7}, {"R", 255, 255}, {"P", 7, 7}, {"B", 15, 1000},
  };
  for (const Space& s : kSpaces) {
    if (!starts_with(t, s.prefix)) continue;
    const std::string_view digits = t.substr(s.prefix.size());
    if (digits.empty() || digits[0] < '0' || digits[0] > '9') continue;
    const auto n = parse_uint(digits, s.max);
    if (!n) return std::nullopt;
    return Register{std::string(s.prefix), *n, *n == s.zero};
  }
  return std::nullopt;
}

bool has_component(std::string_view opcode, std::string_view part) {
  std::size_t pos = opcode.find('.');
  while (pos != std::string_view::npos) {
    const std::size_t next = opcode.find('.', pos + 1);
    const std::string_view c = opcode.substr(pos + 1, next == std::string_view::npos
                                                           ? std::string_view::npos
                                                           : next - pos - 1);
    if (c == part) return true;
    pos = next;
  }
  return false;
}

std::string_view base_name(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

bool is_double_arithmetic(std::string_view base) {
  return base == "DADD" || base == "DMUL" || base == "DFMA" || base == "DMNMX" ||
         base == "DSETP" || base == "DSET";
}

bool is_matrix_multiply(std::string_view base) {
  return base == "HMMA" || base == "IMMA" || base == "BMMA" || base == "DMMA";
}

// Registers a wide result occupies beyond the one the tracer names (it lists
// only the first register of a pair or quad). Naming too many only adds a
// dependency; naming too few would drop one, so every 64-bit type counts.
std::uint64_t extra_result_registers(std::string_view opcode) {
  const std::string_view base = base_name(opcode);
  // An MMA fragment of C/D is up to 4 registers per lane (m16n8k16 with
  // 32-bit accumulators; DMMA.884's two doubles); LDSM.x4 loads 4.
  if (is_matrix_multiply(base) || has_component(opcode, "128")) return 3;
  if (base == "LDSM") return has_component(opcode, "4") ? 3 : has_component(opcode, "2") ? 1 : 0;
  if (is_double_arithmetic(base) || has_component(opcode, "WIDE") ||
      has_component(opcode, "64") || has_component(opcode, "F64") ||
      has_component(opcode, "S64") || has_component(opcode, "U64")) {
    return 1;
  }
  return 0;
}

bool is_global_memory(std::string_view base) {
  return base == "LDG" || base == "STG" || base == "LD" || base == "ST" || base == "ATOMG" ||
         base == "ATOM" || base == "RED" || base == "LDGSTS";
}

bool is_memory(std::string_view base) {
  return is_global_memory(base) || base == "LDS" || base == "STS" || base == "ATOMS" ||
         base == "LDSM" || base == "LDL" || base == "STL" || base == "LDC" || base == "ULDC";
}

// Registers source `index` occupies beyond the one named. A memory access
// lists its address first (LDGSTS: the shared one, then the global one); a
// global address with `.E` is 64 bits ([R2.64] reads R2 and R3), the
// others 32; the data sources are as wide as the access (`.64`, `.128`).
// IMAD.WIDE's addend, its last source, is a pair. Elsewhere every source of
// a 64-bit operation is taken as a pair (DADD R4, R6, R8 reads R6-R9; a
// conversion from F64 or S64): one register too many only adds a
// dependency. An MMA's fragments
// (A, B and C: 10 registers, more than kMaxSources) stay their first
// register, whose writer, an LDSM or a wide load in nvcc's code, writes the
// whole fragment (docs/trace-formats.md).
std::uint64_t extra_source_registers(std::string_view opcode, std::size_t index,
                                     std::size_t count) {
  const std::string_view base = base_name(opcode);
  if (is_matrix_multiply(base)) return 0;
  if (has_component(opcode, "WIDE")) return index + 1 == count ? 1 : 0;
  if (is_memory(base)) {
    const std::size_t address = base == "LDGSTS" ? 1 : 0;
    if (index == address) return is_global_memory(base) && has_component(opcode, "E") ? 1 : 0;
    if (has_component(opcode, "128")) return 3;
    return has_component(opcode, "64") ? 1 : 0;
  }
  if (has_component(opcode, "128")) return 3;
  if (is_double_arithmetic(base) || has_component(opcode, "F64") || has_component(opcode, "64") ||
      has_component(opcode, "S64") || has_component(opcode, "U64")) {
    return 1;
  }
  return 0;
}

// The tracer takes a load's width from the opcode's first number, the
// element size for LDSM; each lane of LDSM gives one 16-byte row.
constexpr std::uint64_t kLdsmRowBytes = 16;
// Widest access of one lane (128 bits); the tracer writes no more.
constexpr std::uint64_t kMaxMemoryWidth = 16;

// CUDA's limit on the threads of a block.
constexpr std::uint64_t kMaxBlockThreads = 1024;

class Reader {
 public:
  Reader(const std::string& name, const HardwareConfig& config)
      : name_(name), config_(config), resolver_(config, &classify_sass) {
    out_.path = name;
    out_.format = TraceFormat::accelsim;
  }

  // `content_bytes`: the text's size, or an upper bound on it (sizes the
  // warps' arrays against a false `insts = k`).
  void begin(std::size_t content_bytes, const TraceReadOptions& options) {
    content_bytes_ = content_bytes;
    options_ = &options;
  }

  // The text in memory, whole.
  TraceFile run(std::string_view content, const TraceReadOptions& options) {
    begin(content.size(), options);
    LineCursor lines(content);
    lines.report_to(&options.progress);
    std::string_view raw;
    while (lines.next(raw)) line(raw, lines.line_number());
    return finish();
  }

  // One line (without its end of line) at a time, numbered from 1.
  void line(std::string_view raw, std::size_t number) {
    line_ = number;
    const std::string_view line = trim(raw);
    if (line.empty()) return;
    if (line.front() == '-') {
      header(line);
    } else if (line.front() == '#') {
      marker(line);
    } else if (!in_block_) {
      fail_at(name_, line_, "text outside a #BEGIN_TB ... #END_TB section");
    } else if (line.substr(0, find_one_of(line, " \t")) == "thread") {
      thread_block(line);
    } else if (starts_with(line, "warp")) {
      begin_warp(line);
    } else if (starts_with(line, "insts")) {
      insts(line);
    } else {
      instruction(line);
    }
  }

  TraceFile finish() {
    if (in_block_) fail_at(name_, line_, "missing #END_TB at the end of the file");
    if (out_.blocks.empty()) fail_at(name_, line_, "no #BEGIN_TB section");
    // NVBit traces every block of the grid, each in a section that names
    // it; a named block lies in the grid and is named once (checked as
    // read), so fewer named blocks means some are missing, as when a piped
    // trace stops between two blocks. A section naming no block may repeat
    // one and does not count.
    if (grid_) {
      // Up to 2^96 blocks: a product past 64 bits is more than any trace holds.
      std::uint64_t blocks = 1;
      bool past_64_bits = false;
      for (const std::uint64_t extent : *grid_) {
        past_64_bits = past_64_bits || !checked_mul(blocks, extent, blocks);
      }
      const std::size_t named = block_lines_.size();
      if (past_64_bits || named < blocks) {
        out_.incomplete = fmt::format("the trace shows {} of the blocks of its grid ({},{},{}){}: the "
                                      "kernel's worst block may be one it leaves out",
                                      named, (*grid_)[0], (*grid_)[1], (*grid_)[2],
                                      named < out_.blocks.size() ? " and sections that name no block"
                                                                 : "");
      }
    }
    out_.register_count = registers_.size();
    return std::move(out_);
  }

 private:
  // "key = value" after the leading character; nullopt without '='.
  static std::pair<std::string_view, std::string_view> key_value(std::string_view line) {
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) return {trim(line), {}};
    return {trim(line.substr(0, eq)), trim(line.substr(eq + 1))};
  }

  void header(std::string_view line) {
    if (in_block_) fail_at(name_, line_, "header line inside a #BEGIN_TB section");
    // The tracer writes one kernel per file, its header first. A header
    // after the blocks is another kernel's (files joined with cat): read
    // on, its name would label the first kernel's blocks.
    if (!out_.blocks.empty()) {
      fail_at(name_, line_,
              fmt::format("header line after the thread blocks of kernel '{}': a second kernel "
                          "(one kernel per .traceg file)",
                          out_.kernel));
    }
    const auto [key, value] = key_value(line.substr(1));
    if (key == "kernel name") out_.kernel = std::string(value);
    // The launch shape: not needed for the bounds (every lane's address is
    // traced), but it says which blocks and warps can exist.
    if (key == "grid dim" || key == "block dim") {
      const auto d = extents(value);
      bool too_many = false;
      if (d && key == "block dim") {
        // Each extent at most 1024 first, so that the product cannot wrap.
        too_many = (*d)[0] > kMaxBlockThreads || (*d)[1] > kMaxBlockThreads ||
                   (*d)[2] > kMaxBlockThreads || (*d)[0] * (*d)[1] * (*d)[2] > kMaxBlockThreads;
      }
      if (!d || too_many) {
        fail_at(name_, line_,
                fmt::format("'-{}' must be (x,y,z) with extents from 1 to 4294967295{}, got '{}'", key,
                            key == "block dim" ? " and at most 1024 threads" : "", value));
      }
      (key == "grid dim" ? grid_ : block_) = *d;
      if (key == "block dim") block_line_ = line_;
    }
    if (key == "enable lineinfo") {
      const auto v = parse_uint(value, 1);
      if (!v) fail_at(name_, line_, fmt::format("'-enable lineinfo' must be 0 or 1, got '{}'", value));
      lineinfo_ = *v == 1;
    }
  }

  void marker(std::string_view line) {
    if (starts_with(line, "#BEGIN_TB")) {
      if (in_block_) fail_at(name_, line_, "#BEGIN_TB inside a section (missing #END_TB)");
      in_block_ = true;
      out_.blocks.emplace_back();
      out_.blocks.back().label = fmt::format("block {}", out_.blocks.size() - 1);
      warp_ids_.clear();
      named_ = false;
    } else if (starts_with(line, "#END_TB")) {
      if (!in_block_) fail_at(name_, line_, "#END_TB without #BEGIN_TB");
      end_warp();
      BlockTrace& block = out_.blocks.back();
      if (block.warps.empty()) fail_at(name_, line_, "thread block without warps");
      // NVBit traces every warp of a block (the tracer writes each one's
      // EXIT): fewer than the header's block dim asks for is a trace cut or
      // edited, and so is a warp whose last instruction is no EXIT
      // (end_warp).
      if (block_ && block.incomplete.empty()) {
        const std::uint64_t threads = (*block_)[0] * (*block_)[1] * (*block_)[2];
        const std::uint64_t warps = (threads + 31) / 32;
        if (block.warps.size() < warps) {
          block.incomplete = fmt::format(
              "{} has {} of the {} warps of a block of {} threads (the header's block dim, line {})",
              block.label, block.warps.size(), warps, threads, block_line_);
        }
      }
      in_block_ = false;
      block_read(out_, registers_.size(), *options_);
    }
    // Any other '#' line is a comment ("#traces format = ...").
  }

  // "(x,y,z)" with extents from 1 to 2^32 - 1; nullopt otherwise.
  static std::optional<std::array<std::uint64_t, 3>> extents(std::string_view v) {
    if (v.size() < 2 || v.front() != '(' || v.back() != ')') return std::nullopt;
    const auto n = numbers(v.substr(1, v.size() - 2));
    if (!n || n->size() != 3 || (*n)[0] == 0 || (*n)[1] == 0 || (*n)[2] == 0) return std::nullopt;
    return std::array<std::uint64_t, 3>{(*n)[0], (*n)[1], (*n)[2]};
  }

  // "a,b,..." of 32-bit unsigned numbers; nullopt if any is not one.
  static std::optional<std::vector<std::uint64_t>> numbers(std::string_view v) {
    std::vector<std::uint64_t> out;
    for (;;) {
      const std::size_t comma = v.find(',');
      const auto n = parse_uint(trim(v.substr(0, comma)), 0xFFFFFFFFu);
      if (!n) return std::nullopt;
      out.push_back(*n);
      if (comma == std::string_view::npos) return out;
      v = v.substr(comma + 1);
    }
  }

  void thread_block(std::string_view line) {
    const auto [key, value] = key_value(line);
    // The words as the tracer writes them, blanks between them as in the
    // other lines ("warp  = 3" reads too).
    if (split_ws(key) != std::vector<std::string_view>{"thread", "block"} || value.empty()) {
      fail_at(name_, line_, fmt::format("expected 'thread block = x,y,z', got '{}'", line));
    }
    const auto coords = block_coordinates(value);
    if (!coords) {
      fail_at(name_, line_, fmt::format("expected 'thread block = x,y,z' with unsigned coordinates, got '{}'",
                                        line));
    }
    if (named_) fail_at(name_, line_, "a second 'thread block' line in this #BEGIN_TB section");
    if (grid_) {
      // Each coordinate within the grid the header declared
      // (block_coordinates wrote all three).
      const std::vector<std::uint64_t> c = *numbers(*coords);
      for (std::size_t k = 0; k < c.size(); ++k) {
        if (c[k] >= (*grid_)[k]) {
          fail_at(name_, line_,
                  fmt::format("thread block {} lies outside the grid ({},{},{}) of the header", *coords,
                              (*grid_)[0], (*grid_)[1], (*grid_)[2]));
        }
      }
    }
    named_ = true;
    // Blocks are picked by their coordinates (--block 0,1,0): two sections
    // with the same ones would make that ambiguous, and a kernel launch runs
    // each block once.
    const auto [first, fresh] = block_lines_.emplace(*coords, line_);
    if (!fresh) {
      fail_at(name_, line_, fmt::format("thread block {} appears twice (first at line {})", *coords,
                                        first->second));
    }
    out_.blocks.back().label = fmt::format("block {}", *coords);
  }

  void begin_warp(std::string_view line) {
    const auto [key, value] = key_value(line);
    const auto n = parse_uint(value, 0xFFFFFFFFu);
    if (key != "warp" || !n) fail_at(name_, line_, fmt::format("expected 'warp = n', got '{}'", line));
    if (block_) {
      // Warps of 32 threads (SASS traces), the last one possibly partial.
      const std::uint64_t threads = (*block_)[0] * (*block_)[1] * (*block_)[2];
      const std::uint64_t warps = (threads + 31) / 32;
      if (*n >= warps) {
        fail_at(name_, line_,
                fmt::format("warp {} does not exist in a block of {} threads ({} warps of 32, from "
                            "the header's block dim)",
                            *n, threads, warps));
      }
    }
    end_warp();
    if (!warp_ids_.insert(*n).second) {
      fail_at(name_, line_, fmt::format("warp {} appears twice in this thread block", *n));
    }
    WarpTrace w;
    w.warp_id = static_cast<std::uint32_t>(*n);
    out_.blocks.back().warps.push_back(std::move(w));
    in_warp_ = true;
    expected_.reset();
    count_ = 0;
    warp_line_ = line_;
    lanes_seen_ = lanes_exited_ = 0;
  }

  void insts(std::string_view line) {
    const auto [key, value] = key_value(line);
    const auto n = parse_uint(value, std::uint64_t{1} << 40);
    if (key != "insts" || !n) fail_at(name_, line_, fmt::format("expected 'insts = k', got '{}'", line));
    if (!in_warp_ || expected_ || count_ != 0) {
      fail_at(name_, line_, "'insts = k' must follow 'warp = n' directly");
    }
    expected_ = *n;
    insts_line_ = line_;
    // The count sizes the warp's arrays once; an instruction line takes at
    // least 12 bytes, so a false count reserves no more instructions than the
    // file has lines (about 2.5 times its bytes), once: the mismatch ends the
    // read at the warp's end.
    const std::size_t fits = content_bytes_ / 12;
    WarpTrace& w = out_.blocks.back().warps.back();
    w.code.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(*n, fits)));
    w.lines.reserve(w.code.capacity());
  }

  void end_warp() {
    if (!in_warp_) return;
    WarpTrace& w = out_.blocks.back().warps.back();
    if (!expected_) fail_at(name_, warp_line_, fmt::format("warp {} has no 'insts = k' line", w.warp_id));
    if (*expected_ != count_) {
      fail_at(name_, insts_line_,
              fmt::format("warp {} declares insts = {} but has {} instruction lines", w.warp_id,
                          *expected_, count_));
    }
    BlockTrace& block = out_.blocks.back();
    // The mask of a line is the lanes that ran it (its guard true: an EXIT
    // predicated off shows 00000000), and a lane ends only by running an
    // EXIT: a lane seen running that no EXIT ends was cut short.
    const std::uint32_t unended = lanes_seen_ & ~lanes_exited_;
    if (block.incomplete.empty() && (w.code.empty() || w.code.back().kind != OpKind::exit)) {
      block.incomplete = fmt::format("{}: warp {} ends without EXIT (line {}): the trace may be cut "
                                     "short",
                                     block.label, w.warp_id, w.lines.empty() ? warp_line_ : w.lines.back());
    } else if (block.incomplete.empty() && unended != 0) {
      block.incomplete = fmt::format("{}: warp {}: lanes {:08x} run but reach no EXIT (its last line "
                                     "{}): the trace may be cut short",
                                     block.label, w.warp_id, unended, w.lines.back());
    }
    finish_warp(w, config_.hw, name_);
    in_warp_ = false;
  }

  std::uint64_t number(const std::vector<std::string_view>& t, std::size_t i, std::uint64_t max,
                       const char* what, int base = 10) {
    if (i >= t.size()) fail_at(name_, line_, fmt::format("instruction line ends before its {}", what));
    const auto v = parse_uint(t[i], max, base);
    if (!v) fail_at(name_, line_, fmt::format("bad {} '{}'", what, t[i]));
    return *v;
  }

  // Lane addresses of a memory instruction from the `fields` tokens at `at`:
  // mode 0 lists them (hex), mode 1 gives base and stride for the `lanes`
  // active lanes, mode 2 a base then signed deltas (docs of ../shared/data
  // and docs/trace-formats.md).
  std::vector<std::uint64_t> decode_addresses(const std::vector<std::string_view>& t,
                                              std::size_t at, std::uint64_t mode,
                                              std::size_t fields, std::size_t lanes) {
    auto hex = [&](std::size_t k) {
      std::string_view v = t[k];
      if (starts_with(v, "0x") || starts_with(v, "0X")) v.remove_prefix(2);
      const auto a = parse_uint(v, ~std::uint64_t{0}, 16);
      if (!a) fail_at(name_, line_, fmt::format("bad address '{}'", t[k]));
      return *a;
    };
    auto delta = [&](std::size_t k) {
      std::string_view v = t[k];
      const bool negative = starts_with(v, "-");
      if (negative) v.remove_prefix(1);
      const auto d = parse_uint(v, std::uint64_t{1} << 48);
      if (!d) fail_at(name_, line_, fmt::format("bad address delta '{}'", t[k]));
      return negative ? ~*d + 1 : *d;  // two's complement: wraps like the address arithmetic
    };
    std::vector<std::uint64_t> out;
    if (mode == 0) {
      for (std::size_t k = 0; k < fields; ++k) out.push_back(hex(at + k));
    } else if (mode == 1) {
      const std::uint64_t base = hex(at);
      const std::uint64_t stride = delta(at + 1);
      for (std::size_t k = 0; k < lanes; ++k) out.push_back(base + k * stride);
    } else {
      std::uint64_t a = hex(at);
      out.push_back(a);
      for (std::size_t k = 1; k < fields; ++k) {
        a += delta(at + k);
        out.push_back(a);
      }
    }
    return out;
  }

  // R(n+1) .. R(n+extra) (UR for a uniform register). An instruction with
  // more than the model's kMaxDestinations / kMaxSources is refused with its
  // line (make_instruction), not cut short: a dropped register would drop a
  // dependency.
  void add_wide(std::string_view token, std::uint64_t extra, OperandSet& ops, bool destination) {
    const auto reg = parse_register(token);
    if (extra == 0 || reg->zero || (reg->space != "R" && reg->space != "UR")) return;
    const std::uint64_t zero = reg->space == "R" ? 255 : 63;
    for (std::uint64_t e = 1; e <= extra && reg->number + e < zero; ++e) {
      const std::uint16_t id = registers_.id(reg->space, reg->number + e, name_, line_);
      if (destination) {
        ops.add_dst(id);
      } else {
        ops.add_src(id);
      }
    }
  }

  std::uint16_t register_id(std::string_view token, bool& zero) {
    const auto r = parse_register(token);
    if (!r) {
      fail_at(name_, line_,
              fmt::format("'{}' is not a register (R<n>, UR<n>, P<n>, UP<n>, B<n>)", token));
    }
    zero = r->zero;
    if (zero) return 0;
    return registers_.id(r->space, r->number, name_, line_);
  }

  void instruction(std::string_view line) {
    if (!in_warp_ || !expected_) {
      fail_at(name_, line_, "instruction line before 'warp = n' and 'insts = k'");
    }
    split_ws(line, fields_);
    const std::vector<std::string_view>& t = fields_;
    std::size_t i = lineinfo_ ? 1 : 0;
    const std::uint64_t pc = number(t, i++, ~std::uint64_t{0}, "PC", 16);
    const std::uint64_t mask = number(t, i++, 0xFFFFFFFFu, "active mask", 16);
    const std::uint64_t dst_num = number(t, i++, kMaxDestinations, "destination count");
    if (i + dst_num >= t.size()) fail_at(name_, line_, "instruction line ends before its opcode");
    const std::size_t dst_at = i;
    i += dst_num;
    const std::string_view opcode = t[i++];
    const std::uint64_t src_num = number(t, i++, 64, "source count");
    if (i + src_num > t.size()) fail_at(name_, line_, "instruction line ends before its sources");
    OperandSet ops;
    for (std::size_t k = 0; k < dst_num; ++k) {
      bool zero = false;
      const std::uint16_t r = register_id(t[dst_at + k], zero);
      if (zero) continue;
      ops.add_dst(r);
      add_wide(t[dst_at + k], extra_result_registers(opcode), ops, true);
    }
    for (std::size_t k = 0; k < src_num; ++k) {
      bool zero = false;
      const std::uint16_t r = register_id(t[i + k], zero);
      if (zero) continue;
      ops.add_src(r);
      add_wide(t[i + k], extra_source_registers(opcode, k, src_num), ops, false);
    }
    i += src_num;
    std::uint64_t width = number(t, i++, kMaxMemoryWidth, "memory width");
    if (width > 0 && base_name(opcode) == "LDSM") width = kLdsmRowBytes;
    std::size_t addresses = 0;
    std::uint64_t mode = 0;
    const std::size_t lanes = std::bitset<32>(mask).count();
    if (width > 0) {
      mode = number(t, i++, 2, "address mode");
      addresses = mode == 0 ? lanes : mode == 1 ? 2 : std::max<std::size_t>(lanes, 1);
    }
    // Addresses, then at most one immediate (tracer version 5 writes one).
    if (t.size() < i + addresses || t.size() > i + addresses + 1) {
      fail_at(name_, line_,
              fmt::format("expected {} address field(s) and an optional immediate after the "
                          "memory width, found {} field(s)",
                          addresses, t.size() - std::min(t.size(), i)));
    }
    const auto [unit, kind] = resolver_.resolve(opcode, name_, line_);
    lanes_seen_ |= static_cast<std::uint32_t>(mask);
    if (kind == OpKind::exit) lanes_exited_ |= static_cast<std::uint32_t>(mask);
    WarpTrace& w = out_.blocks.back().warps.back();
    Instruction ins = make_instruction(unit, kind, ops, name_, line_);
    if (width > 0 && addresses > 0) {
      // The lanes' addresses give the access's transactions / bank passes
      // exactly (lane_values.hpp).
      const std::vector<std::uint64_t> lane_addresses =
          decode_addresses(t, i, mode, addresses, lanes);
      const AccessCost cost = cost_of_addresses(sass_memory_space(opcode), lane_addresses,
                                                static_cast<std::uint32_t>(width));
      ins.extra_cycles = extra_cycles_for(config_, unit, cost.passes);
    }
    w.code.push_back(ins);
    w.lines.push_back(static_cast<std::uint32_t>(line_));
    resolve_taken_branch(w, pc, last_pc_, kSassInstructionBytes);
    ++count_;
  }

  const std::string& name_;
  const HardwareConfig& config_;
  OpcodeResolver resolver_;
  RegisterMap registers_;
  std::vector<std::string_view> fields_;  // of the current line, storage reused
  std::size_t content_bytes_ = 0;
  TraceFile out_;
  std::size_t line_ = 0;
  bool lineinfo_ = false;
  bool in_block_ = false;
  bool in_warp_ = false;
  std::optional<std::uint64_t> expected_;
  std::uint64_t count_ = 0;
  std::size_t warp_line_ = 0;
  std::size_t insts_line_ = 0;  // of the current warp's 'insts = k'
  std::set<std::uint64_t> warp_ids_;
  std::map<std::string, std::size_t> block_lines_;  // coordinates -> line of their 'thread block'
  bool named_ = false;                               // this section had its 'thread block' line
  std::optional<std::array<std::uint64_t, 3>> grid_, block_;  // the header's launch shape
  std::size_t block_line_ = 0;  // of the header's block dim
  std::uint64_t last_pc_ = 0;  // of the warp being read
  const TraceReadOptions* options_ = nullptr;
  std::uint32_t lanes_seen_ = 0;     // of the warp being read: lanes some line ran
  std::uint32_t lanes_exited_ = 0;   // and lanes an EXIT ended
};

}  // namespace

TraceFile read_accelsim_trace(const std::string& name, std::string_view content,
                              const HardwareConfig& config, const TraceReadOptions& options) {
  return Reader(name, config).run(content, options);
}

TraceFile read_accelsim_lines(const std::string& name, const LineSource& source,
                              const HardwareConfig& config, const TraceReadOptions& options) {
  Reader reader(name, config);
  // A stream's size is unknown: a false `insts = k` reserves at most a
  // million instructions, and a warp's arrays grow past that as read.
  reader.begin(std::size_t{12} << 20, options);
  return read_lines_with(reader, source);
}

}  // namespace gpuwcet::tools::detail
