// Shared body of the trace-reader fuzz targets: read the bytes as a trace of
// one format; a ToolError is the expected answer to malformed input, any
// other exception or a crash is a bug. What the reader accepts must satisfy
// the block model's invariants and go through Algorithm 1 without error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::fuzz {

inline void check(bool ok) {
  if (!ok) std::abort();
}

inline void check_trace(const tools::TraceFile& t, const HardwareDescription& hw) {
  std::vector<std::byte> arena(profile_arena_bytes(t.register_count) + 1);
  std::vector<SectionSummary> sections(64);
  for (const tools::BlockTrace& b : t.blocks) {
    check(!b.warps.empty());
    for (const tools::WarpTrace& w : b.warps) {
      check(!w.code.empty() && w.code.size() == w.lines.size());
      check(w.code.back().kind == OpKind::exit);
      for (std::size_t i = 0; i < w.code.size(); ++i) {
        const Instruction& ins = w.code[i];
        check(i + 1 == w.code.size() || ins.kind != OpKind::exit);
        check(ins.unit < hw.unit_count);
        check(ins.dst_count <= kMaxDestinations && ins.src_count <= kMaxSources);
        for (std::size_t k = 0; k < ins.dst_count; ++k) check(ins.dst[k] < t.register_count);
        for (std::size_t k = 0; k < ins.src_count; ++k) check(ins.src[k] < t.register_count);
      }
      ProfileResult r;
      const Status s = profile_warp(hw, w.code, t.register_count, arena, {}, sections, r);
      check(s == Status::ok || s == Status::buffer_too_small || s == Status::overflow);
    }
  }
}

// Read from a stream a few bytes at a time (tools::read_trace_stream, what
// a pipe gets): the same outcome as read whole, the same error or the same
// blocks and instructions. Inputs with a NUL byte are left out: read whole,
// that is refused before any line, streamed, at its line.
inline void check_streamed_reads_the_same(std::string_view text, tools::TraceFormat format,
                                          const tools::HardwareConfig& hw) {
  if (text.find('\0') != std::string_view::npos) return;
  std::string whole_error, stream_error;
  tools::TraceFile whole, streamed;
  try {
    whole = tools::read_trace_text("fuzz", text, format, hw);
  } catch (const tools::ToolError& e) {
    whole_error = e.what();
  }
  try {
    std::istringstream in{std::string(text)};
    streamed = tools::detail::read_trace_chunks("fuzz", in, format, hw, {}, 1 + text.size() % 13);
  } catch (const tools::ToolError& e) {
    stream_error = e.what();
  }
  check(whole_error == stream_error);
  check(whole.blocks.size() == streamed.blocks.size() && whole.register_count == streamed.register_count);
  check(whole.incomplete == streamed.incomplete && whole.observed_cycles == streamed.observed_cycles &&
        whole.notes == streamed.notes && whole.kernel == streamed.kernel && whole.format == streamed.format);
  for (std::size_t b = 0; b < whole.blocks.size(); ++b) {
    check(whole.blocks[b].warps.size() == streamed.blocks[b].warps.size());
    check(whole.blocks[b].incomplete == streamed.blocks[b].incomplete);
    check(whole.blocks[b].label == streamed.blocks[b].label);
    for (std::size_t w = 0; w < whole.blocks[b].warps.size(); ++w) {
      const tools::WarpTrace& x = whole.blocks[b].warps[w];
      const tools::WarpTrace& y = streamed.blocks[b].warps[w];
      check(x.warp_id == y.warp_id && x.lines == y.lines && x.code.size() == y.code.size());
      for (std::size_t i = 0; i < x.code.size(); ++i) {
        const Instruction& p = x.code[i];
        const Instruction& q = y.code[i];
        check(p.unit == q.unit && p.kind == q.kind && p.extra_cycles == q.extra_cycles &&
              p.dst_count == q.dst_count && p.src_count == q.src_count && p.dst == q.dst && p.src == q.src);
      }
    }
  }
}

// Shared body of the hardware-reader fuzz targets: an accepted description
// must be valid and must then classify a small trace (one instruction of each
// kind the readers map, a barrier) without anything but a ToolError.
template <typename Parse>
int fuzz_hardware(const std::uint8_t* data, std::size_t size, Parse parse) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const tools::HardwareConfig c = parse(text);
    check(validate(c.hw) == Status::ok);
    const tools::TraceFile t = tools::read_trace_text(
        "trace", "warp 0\nFFMA r1 , r2 r3\nld.global.f32 r4 , r1\nbar.sync\nalu r5 , r4\n",
        tools::TraceFormat::native, c);
    check_trace(t, c.hw);
  } catch (const tools::ToolError&) {
  }
  return 0;
}

inline int fuzz_trace(const std::uint8_t* data, std::size_t size, tools::TraceFormat format) {
  static const tools::HardwareConfig hw = tools::hardware_preset("orin-sm", 200);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // A pipe gets every format a chunk at a time.
  check_streamed_reads_the_same(text, format, hw);
  try {
    const tools::TraceFile t = tools::read_trace_text("fuzz", text, format, hw);
    check_trace(t, hw.hw);
    // What was read must survive the native format (docs/trace-formats.md).
    const tools::TraceFile back = tools::read_trace_text(
        "native", tools::write_native_trace(t, hw.hw), tools::TraceFormat::native, hw);
    check(back.blocks.size() == t.blocks.size() && back.register_count == t.register_count);
    for (std::size_t b = 0; b < t.blocks.size(); ++b) {
      check(back.blocks[b].warps.size() == t.blocks[b].warps.size());
      for (std::size_t w = 0; w < t.blocks[b].warps.size(); ++w) {
        check(back.blocks[b].warps[w].code.size() == t.blocks[b].warps[w].code.size());
      }
    }
  } catch (const tools::ToolError&) {
  }
  return 0;
}

}  // namespace gpuwcet::fuzz
