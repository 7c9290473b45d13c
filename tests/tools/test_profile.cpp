// Compiled timing profiles: written by the host tools, read in place by the
// core; truncation, bit flips and a foreign version are rejected.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/profile.hpp"
#include "gpuwcet_tools/block_analysis.hpp"
#include "gpuwcet_tools/block_generator.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/profile_writer.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "shared_data.hpp"
#include "scratch_folder.hpp"
#include "test_seed.hpp"

namespace {

using gpuwcet::Status;
using gpuwcet::tools::KernelEntry;

std::vector<KernelEntry> two_kernels() {
  KernelEntry a;
  a.name = "reduce";
  a.block_threads = 64;
  a.registers_per_thread = 32;
  a.shared_memory_per_block = 512;
  a.sections = {{{10, 5}, {10, 3}}, {{4, 1}, {6, 0}}};
  KernelEntry b;
  b.name = "llcll";
  b.block_threads = 256;
  b.kernel_string = "LLCLL";
  b.units = {{'L', 16}, {'C', 32}};
  return {a, b};
}

gsl::span<const std::uint8_t> span_of(const std::vector<std::uint8_t>& v) {
  return {v.data(), v.size()};
}

Status open(const std::vector<std::uint8_t>& v) {
  gpuwcet::Profile p;
  return gpuwcet::open_profile(span_of(v), p);
}

TEST(Profile, RoundTrip) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  gpuwcet::Profile p;
  ASSERT_EQ(gpuwcet::open_profile(span_of(blob), p), Status::ok);
  ASSERT_EQ(p.kernel_count(), 2u);
  gpuwcet::ProfileKernel k;
  ASSERT_EQ(p.find("reduce", k), Status::ok);
  EXPECT_EQ(k.name(), "reduce");
  EXPECT_EQ(k.block_threads(), 64u);
  EXPECT_EQ(k.warp_count(), 2u);
  EXPECT_EQ(k.section_count(), 2u);
  EXPECT_EQ(k.registers_per_thread(), 32u);
  EXPECT_EQ(k.shared_memory_per_block(), 512u);
  EXPECT_EQ(k.phase(1, 1).length, 6u);
  EXPECT_EQ(k.phase(0, 0).demand, 5u);
  EXPECT_TRUE(k.kernel_string().empty());
  gpuwcet::BlockTiming t;
  ASSERT_EQ(gpuwcet::block_timing(k, t), Status::ok);
  // (length, demand) pairs; per section max over w of length_w plus the
  // other warps' demand. Section 0: max(10 + 3, 10 + 5) = 15; section 1:
  // max(4 + 0, 6 + 1) = 7. E = all demand = 5 + 3 + 1 + 0 = 9.
  EXPECT_EQ(t.alone_bound, 22u);
  EXPECT_EQ(t.interference_cycles, 9u);
  ASSERT_EQ(p.find("llcll", k), Status::ok);
  EXPECT_EQ(k.kernel_string(), "LLCLL");
  EXPECT_EQ(k.makespan_warps(), 8u);
  EXPECT_EQ(k.makespan_sm().class_count, 2u);
  ASSERT_EQ(gpuwcet::block_timing(k, t), Status::ok);
  EXPECT_EQ(t.interference_cycles, 8u * 9u);  // transformed LLLLCLLLL, 8 warps
  EXPECT_GT(t.alone_bound, 0u);
  EXPECT_EQ(p.find("missing", k), Status::not_found);
  EXPECT_EQ(p.find("reduce2", k), Status::not_found);
}

TEST(Profile, AnyAlignmentAndTrailingBytes) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  for (std::size_t shift = 0; shift < 8; ++shift) {
    std::vector<std::uint8_t> buf(blob.size() + shift + 5, 0xAB);
    std::memcpy(buf.data() + shift, blob.data(), blob.size());
    gpuwcet::Profile p;
    EXPECT_EQ(gpuwcet::open_profile({buf.data() + shift, blob.size() + 5}, p), Status::ok);
  }
}

TEST(Profile, EveryTruncationIsRejected) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  for (std::size_t n = 0; n < blob.size(); ++n) {
    gpuwcet::Profile p;
    EXPECT_EQ(gpuwcet::open_profile({blob.data(), n}, p), Status::malformed_data) << n;
  }
  gpuwcet::Profile p;
  EXPECT_EQ(gpuwcet::open_profile(gsl::span<const std::uint8_t>(), p),
            Status::malformed_data);
}

TEST(Profile, EverySingleBitFlipIsRejected) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  for (std::size_t i = 0; i < blob.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      auto bad = blob;
      bad[i] = static_cast<std::uint8_t>(bad[i] ^ (1u << bit));
      EXPECT_EQ(open(bad), Status::malformed_data) << "byte " << i << " bit " << bit;
    }
  }
}

// Rewrites a field and the CRC, as a writer of another version would.
std::vector<std::uint8_t> patched(std::vector<std::uint8_t> blob, std::size_t at,
                                  std::uint8_t value) {
  blob[at] = value;
  const std::uint32_t crc =
      gpuwcet::crc32({blob.data(), blob.size() - gpuwcet::kProfileTrailerSize});
  for (int i = 0; i < 4; ++i) {
    blob[blob.size() - 4 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
  }
  return blob;
}

TEST(Profile, WrongVersionAndBadFieldsWithAValidCrc) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  EXPECT_EQ(open(patched(blob, 4, 1)), Status::unsupported_version);  // version 1: the unsafe exec/idle records
  EXPECT_EQ(open(patched(blob, 4, 2)), Status::unsupported_version);  // version 2: kernels in any order
  EXPECT_EQ(open(patched(blob, 4, 3)), Status::unsupported_version);  // version 3: no alone bound
  EXPECT_EQ(open(patched(blob, 4, 4)), Status::unsupported_version);  // version 4: no barrier issue slots
  EXPECT_EQ(open(patched(blob, 4, 6)), Status::unsupported_version);
  EXPECT_EQ(open(patched(blob, 4, 0)), Status::unsupported_version);
  EXPECT_EQ(open(patched(blob, 0, 'X')), Status::malformed_data);       // magic
  EXPECT_EQ(open(patched(blob, 16, 1)), Status::malformed_data);        // flags
  EXPECT_EQ(open(patched(blob, 12, 3)), Status::malformed_data);        // kernel count
  // "reduce", listed first but stored second: records follow name order.
  const std::size_t rec = blob[40] | (blob[41] << 8);
  ASSERT_EQ(std::memcmp(blob.data() + rec, "reduce", 7), 0);
  EXPECT_EQ(open(patched(blob, rec + 0, 0)), Status::malformed_data);   // empty name
  EXPECT_EQ(open(patched(blob, rec + 3, ' ')), Status::malformed_data); // space in name
  EXPECT_EQ(open(patched(blob, rec + 32, 0)), Status::malformed_data);  // block_threads 64 -> 0
  EXPECT_EQ(open(patched(blob, rec + 36, 16)), Status::malformed_data); // warp size vs warps
  EXPECT_EQ(open(patched(blob, rec + 52, 3)), Status::malformed_data);  // sections vs size
  EXPECT_EQ(open(patched(blob, rec + 64, 1)), Status::malformed_data);  // classes w/o string
}

// Kernels are stored by name, whatever the order they are listed in, so
// that a reader validates a profile of the most kernels (65535) in linear
// time and finds one by binary search. Checking name uniqueness pairwise
// took 83 s on such a profile.
TEST(Profile, ManyKernelsAreStoredByNameAndOpenInLinearTime) {
  std::vector<KernelEntry> kernels(gpuwcet::kProfileMaxKernels);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    KernelEntry& k = kernels[i];
    k.name = "kernel_" + std::to_string(kernels.size() - i);  // listed in decreasing order
    k.block_threads = 32;
    k.sections = {{{i + 1, 1}}};
  }
  const auto blob = gpuwcet::tools::write_profile(kernels);
  gpuwcet::Profile p;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(gpuwcet::open_profile(span_of(blob), p), Status::ok);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::seconds(10));  // linear: milliseconds
  ASSERT_EQ(p.kernel_count(), kernels.size());
  for (std::uint32_t i = 1; i < p.kernel_count(); ++i) {
    ASSERT_LT(p.kernel(i - 1).name(), p.kernel(i).name()) << i;
  }
  for (const KernelEntry& k : kernels) {
    std::uint32_t index = 0;
    ASSERT_EQ(p.find_index(k.name, index), Status::ok) << k.name;
    ASSERT_EQ(p.kernel(index).name(), k.name);
    ASSERT_EQ(p.kernel(index).phase(0, 0).length, k.sections[0][0].first);
  }
  std::uint32_t index = 0;
  EXPECT_EQ(p.find_index("kernel_0", index), Status::not_found);
  EXPECT_EQ(p.find_index("kernel_65536", index), Status::not_found);
  EXPECT_EQ(p.find_index("a", index), Status::not_found);
  EXPECT_EQ(p.find_index("z", index), Status::not_found);
}

TEST(Profile, WriterRefusesBadKernels) {
  auto k = two_kernels();
  k[0].sections[1].pop_back();
  EXPECT_THROW(gpuwcet::tools::write_profile(k), gpuwcet::tools::ToolError);
  k = two_kernels();
  k[1].name = k[0].name;
  EXPECT_THROW(gpuwcet::tools::write_profile(k), gpuwcet::tools::ToolError);
  k = two_kernels();
  k[1].kernel_string = "LLX";
  EXPECT_THROW(gpuwcet::tools::write_profile(k), gpuwcet::tools::ToolError);
  k = two_kernels();
  k[0].name = std::string(32, 'a');
  EXPECT_THROW(gpuwcet::tools::write_profile(k), gpuwcet::tools::ToolError);
}

TEST(Profile, EmitC) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  const std::string c = gpuwcet::tools::emit_c(blob, "my_profile", "gpuwcet compile x");
  EXPECT_NE(c.find("const unsigned char my_profile["), std::string::npos);
  EXPECT_NE(c.find("gpuwcet compile x"), std::string::npos);
  EXPECT_NE(c.find("my_profile_size = " + std::to_string(blob.size()) + "u;"), std::string::npos);
}

// The symbol must make C that compiles: a C identifier, not a keyword.
TEST(Profile, EmitCRefusesSymbolsThatAreNotCIdentifiers) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  for (const char* bad : {"", "my-profile 1", "1profile", "int", "pro\xC3\xA9"}) {
    EXPECT_THROW(gpuwcet::tools::emit_c(blob, bad, "x"), gpuwcet::tools::ToolError) << bad;
  }
  EXPECT_NO_THROW(gpuwcet::tools::emit_c(blob, "_profile_2", "x"));
}

// Paths in the command may hold "*/", "/*" and any byte: the comment must
// still end only where the generator ends it, in printable ASCII.
TEST(Profile, EmitCCommentEndsOnlyWhereItShould) {
  const auto blob = gpuwcet::tools::write_profile(two_kernels());
  const std::string c =
      gpuwcet::tools::emit_c(blob, "p", "gpuwcet compile a*/m.toml /*b/**/ r\xE9sultat\x01.toml");
  const std::size_t end = c.find("*/");
  EXPECT_EQ(end, c.find("\n */\n") + 2);
  EXPECT_EQ(c.find("/*", 1), std::string::npos);
  EXPECT_NE(c.find("r?sultat?.toml"), std::string::npos);
  for (std::size_t i = 0; i < end; ++i) {
    EXPECT_TRUE((c[i] >= 0x20 && c[i] <= 0x7E) || c[i] == '\n') << i;
  }
}

// A kernel compiled from a trace: the profile's B_1, from (length, demand)
// pairs, is never below the resource-aware block bound of the same block,
// which no simulated schedule exceeds.
TEST(Profile, CompiledFromTraceBoundsTheSimulatedBlock) {
  const auto kernels =
      gpuwcet::tools::load_manifest(std::string(GPUWCET_SOURCE_DIR) + "/examples/kernels/admission.toml");
  const auto blob = gpuwcet::tools::write_profile(kernels);
  gpuwcet::Profile p;
  ASSERT_EQ(gpuwcet::open_profile(span_of(blob), p), Status::ok);
  gpuwcet::ProfileKernel k;
  ASSERT_EQ(p.find("saxpy", k), Status::ok);
  gpuwcet::BlockTiming t;
  ASSERT_EQ(gpuwcet::block_timing(k, t), Status::ok);

  const auto hw = gpuwcet::tools::hardware_preset("orin-sm", 200);
  const auto trace = gpuwcet::tools::read_trace(
      std::string(GPUWCET_SOURCE_DIR) + "/examples/traces/two-warps.trace",
      gpuwcet::tools::TraceFormat::automatic, hw);
  const auto a = gpuwcet::tools::analyse_block(hw.hw, trace, 0);
  EXPECT_GE(t.alone_bound, a.bound.safe_upper_bound);
  std::vector<std::vector<gpuwcet::Instruction>> warps;
  for (const auto& w : trace.blocks[0].warps) warps.push_back(w.code);
  for (auto policy : {gpuwcet::tools::SchedulerPolicy::greedy_then_oldest,
                      gpuwcet::tools::SchedulerPolicy::loose_round_robin}) {
    gpuwcet::tools::BlockSimulationOptions so;
    so.policy = policy;
    EXPECT_LE(gpuwcet::tools::simulate_block(hw.hw, warps, trace.register_count, so).cycles,
              t.alone_bound);
  }
}

// A kernel's bound alone (`block_bound_alone`) tightens B_1 only: B_S,
// which bounds a block beside others, stays the sections' bound. Above it
// the key contradicts the sections; without sections it has nothing to
// tighten; equal to it, the record keeps none.
TEST(Profile, BlockBoundAloneTightensOnlyB1) {
  auto k = two_kernels();
  k[0].block_bound_alone = 20;  // sections' bound 22 (RoundTrip)
  auto blob = gpuwcet::tools::write_profile(k);
  gpuwcet::Profile p;
  ASSERT_EQ(gpuwcet::open_profile(span_of(blob), p), Status::ok);
  gpuwcet::ProfileKernel kernel;
  ASSERT_EQ(p.find("reduce", kernel), Status::ok);
  EXPECT_EQ(kernel.alone_bound(), 20u);
  gpuwcet::BlockTiming t;
  ASSERT_EQ(gpuwcet::block_timing(kernel, t), Status::ok);
  EXPECT_EQ(t.alone_bound, 20u);
  EXPECT_EQ(t.co_resident_bound, 22u);
  EXPECT_EQ(t.interference_cycles, 9u);
  k[0].block_bound_alone = 22;
  blob = gpuwcet::tools::write_profile(k);
  ASSERT_EQ(gpuwcet::open_profile(span_of(blob), p), Status::ok);
  ASSERT_EQ(p.find("reduce", kernel), Status::ok);
  EXPECT_EQ(kernel.alone_bound(), 0u);
  k[0].block_bound_alone = 23;
  EXPECT_THROW(gpuwcet::tools::write_profile(k), gpuwcet::tools::ToolError);
  k = two_kernels();
  k[1].block_bound_alone = 5;  // the makespan model: no sections
  EXPECT_THROW(gpuwcet::tools::write_profile(k), gpuwcet::tools::ToolError);
}

// The B_S of a profile compiled from `manifest`'s only kernel.
gpuwcet::BlockTiming compiled_timing(const std::string& manifest) {
  const auto blob = gpuwcet::tools::write_profile(gpuwcet::tools::load_manifest(manifest));
  gpuwcet::Profile p;
  gpuwcet::BlockTiming t;
  EXPECT_EQ(gpuwcet::open_profile(span_of(blob), p), Status::ok);
  EXPECT_EQ(gpuwcet::block_timing(p.kernel(0), t), Status::ok);
  return t;
}

// `block = "worst"` stands for every block of the trace (docs/kernel-wcet.md,
// A4): B_1 is the largest block bound (block-wcet's; a one-warp block's
// time alone), B_S and E are at least each block's own, and no schedule the
// simulator runs of any block exceeds B_1. 120 generated traces of 1-3
// blocks of 1-4 warps, each block with its own code, warp count and 0-2
// barriers (the profile has the most warps: the missing ones count (0, 0)),
// on the orin-sm preset (barriers that do not drain, collector units).
TEST(Profile, WorstOfATraceBoundsEveryBlock) {
  namespace fs = std::filesystem;
  const gpuwcet::testing::ScratchFolder scratch("gpuwcet_profile_worst_block");
  const fs::path& dir = scratch.path();
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(20261124));
  int tighter_alone = 0;
  for (int n = 0; n < 120; ++n) {
    const std::uint32_t latency = std::array<std::uint32_t, 3>{5, 50, 200}[n % 3];
    const auto hw = gpuwcet::tools::hardware_preset("orin-sm", latency);
    gpuwcet::tools::TraceFile trace;
    trace.path = "generated";
    const std::size_t blocks = 1 + rng() % 3;
    for (std::size_t b = 0; b < blocks; ++b) {
      gpuwcet::tools::BlockGeneratorOptions o;
      o.warps = 1 + rng() % 4;
      o.instructions = 4 + rng() % 40;
      o.barriers = rng() % 3;
      o.dependency = 0.2 + 0.2 * static_cast<double>(rng() % 4);
      gpuwcet::tools::BlockTrace block;
      block.label = "block " + std::to_string(b);
      const auto code = gpuwcet::tools::generate_block(hw.hw, o, rng);
      for (std::size_t w = 0; w < code.size(); ++w) {
        block.warps.push_back({static_cast<std::uint32_t>(w), code[w],
                               std::vector<std::uint32_t>(code[w].size(), 0)});
      }
      trace.blocks.push_back(block);
    }
    std::ofstream(dir / "t.trace") << gpuwcet::tools::write_native_trace(trace, hw.hw);
    std::size_t most = 0;
    for (const auto& b : trace.blocks) most = std::max(most, b.warps.size());
    auto manifest = [&](const std::string& block, std::size_t warps) {
      const fs::path m = dir / "m.toml";
      std::ofstream(m) << "[[kernel]]\nname = \"k\"\nblock_threads = " << 32 * warps
                       << "\ntrace = \"t.trace\"\nhardware = \"orin-sm\"\nmemory_latency = "
                       << latency << "\nblock = \"" << block << "\"\n";
      return m.string();
    };
    const gpuwcet::BlockTiming worst = compiled_timing(manifest("worst", most));
    EXPECT_LE(worst.alone_bound, worst.co_resident_bound);
    if (worst.alone_bound < worst.co_resident_bound) ++tighter_alone;
    const auto read = gpuwcet::tools::read_trace((dir / "t.trace").string(),
                                                 gpuwcet::tools::TraceFormat::native, hw);
    std::uint64_t largest = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      const gpuwcet::BlockTiming one = compiled_timing(manifest(std::to_string(b), trace.blocks[b].warps.size()));
      const auto a = gpuwcet::tools::analyse_block(hw.hw, read, b, hw.barriers_drain);
      EXPECT_EQ(one.alone_bound, a.bound.safe_upper_bound) << n << " block " << b;
      EXPECT_GE(worst.co_resident_bound, one.co_resident_bound) << n << " block " << b;
      EXPECT_GE(worst.interference_cycles, one.interference_cycles) << n << " block " << b;
      largest = std::max(largest, one.alone_bound);
      std::vector<std::vector<gpuwcet::Instruction>> codes;
      for (const auto& w : read.blocks[b].warps) codes.push_back(w.code);
      for (auto policy : {gpuwcet::tools::SchedulerPolicy::greedy_then_oldest,
                          gpuwcet::tools::SchedulerPolicy::loose_round_robin,
                          gpuwcet::tools::SchedulerPolicy::defer_holds}) {
        gpuwcet::tools::BlockSimulationOptions so;
        so.policy = policy;
        so.barriers_drain = hw.barriers_drain;
        so.record_trace = false;
        EXPECT_LE(gpuwcet::tools::simulate_block(hw.hw, codes, read.register_count, so).cycles,
                  worst.alone_bound)
            << n << " block " << b;
      }
    }
    EXPECT_EQ(worst.alone_bound, largest) << n;
  }
  // One-warp blocks keep their time alone, below the section lengths.
  EXPECT_GT(tighter_alone, 10);
}

// A manifest's paths are found as the system finds them: through a folder
// that is a symbolic link, "../traces/t.trace" is the link target's
// sibling, not the link's (a lexical "configs/.." dropped there would read
// another trace, here one with other instructions, without a word).
TEST(Profile, ManifestPathsGoThroughSymbolicLinks) {
  namespace fs = std::filesystem;
  const gpuwcet::testing::ScratchFolder scratch("gpuwcet_manifest_symlink");
  const fs::path& dir = scratch.path();
  fs::create_directories(dir / "real" / "configs");
  fs::create_directories(dir / "real" / "traces");
  fs::create_directories(dir / "traces");
  std::ofstream(dir / "real" / "traces" / "t.trace") << "warp 0\nfp_add r1 , r2\nfp_add r3 , r1\nexit\n";
  std::ofstream(dir / "traces" / "t.trace") << "warp 0\nint_add r1 , r2\nexit\n";
  std::ofstream(dir / "real" / "configs" / "m.toml")
      << "[[kernel]]\nname = \"k\"\nblock_threads = 32\ntrace = \"../traces/t.trace\"\nhardware = \"orin-sm\"\n";
  fs::create_directory_symlink(dir / "real" / "configs", dir / "link");
  const auto through_link = gpuwcet::tools::load_manifest((dir / "link" / "m.toml").string()).at(0).sections;
  const auto direct = gpuwcet::tools::load_manifest((dir / "real" / "configs" / "m.toml").string()).at(0).sections;
  EXPECT_EQ(through_link, direct);
}

// A traced kernel without `hardware` or `hardware_file` is bounded, as by
// block-wcet, on the gpgpusim.config next to its trace when there is one:
// the same sections as naming that file, not the orin-sm preset's.
TEST(Profile, TraceDefaultsToTheConfigNextToIt) {
  namespace fs = std::filesystem;
  const fs::path trace = gpuwcet::test::kSharedData / "gpgpusim-ptx-traces" /
                         "nn-rodinia-2.0-ft" / "_Z6euclidPcffPfiii1.trace";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace;
  const gpuwcet::testing::ScratchFolder scratch("gpuwcet_manifest_default_hw");
  const fs::path& dir = scratch.path();
  auto compile = [&](const std::string& hardware_line) {
    const fs::path m = dir / "m.toml";
    std::ofstream(m) << "[[kernel]]\nname = \"nn\"\nblock_threads = 32\ntrace = \""
                     << fs::absolute(trace).string() << "\"\n"
                     << hardware_line;
    return gpuwcet::tools::load_manifest(m.string()).at(0).sections;
  };
  const auto by_default = compile("");
  const auto named = compile("hardware_file = \"" +
                             fs::absolute(trace.parent_path() / "gpgpusim.config").string() + "\"\n");
  const auto preset = compile("hardware = \"orin-sm\"\n");
  EXPECT_EQ(by_default, named);
  EXPECT_NE(by_default, preset);
}

}  // namespace
