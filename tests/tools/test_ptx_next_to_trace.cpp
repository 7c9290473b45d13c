// The PTX file a GPGPU-Sim run leaves next to its trace, taken by default
// (trace_input.hpp, ptx_file_next_to; docs/trace-formats.md, "Join points
// from the PTX file"): found under the name the trace's lines give and
// nowhere else, never by reading standard input or a pipe, and in a
// profile manifest the same file as naming it (ptx_file), where
// `ptx_file = false` reads the trace as without one.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/profile_writer.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "ptx_kernel_text.hpp"
#include "scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
using namespace gpuwcet::tools;
using namespace gpuwcet::tools::test_ptx;

using Folder = gpuwcet::testing::ScratchFolder;

TEST(PtxFileNextToTrace, FoundUnderTheNameItsLinesGive) {
  const Folder dir("gpuwcet_ptx_next_to_found");
  const std::string trace = dir.write("t.trace", lud_like_trace());
  EXPECT_EQ(ptx_file_next_to(trace), "");  // not there yet
  dir.write("other.ptx", kLudLike);
  EXPECT_EQ(ptx_file_next_to(trace), "");  // another name is another program
  const std::string ptx = dir.write("k.ptx", kLudLike);
  EXPECT_EQ(ptx_file_next_to(trace), ptx);
  // A byte-order mark and blank lines before the first instruction.
  const std::string marked = dir.write("marked.trace", "\xEF\xBB\xBF\n  \r\n" + lud_like_trace());
  EXPECT_EQ(ptx_file_next_to(marked), ptx);
}

TEST(PtxFileNextToTrace, NoneForOtherTracesStandardInputOrPipes) {
  const Folder dir("gpuwcet_ptx_next_to_none");
  dir.write("k.ptx", kLudLike);
  EXPECT_EQ(ptx_file_next_to("-"), "");
  // Other formats, whose lines name no PTX file.
  EXPECT_EQ(ptx_file_next_to(dir.write("n.trace", "warp 0\nalu r1 <- r0\nexit\n")), "");
  EXPECT_EQ(ptx_file_next_to(dir.write("a.traceg", "-kernel name = k\n#BEGIN_TB\n")), "");
  // A first line that names no file, or a file in another folder: the
  // trace's lines are matched against the file by name, so nothing else
  // is guessed.
  EXPECT_EQ(ptx_file_next_to(dir.write("bare.trace", "warp 0 :  PC=0x100 ret;\n")), "");
  dir.write("sub/k.ptx", kLudLike);
  EXPECT_EQ(ptx_file_next_to(dir.write("sub.trace", "warp 0 :  PC=0x100 (sub/k.ptx:3) ret;\n")), "");
  EXPECT_EQ(ptx_file_next_to(dir.write("empty.trace", "")), "");
  EXPECT_EQ(ptx_file_next_to((dir.path() / "absent.trace").string()), "");
  // A folder under the name is no PTX file.
  const Folder other("gpuwcet_ptx_next_to_folder");
  const std::string lone = other.write("t.trace", lud_like_trace());
  fs::create_directories(other.path() / "k.ptx");
  EXPECT_EQ(ptx_file_next_to(lone), "");
  // A named pipe is not opened: its first line would be lost to the
  // reader (opening it here would block the test).
  const fs::path fifo = dir.path() / "pipe.trace";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(ptx_file_next_to(fifo.string()), "");
}

// A trace linked into a collection of traces is a file of its run's
// folder, where GPGPU-Sim left its gpgpusim.config and PTX file: both are
// found there, after the link's own folder, which comes first.
TEST(PtxFileNextToTrace, ALinkedTraceFindsTheFilesOfItsRun) {
  const Folder dir("gpuwcet_ptx_next_to_link");
  const std::string trace = dir.write("run/t.trace", lud_like_trace());
  const std::string ptx = dir.write("run/k.ptx", kLudLike);
  const std::string config = dir.write("run/gpgpusim.config", "-gpgpu_n_clusters 1\n");
  fs::create_directories(dir.path() / "traces");
  const fs::path relative_link = dir.path() / "traces" / "relative.trace";
  const fs::path absolute_link = dir.path() / "traces" / "absolute.trace";
  fs::create_symlink("../run/t.trace", relative_link);
  fs::create_symlink(trace, absolute_link);
  for (const fs::path& link : {relative_link, absolute_link}) {
    SCOPED_TRACE(link.string());
    const std::string found_ptx = ptx_file_next_to(link.string());
    const std::string found_config = config_next_to(link.string());
    ASSERT_FALSE(found_ptx.empty());
    ASSERT_FALSE(found_config.empty());
    EXPECT_TRUE(fs::equivalent(found_ptx, ptx));
    EXPECT_TRUE(fs::equivalent(found_config, config));
    EXPECT_TRUE(beside_link_target(link.string(), found_ptx));
    const TracePtxFile taken(link.string(), "", false, "--no-ptx");
    EXPECT_TRUE(taken.next_to_trace());
    EXPECT_STREQ(taken.where(), "next to the file it links to");
    const std::string told = taken.explained(ToolError("t.trace:2: mismatch")).what();
    EXPECT_NE(told.find("lies next to the file the trace links to"), std::string::npos) << told;
  }
  // The trace itself, read by its own path, finds them beside it.
  EXPECT_EQ(ptx_file_next_to(trace), ptx);
  EXPECT_FALSE(beside_link_target(trace, ptx));
  EXPECT_STREQ(TracePtxFile(trace, "", false, "--no-ptx").where(), "next to it");
  // Files next to the link are the user's choice and come first.
  const std::string own_ptx = dir.write("traces/k.ptx", kLudLike);
  const std::string own_config = dir.write("traces/gpgpusim.config", "-gpgpu_n_clusters 1\n");
  EXPECT_EQ(ptx_file_next_to(relative_link.string()), own_ptx);
  EXPECT_EQ(config_next_to(relative_link.string()), own_config);
  EXPECT_FALSE(beside_link_target(relative_link.string(), own_ptx));
  // A link within its target's folder, and one that leads nowhere.
  const fs::path same = dir.path() / "run" / "same.trace";
  fs::create_symlink("t.trace", same);
  EXPECT_EQ(ptx_file_next_to(same.string()), (dir.path() / "run" / "k.ptx").string());
  const fs::path dangling = dir.path() / "elsewhere" / "gone.trace";
  fs::create_directories(dangling.parent_path());
  fs::create_symlink("../run/absent.trace", dangling);
  EXPECT_EQ(ptx_file_next_to(dangling.string()), "");
  EXPECT_EQ(config_next_to(dangling.string()), "");
}

// The file chosen and loaded (TracePtxFile): given, none, or next to the
// trace; only one taken by default has its errors explained.
TEST(PtxFileNextToTrace, ErrorsItCausesSayWhereItCameFrom) {
  const Folder dir("gpuwcet_ptx_next_to_errors");
  const std::string trace = dir.write("t.trace", lud_like_trace());
  const std::string ptx = dir.write("k.ptx", kLudLike);
  const ToolError mismatch("t.trace:2: line 11 of k.ptx holds 'add.s32', the trace runs 'mul.lo.s32' there");
  const TracePtxFile taken(trace, "", false, "--no-ptx");
  EXPECT_EQ(taken.path(), ptx);
  EXPECT_TRUE(taken.next_to_trace());
  ASSERT_NE(taken.flow(), nullptr);
  const std::string told = taken.explained(mismatch).what();
  EXPECT_EQ(told.rfind(mismatch.what(), 0), 0u) << told;
  EXPECT_NE(told.find(ptx + " lies next to the trace"), std::string::npos) << told;
  EXPECT_NE(told.find("--no-ptx reads the trace without it"), std::string::npos) << told;
  // Named: the user's own choice, its errors as they are.
  const TracePtxFile named(trace, ptx, false, "--no-ptx");
  EXPECT_FALSE(named.next_to_trace());
  EXPECT_STREQ(named.explained(mismatch).what(), mismatch.what());
  // None.
  const TracePtxFile none(trace, "", true, "--no-ptx");
  EXPECT_EQ(none.path(), "");
  EXPECT_EQ(none.flow(), nullptr);
  // A file next to the trace that cannot be read says where it came from.
  const std::string empty_trace = dir.write("sub/t.trace", lud_like_trace());
  dir.write("sub/k.ptx", "");
  try {
    const TracePtxFile broken(empty_trace, "", false, "'ptx_file = false'");
    ADD_FAILURE() << "no error";
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("'ptx_file = false' reads the trace without it"), std::string::npos)
        << e.what();
  }
}

// Only a disagreement between the trace and the file followed is the
// file's (PtxFileMismatch, which the tools word as above); a malformed
// trace line is the trace's, though it names the file in its location.
TEST(PtxFileNextToTrace, OnlyDisagreementsWithTheFileAreTheFiles) {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kLudLike);
  TraceReadOptions options;
  options.block_shape = BlockShape{32, 1, 1};
  options.control_flow = &flow;
  const HardwareConfig hw = hardware_preset("orin-sm", 20);
  std::string flipped = lud_like_trace();
  flipped.replace(flipped.find("@%p1 bra BB0_3;"), 15, "@!%p1 bra BB0_3;");
  EXPECT_THROW(read_trace_text("t.trace", flipped, TraceFormat::ptx, hw, options), PtxFileMismatch);
  std::string misspelt = lud_like_trace();
  misspelt.replace(misspelt.find("warp 0", 100), 4, "wrap");
  try {
    (void)read_trace_text("t.trace", misspelt, TraceFormat::ptx, hw, options);
    ADD_FAILURE() << "no error";
  } catch (const PtxFileMismatch& e) {
    ADD_FAILURE() << "taken for the file's: " << e.what();
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("expected 'warp n"), std::string::npos) << e.what();
  }
}

// A manifest's traced kernel: the file next to the trace gives the sections
// naming it gives, and lower ones than without it (kLudLike's loop counter
// is the same in every lane only where the file says the lanes join).
TEST(PtxFileNextToTrace, ManifestTakesItAsIfNamed) {
  const Folder dir("gpuwcet_ptx_next_to_manifest");
  dir.write("traces/t.trace", lud_like_trace());
  dir.write("traces/k.ptx", kLudLike);
  auto sections = [&](const std::string& line) {
    const std::string m = dir.write("m.toml", "[[kernel]]\nname = \"k\"\nblock_threads = 32\n"
                                              "trace = \"traces/t.trace\"\nblock_dim = 32\n"
                                              "hardware = \"orin-sm\"\nmemory_latency = 20\n" +
                                                  line);
    return load_manifest(m).at(0).sections;
  };
  const auto by_default = sections("");
  const auto named = sections("ptx_file = \"traces/k.ptx\"\n");
  const auto without = sections("ptx_file = false\n");
  EXPECT_EQ(by_default, named);
  EXPECT_NE(by_default, without);
  // Every section is at most its value without the file.
  ASSERT_EQ(by_default.size(), without.size());
  for (std::size_t s = 0; s < by_default.size(); ++s) {
    ASSERT_EQ(by_default[s].size(), without[s].size());
    for (std::size_t w = 0; w < by_default[s].size(); ++w) {
      EXPECT_LE(by_default[s][w].first, without[s][w].first) << s << " " << w;
      EXPECT_LE(by_default[s][w].second, without[s][w].second) << s << " " << w;
    }
  }
  // A manifest's trace is a file: "-" is refused, whatever the manifest's
  // own path.
  EXPECT_THROW(load_manifest(dir.write("stdin.toml", "[[kernel]]\nname = \"k\"\nblock_threads = 32\n"
                                                     "trace = \"-\"\n")),
               ToolError);
  // ptx_file = true means nothing; the key needs a trace.
  EXPECT_THROW(sections("ptx_file = true\n"), ToolError);
  const std::string lone = dir.write("lone.toml", "[[kernel]]\nname = \"k\"\nblock_threads = 32\n"
                                                  "sections = [[[10, 5]]]\nptx_file = \"k.ptx\"\n");
  EXPECT_THROW(load_manifest(lone), ToolError);
}

}  // namespace
