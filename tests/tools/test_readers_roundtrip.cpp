// Round trips through the native format: a trace read from any format,
// written with write_native_trace and read back, has the same blocks, warps
// and instructions up to a renaming of registers (checked as a bijection).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace fs = std::filesystem;
using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

// Registers of `a` and `b` must correspond one to one.
class Renaming {
 public:
  void same(std::uint16_t a, std::uint16_t b) {
    const auto [i, new_a] = ab_.emplace(a, b);
    const auto [j, new_b] = ba_.emplace(b, a);
    EXPECT_EQ(i->second, b);
    EXPECT_EQ(j->second, a);
    (void)new_a;
    (void)new_b;
  }

 private:
  std::map<std::uint16_t, std::uint16_t> ab_, ba_;
};

void expect_same(const TraceFile& a, const TraceFile& b) {
  ASSERT_EQ(a.blocks.size(), b.blocks.size());
  EXPECT_EQ(a.register_count, b.register_count);
  Renaming regs;
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    EXPECT_EQ(a.blocks[i].label, b.blocks[i].label);
    ASSERT_EQ(a.blocks[i].warps.size(), b.blocks[i].warps.size());
    for (std::size_t w = 0; w < a.blocks[i].warps.size(); ++w) {
      const WarpTrace& x = a.blocks[i].warps[w];
      const WarpTrace& y = b.blocks[i].warps[w];
      EXPECT_EQ(x.warp_id, y.warp_id);
      ASSERT_EQ(x.code.size(), y.code.size());
      for (std::size_t k = 0; k < x.code.size(); ++k) {
        const Instruction& p = x.code[k];
        const Instruction& q = y.code[k];
        ASSERT_EQ(p.kind, q.kind) << "block " << i << " warp " << w << " instruction " << k;
        if (p.kind != OpKind::barrier && p.kind != OpKind::exit) {
          ASSERT_EQ(p.unit, q.unit);
        }
        ASSERT_EQ(p.dst_count, q.dst_count);
        ASSERT_EQ(p.src_count, q.src_count);
        for (std::size_t r = 0; r < p.dst_count; ++r) regs.same(p.dst[r], q.dst[r]);
        for (std::size_t r = 0; r < p.src_count; ++r) regs.same(p.src[r], q.src[r]);
      }
    }
  }
}

void round_trip(const std::string& path, const HardwareConfig& hw) {
  SCOPED_TRACE(path);
  const TraceFile a = read_trace(path, TraceFormat::automatic, hw);
  const std::string text = write_native_trace(a, hw.hw);
  const TraceFile b = read_trace_text("native", text, TraceFormat::native, hw);
  EXPECT_EQ(a.kernel, b.kernel);
  expect_same(a, b);
}

}  // namespace

TEST(ReadersRoundTrip, NativeExample) {
  round_trip(std::string(GPUWCET_SOURCE_DIR) + "/examples/traces/two-warps.trace",
             hardware_preset("orin-sm", 200));
}

TEST(ReadersRoundTrip, RealTraces) {
  const fs::path data = GPUWCET_SHARED_DATA_DIR;
  if (!fs::is_directory(data)) GTEST_SKIP() << data << " absent";
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(data)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".traceg" && ext != ".trace") continue;
    round_trip(e.path().string(), hw);
    ++n;
  }
  if (n == 0) GTEST_SKIP() << "no traces in " << data;
}

TEST(ReadersRoundTrip, UnitNamesOfTheDescriptionComeFirst) {
  // A unit called like a PTX opcode still names the unit in a native trace.
  const HardwareConfig c = parse_hardware_text(
      "hw.toml", "[[unit]]\nname = \"add\"\ninitiation = 3\nlatency = 7\n", {});
  const TraceFile t = read_trace_text("t", "warp 0\nadd r1 , r2\n", TraceFormat::native, c);
  EXPECT_EQ(t.blocks[0].warps[0].code[0].unit, 0u);
}

TEST(ReadersRoundTrip, WhatTheFormatCannotSay) {
  HardwareConfig c = hardware_preset("orin-sm", 200);
  TraceFile t;
  t.blocks.resize(1);
  t.blocks[0].warps.resize(1);
  Instruction ins;
  ins.kind = OpKind::load;
  ins.unit = static_cast<std::uint16_t>(find_unit(c.hw, "fp_add"));
  t.blocks[0].warps[0].code.push_back(ins);
  EXPECT_THROW((void)write_native_trace(t, c.hw), ToolError);
}
