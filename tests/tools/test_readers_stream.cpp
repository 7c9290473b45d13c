// Traces read from a stream (a pipe, standard input: read_trace_stream), a
// chunk at a time in every format: the same trace as read whole,
// whatever the chunk size cuts through (lines, CRLF pairs, a byte-order
// mark), with errors at the same lines (but a NUL byte: read whole, it is
// refused before any line; streamed, when its chunk comes, after the
// errors of earlier chunks). Real traces of ../shared/data when present,
// small hand-made ones always.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <sstream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"
#include "ptx_kernel_text.hpp"
#include "shared_data.hpp"

namespace fs = std::filesystem;
using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

void expect_same(const TraceFile& a, const TraceFile& b, const std::string& what) {
  ASSERT_EQ(a.blocks.size(), b.blocks.size()) << what;
  EXPECT_EQ(a.format, b.format) << what;
  EXPECT_EQ(a.register_count, b.register_count) << what;
  EXPECT_EQ(a.kernel, b.kernel) << what;
  EXPECT_EQ(a.observed_cycles, b.observed_cycles) << what;
  EXPECT_EQ(a.notes, b.notes) << what;
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
                  TraceFormat format = TraceFormat::automatic, const TraceReadOptions& options = {}) {
  std::istringstream in(text);
  return detail::read_trace_chunks("s.traceg", in, format, hw, options, chunk);
}

// `text` with CRLF ends, without its last end of line, behind a byte-order
// mark, and as written.
std::vector<std::string> variants_of(const std::string& text) {
  std::string crlf;
  for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return {text, crlf, text.substr(0, text.size() - 1), "\xEF\xBB\xBF" + text};
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
  for (const std::string& text : variants_of(kSmall)) {
    const TraceFile whole = read_trace_text("s.traceg", text, TraceFormat::automatic, hw);
    for (std::size_t chunk = 1; chunk <= text.size() + 1; ++chunk) {
      expect_same(whole, chunked(text, chunk, hw), "chunk " + std::to_string(chunk));
    }
  }
}

// The format is told by the first line that tells it, however many chunks
// of comments and blank lines come before (a head of a chunk or two would
// take an Accel-Sim trace behind them for a native one).
TEST(ReadersStream, FormatToldPastChunksOfComments) {
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  std::string comments;
  for (int i = 0; i < 300; ++i) comments += i % 3 == 0 ? "\n" : "# a comment line\r\n";
  const std::string text = comments + kSmall;
  const TraceFile whole = read_trace_text("s.traceg", text, TraceFormat::automatic, hw);
  ASSERT_EQ(whole.format, TraceFormat::accelsim);
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{97}, std::size_t{4096}}) {
    expect_same(whole, chunked(text, chunk, hw), "chunk " + std::to_string(chunk));
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
    // One byte-order mark is skipped, a second is text (as read whole).
    const std::string marks = "\xEF\xBB\xBF\xEF\xBB\xBF\n\n";
    EXPECT_EQ(whole_error(marks), "s.traceg:1: instruction outside a warp (start one with 'warp <n>')");
    EXPECT_EQ(error_of(marks, chunk, hw), whole_error(marks)) << chunk;
  }
  // The other formats give the same messages too.
  EXPECT_EQ(error_of("\n", 1, hw), "s.traceg: the file is empty: no trace lines");
}

// `text`, then zero bytes as /dev/zero gives them, counting the zeros
// read; 16 MiB of them, so that a reader that does not stop at the first
// fails the count instead of running out of memory.
class TextThenZeros : public std::streambuf {
 public:
  explicit TextThenZeros(std::string text) : text_(std::move(text)) {}
  std::size_t zeros_given = 0;

 protected:
  int_type underflow() override {
    if (!text_given_ && !text_.empty()) {
      text_given_ = true;
      setg(text_.data(), text_.data(), text_.data() + text_.size());
    } else {
      if (zeros_given >= (std::size_t{16} << 20)) return traits_type::eof();
      zeros_given += zeros_.size();
      setg(zeros_.data(), zeros_.data(), zeros_.data() + zeros_.size());
    }
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string text_;
  bool text_given_ = false;
  std::vector<char> zeros_ = std::vector<char>(4096, '\0');
};

// Binary input is refused where its first NUL byte comes, in every format,
// before the first line is whole and after whole lines alike: an endless
// one is not read until memory runs out.
TEST(ReadersStream, ANulByteStopsTheReadWhereItComes) {
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  constexpr std::size_t kChunk = 4096;
  for (const TraceFormat format :
       {TraceFormat::automatic, TraceFormat::native, TraceFormat::ptx, TraceFormat::accelsim}) {
    TextThenZeros zeros("");
    std::istream in(&zeros);
    try {
      (void)detail::read_trace_chunks("z", in, format, hw, {}, kChunk);
      ADD_FAILURE() << "no error";
    } catch (const ToolError& e) {
      EXPECT_STREQ(e.what(), "z:1: not a text trace (a NUL byte)");
    }
    EXPECT_LE(zeros.zeros_given, 3 * kChunk);
  }
  // Whole lines of an Accel-Sim or PTX trace first, more than a chunk of
  // them too, then the zeros: refused in the chunk they come in, at their
  // line.
  const std::string accelsim = "-kernel name = k\n#BEGIN_TB\nthread block = 0,0,0\n";
  std::string ptx;
  for (int i = 0; i < 200; ++i) ptx += "warp 0 :  PC=0x0 (k.ptx:1) add.u32 %r1, %r2, %r3;\n";
  for (const std::string& lines : {accelsim, ptx}) {
    TextThenZeros zeros(lines);
    std::istream in(&zeros);
    const auto count = static_cast<std::size_t>(std::count(lines.begin(), lines.end(), '\n'));
    try {
      (void)detail::read_trace_chunks("z", in, TraceFormat::automatic, hw, {}, kChunk);
      ADD_FAILURE() << "no error";
    } catch (const ToolError& e) {
      EXPECT_EQ(std::string(e.what()), "z:" + std::to_string(count + 1) + ": not a text trace (a NUL byte)");
    }
    EXPECT_LE(zeros.zeros_given, 3 * kChunk);
  }
  // In a native trace after its first lines: the line of the NUL, at every
  // chunk size.
  const std::string native = std::string("warp 0\nalu r1\n\n", 15) + std::string("x\0y\n", 4) + "exit\n";
  for (std::size_t chunk = 1; chunk <= native.size(); ++chunk) {
    EXPECT_EQ(error_of(native, chunk, hw), "s.traceg:4: not a text trace (a NUL byte)") << chunk;
  }
}

// A native trace, a line at a time too (its warps' arrays then grow as
// read, where read whole they are sized from the lines ahead): the same
// blocks, labels, instructions and errors at every chunk size; and the
// examples.
TEST(ReadersStream, NativeTracesReadAsReadWhole) {
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  const std::string text =
      "# two blocks\nkernel k\nblock 0,1,0\nwarp 0\nfp_add r1 , r2 r3   # comment\nload+7 r4 , r1\n"
      "barrier\nwarp 1\nint_add r5 , r4\n\nblock\nwarp 3\nsfu r1 , r1\nexit\n";
  for (const std::string& variant : variants_of(text)) {
    const TraceFile whole = read_trace_text("s.traceg", variant, TraceFormat::automatic, hw);
    ASSERT_EQ(whole.format, TraceFormat::native);
    ASSERT_EQ(whole.blocks.size(), 2u);
    for (std::size_t chunk = 1; chunk <= variant.size() + 1; ++chunk) {
      expect_same(whole, chunked(variant, chunk, hw), "chunk " + std::to_string(chunk));
    }
  }
  for (const char* bad : {"warp 0\nfp_add r1\nwarp 0\n", "block 1\nwarp 0\nfp_add r1\nblock 1\n",
                          "warp 0\nfrob r1\n", "fp_add r1\n", "block 2\n"}) {
    std::string whole = "no error";
    try {
      (void)read_trace_text("s.traceg", bad, TraceFormat::native, hw);
    } catch (const ToolError& e) {
      whole = e.what();
    }
    EXPECT_NE(whole, "no error") << bad;
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{4096}}) {
      EXPECT_EQ(error_of(bad, chunk, hw), whole) << bad << " chunk " << chunk;
    }
  }
  for (const char* name : {"one-warp.trace", "two-warps.trace"}) {
    const std::string example = read_text_file(std::string(GPUWCET_SOURCE_DIR) + "/examples/traces/" + name);
    const TraceFile whole = read_trace_text("s.traceg", example, TraceFormat::automatic, hw);
    for (const std::size_t chunk : {std::size_t{5}, std::size_t{97}, detail::kStreamChunk}) {
      expect_same(whole, chunked(example, chunk, hw), name);
    }
  }
}

// A PTX trace, a line at a time too: the same warp, costs, observed cycles
// and notes at every chunk size, with and without its PTX file and launch
// shape (the lane analysis keeps nothing of a line past it).
TEST(ReadersStream, PtxTracesReadAsReadWhole) {
  using namespace gpuwcet::tools::test_ptx;
  const HardwareConfig hw = hardware_preset("orin-sm", 20);
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kLudLike);
  TraceReadOptions followed;
  followed.block_shape = BlockShape{32, 1, 1};
  followed.control_flow = &flow;
  for (const TraceReadOptions& ro : {TraceReadOptions{}, followed}) {
    for (const std::string& text : variants_of(lud_like_trace())) {
      const TraceFile whole = read_trace_text("s.traceg", text, TraceFormat::automatic, hw, ro);
      ASSERT_EQ(whole.format, TraceFormat::ptx);
      for (std::size_t chunk = 1; chunk <= text.size() + 1; chunk += chunk < 80 ? 1 : 37) {
        expect_same(whole, chunked(text, chunk, hw, TraceFormat::automatic, ro),
                    "chunk " + std::to_string(chunk));
      }
    }
  }
  // Errors at the same lines: a NUL byte, an instruction after the
  // observed time, a trace without instructions.
  std::string nul = lud_like_trace();
  nul.insert(nul.find("warp 0", 200), std::string("x\0y\n", 4));
  const std::string after = lud_like_trace() + "warp 0 :  PC=0x100 (k.ptx:3) ret;\n";
  const std::string none = "\n\nkernel_execution_time : 5\n";
  for (const std::string& text : {nul, after, none}) {
    std::string whole = "no error";
    try {
      (void)read_trace_text("s.traceg", text, TraceFormat::ptx, hw);
    } catch (const ToolError& e) {
      whole = e.what();
    }
    EXPECT_NE(whole, "no error");
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
      std::string streamed = "no error";
      try {
        (void)chunked(text, chunk, hw, TraceFormat::ptx);
      } catch (const ToolError& e) {
        streamed = e.what();
      }
      EXPECT_EQ(streamed, whole) << chunk;
    }
  }
}

// The data set's PTX traces with their runs' launch shape, piped.
TEST(ReadersStream, RealPtxTracesReadAsTheyStream) {
  const auto files = gpuwcet::test::files_in(gpuwcet::test::kSharedData / "gpgpusim-ptx-traces", ".trace");
  if (files.empty()) GTEST_SKIP() << "no PTX traces in " << gpuwcet::test::kSharedData;
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  TraceReadOptions ro;
  ro.block_shape = BlockShape{32, 1, 1};
  for (const fs::path& f : files) {
    const std::string text = read_text_file(f.string());
    const TraceFile whole = read_trace_text("s.traceg", text, TraceFormat::automatic, hw, ro);
    ASSERT_TRUE(whole.observed_cycles.has_value()) << f;
    for (const std::size_t chunk : {std::size_t{97}, std::size_t{4096}, detail::kStreamChunk}) {
      expect_same(whole, chunked(text, chunk, hw, TraceFormat::automatic, ro), f.filename().string());
    }
  }
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
