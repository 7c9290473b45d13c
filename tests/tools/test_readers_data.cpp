// The readers on the real data sets of ../shared/data (skipped when absent):
// every Accel-Sim trace and every GPGPU-Sim PTX trace parses with the
// built-in classification, instruction counts match the files, and each
// gpgpusim.config gives the orin-sm preset's numbers.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "same_hardware.hpp"
#include "shared_data.hpp"

namespace fs = std::filesystem;
using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

const fs::path& kData = gpuwcet::test::kSharedData;
using gpuwcet::test::files_in;

// Instruction lines of a .traceg file, counted independently of the reader:
// lines inside #BEGIN_TB sections that are not markers, headers or blank.
std::size_t count_traceg_instructions(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '-' || line[0] == '#') continue;
    if (line.rfind("thread block", 0) == 0 || line.rfind("warp", 0) == 0 ||
        line.rfind("insts", 0) == 0) {
      continue;
    }
    ++n;
  }
  return n;
}

std::size_t count_real_instructions(const TraceFile& t) {
  std::size_t n = 0;
  for (const BlockTrace& b : t.blocks) {
    for (const WarpTrace& w : b.warps) {
      EXPECT_EQ(w.code.size(), w.lines.size());
      EXPECT_FALSE(w.code.empty());
      EXPECT_EQ(w.code.back().kind, OpKind::exit) << t.path;
      for (std::size_t i = 0; i < w.code.size(); ++i) {
        const Instruction& ins = w.code[i];
        if (i + 1 < w.code.size()) {
          EXPECT_NE(ins.kind, OpKind::exit);
        }
        for (std::size_t k = 0; k < ins.dst_count; ++k) EXPECT_LT(ins.dst[k], t.register_count);
        for (std::size_t k = 0; k < ins.src_count; ++k) EXPECT_LT(ins.src[k], t.register_count);
      }
      n += w.code.size();
    }
  }
  return n;
}

}  // namespace

TEST(ReadersData, EveryAccelSimTraceParses) {
  const auto files = files_in(kData / "accelsim-traces", ".traceg");
  if (files.empty()) GTEST_SKIP() << "no Accel-Sim traces in " << kData;
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.string());
    const TraceFile t = read_trace(p.string(), TraceFormat::automatic, hw);
    EXPECT_EQ(t.format, TraceFormat::accelsim);
    EXPECT_FALSE(t.kernel.empty());
    ASSERT_FALSE(t.blocks.empty());
    // Every block of the grid is traced.
    EXPECT_EQ(t.incomplete, "");
    // Every warp ends with EXIT in these traces, so no exit is appended and
    // the reader's count equals the file's instruction lines.
    EXPECT_EQ(count_real_instructions(t), count_traceg_instructions(p));
  }
}

TEST(ReadersData, AccelSimBlockCountsMatchTheTable) {
  const fs::path p = kData / "accelsim-traces" / "vectoradd-sm80.traceg";
  if (!fs::exists(p)) GTEST_SKIP() << p << " absent";
  const TraceFile t = read_trace(p.string(), TraceFormat::accelsim, hardware_preset("orin-sm", 200));
  // README of the data set: 196 blocks of 256 threads = 8 warps each.
  ASSERT_EQ(t.blocks.size(), 196u);
  for (const BlockTrace& b : t.blocks) EXPECT_EQ(b.warps.size(), 8u);
  EXPECT_EQ(t.blocks.front().label, "block 0,0,0");
}

TEST(ReadersData, EveryPtxTraceParses) {
  const auto files = files_in(kData / "gpgpusim-ptx-traces", ".trace");
  if (files.empty()) GTEST_SKIP() << "no PTX traces in " << kData;
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.string());
    const HardwareConfig hw = load_hardware_file((p.parent_path() / "gpgpusim.config").string(), {});
    const TraceFile t = read_trace(p.string(), TraceFormat::automatic, hw);
    EXPECT_EQ(t.format, TraceFormat::ptx);
    ASSERT_EQ(t.blocks.size(), 1u);
    ASSERT_TRUE(t.observed_cycles.has_value());
    EXPECT_GT(*t.observed_cycles, 0u);
    std::ifstream in(p);
    std::string line;
    std::size_t lines = 0;
    while (std::getline(in, line)) lines += line.rfind("warp ", 0) == 0 ? 1 : 0;
    const std::size_t n = count_real_instructions(t);
    // One instruction per line, plus an exit when the warp ends without ret.
    EXPECT_GE(n, lines);
    EXPECT_LE(n, lines + t.blocks[0].warps.size());
  }
}

TEST(ReadersData, GpgpusimConfigsEqualTheOrinPreset) {
  const auto files = files_in(kData / "gpgpusim-ptx-traces", ".config");
  if (files.empty()) GTEST_SKIP() << "no gpgpusim.config in " << kData;
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.string());
    const HardwareConfig file = load_hardware_file(p.string(), 100);
    const HardwareConfig preset = hardware_preset("orin-sm", 100);
    gpuwcet::testing::expect_same_hardware(file, preset, true);
    EXPECT_TRUE(file.notes.empty()) << file.notes.front();
    EXPECT_TRUE(file.modelled);
    // Perfect memory: global accesses take the perfect-memory latency
    // (hardware_presets.hpp); shared memory the file's 29 (the unit
    // comparison above).
    EXPECT_EQ(load_hardware_file(p.string(), {}).memory_latency, kGpgpuSimPerfectMemoryLatency);
  }
}
