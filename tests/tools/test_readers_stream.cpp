// Traces read from a stream (a pipe, standard input: read_trace_stream), a
// chunk at a time for Accel-Sim traces: the same trace as read whole,
// whatever the chunk size cuts through (lines, CRLF pairs, a byte-order
// mark), with errors at the same lines. Real traces of ../shared/data when
// present, small hand-made ones always.
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"
#include "shared_data.hpp"

namespace fs = std::filesystem;
using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

void expect_same(const TraceFile& a, const TraceFile& b, const std::string& what) {
  ASSERT_EQ(a.blocks.size(), b.blocks.size()) << what;
  EXPECT_EQ(a.register_count, b.register_count) << what;
  EXPECT_EQ(a.kernel, b.kernel) << what;
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    const BlockTrace& x = a.blocks[i];
    const BlockTrace& y = b.blocks[i];
    EXPECT_EQ(x.label, y.label) << what;
    EXPECT_EQ(x.incomplete, y.incomplete) << what;
    ASSERT_EQ(x.warps.size(), y.warps.size()) << what;
    for (std::size_t w = 0; w < x.warps.size(); ++w) {
      ASSERT_EQ(x.warps[w].code.size(), y.warps[w].code.size()) << what;
      EXPECT_EQ(x.warps[w].lines, y.warps[w].lines) << what;
      for (std::size_t k = 0; k < x.warps[w].code.size(); ++k) {
        const Instruction& p = x.warps[w].code[k];
        const Instruction& q = y.warps[w].code[k];
        EXPECT_TRUE(p.unit == q.unit && p.kind == q.kind && p.extra_cycles == q.extra_cycles &&
                    p.dst == q.dst && p.src == q.src && p.dst_count == q.dst_count &&
                    p.src_count == q.src_count)
            << what << " block " << i << " warp " << w << " instruction " << k;
      }
    }
  }
}

TraceFile chunked(const std::string& text, std::size_t chunk, const HardwareConfig& hw,
                  TraceFormat format = TraceFormat::automatic) {
  std::istringstream in(text);
  return detail::read_trace_chunks("s.traceg", in, format, hw, {}, chunk);
}

std::string error_of(const std::string& text, std::size_t chunk, const HardwareConfig& hw) {
  try {
    (void)chunked(text, chunk, hw);
  } catch (const ToolError& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* kSmall =
    "-kernel name = k\n-block dim = (64,1,1)\n#BEGIN_TB\nthread block = 0,0,0\n"
    "warp = 0\ninsts = 2\n0000 ffffffff 1 R1 FADD 2 R2 R3 0\n0010 ffffffff 0 EXIT 0 0\n"
    "warp = 1\ninsts = 2\n0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4\n0010 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n";

TEST(ReadersStream, EveryChunkSizeReadsTheTraceReadWhole) {
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  // As written, with CRLF ends, without the last end of line, behind a
  // byte-order mark.
  std::string crlf;
  for (const char c : std::string(kSmall)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const std::string variants[] = {kSmall, crlf, std::string(kSmall).substr(0, std::string(kSmall).size() - 1),
                                  "\xEF\xBB\xBF" + std::string(kSmall)};
  for (const std::string& text : variants) {
    const TraceFile whole = read_trace_text("s.traceg", text, TraceFormat::automatic, hw);
    for (std::size_t chunk = 1; chunk <= text.size() + 1; ++chunk) {
      expect_same(whole, chunked(text, chunk, hw), "chunk " + std::to_string(chunk));
    }
  }
}

TEST(ReadersStream, ErrorsNameTheSameLines) {
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  std::string nul = kSmall;
  nul.insert(nul.find("warp = 1"), std::string("x\0y\n", 4));
  const std::string cut = std::string(kSmall).substr(0, std::string(kSmall).find("#END_TB"));
  const auto whole_error = [&](const std::string& text) {
    try {
      (void)read_trace_text("s.traceg", text, TraceFormat::automatic, hw);
    } catch (const ToolError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(whole_error(nul), "s.traceg:9: not a text trace (a NUL byte)");
  EXPECT_EQ(whole_error(cut), "s.traceg:12: missing #END_TB at the end of the file");
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{64}, std::size_t{4096}}) {
    EXPECT_EQ(error_of(nul, chunk, hw), whole_error(nul)) << chunk;
    EXPECT_EQ(error_of(cut, chunk, hw), whole_error(cut)) << chunk;
    EXPECT_EQ(error_of("  \n\n", chunk, hw), "s.traceg: the file is empty: no trace lines") << chunk;
  }
  // A stream is read whole for the other formats: the same messages.
  EXPECT_EQ(error_of("\n", 1, hw), "s.traceg: the file is empty: no trace lines");
}

// The data set's Accel-Sim traces, piped: the same blocks and instructions
// with chunks that cut lines everywhere, and blocks handed over as read.
TEST(ReadersStream, RealTracesReadAsTheyStream) {
  const auto files = gpuwcet::test::files_in(gpuwcet::test::kSharedData / "accelsim-traces", ".traceg");
  if (files.empty()) GTEST_SKIP() << "no Accel-Sim traces in " << gpuwcet::test::kSharedData;
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  for (const fs::path& f : files) {
    const std::string text = read_text_file(f.string());
    const TraceFile whole = read_trace_text("s.traceg", text, TraceFormat::automatic, hw);
    for (const std::size_t chunk : {std::size_t{97}, std::size_t{4096}, detail::kStreamChunk}) {
      expect_same(whole, chunked(text, chunk, hw), f.filename().string());
    }
    std::size_t handed = 0;
    TraceReadOptions ro;
    ro.on_block = [&](TraceFile&, std::size_t i) {
      EXPECT_EQ(i, handed++);
      return true;
    };
    std::istringstream in(text);
    const TraceFile streamed = read_trace_stream("s.traceg", in, TraceFormat::automatic, hw, ro);
    EXPECT_EQ(handed, whole.blocks.size()) << f;
    EXPECT_EQ(streamed.blocks.size(), whole.blocks.size()) << f;
  }
}

}  // namespace
