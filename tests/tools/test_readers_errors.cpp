// Malformed input of every reader gives a ToolError whose message starts
// with "file:line: " and names what is wrong.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"

using namespace gpuwcet::tools;

namespace {

void expect_error(const std::function<void()>& f, const std::string& prefix,
                  const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "no error; expected " << prefix << " ... " << words;
  } catch (const ToolError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(prefix, 0), 0u) << m;
    EXPECT_NE(m.find(words), std::string::npos) << m;
  }
}

void trace_error(const std::string& text, TraceFormat format, const std::string& prefix,
                 const std::string& words) {
  const HardwareConfig c = hardware_preset("orin-sm", 100);
  expect_error([&] { (void)read_trace_text("t.in", text, format, c); }, prefix, words);
}

const std::string kTb = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n";

}  // namespace

TEST(ReadersErrors, AccelSim) {
  const auto a = TraceFormat::accelsim;
  // The header's launch shape: well formed, and the blocks and warps within it.
  trace_error("-block dim = (0,1,1)\n" + kTb, a, "t.in:1: ", "'-block dim' must be (x,y,z)");
  trace_error("-block dim = (1024,2,1)\n" + kTb, a, "t.in:1: ", "at most 1024 threads");
  trace_error("-block dim = (4294967295,4294967295,4294967295)\n" + kTb, a, "t.in:1: ",
              "at most 1024 threads");
  trace_error("-grid dim = (2,1)\n" + kTb, a, "t.in:1: ", "'-grid dim' must be (x,y,z)");
  trace_error("-grid dim = (1,1,1)\n#BEGIN_TB\nthread block = 0,1,0\n", a, "t.in:3: ",
              "thread block 0,1,0 lies outside the grid (1,1,1)");
  trace_error("-block dim = (64,1,1)\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n", a, "t.in:4: ",
              "warp 2 does not exist in a block of 64 threads (2 warps of 32");
  // Named at the count that the lines do not match.
  trace_error(kTb + "insts = 2\n0000 ffffffff 1 R1 MOV 1 R2 0 0\n#END_TB\n", a, "t.in:4: ",
              "declares insts = 2 but has 1");
  trace_error(kTb + "insts = 1\n0000 ffffffff 1 R1 FROB 1 R2 0 0\n#END_TB\n", a, "t.in:5: ",
              "unknown opcode 'FROB'");
  trace_error(kTb + "insts = 1\n0000 ffffffff 1 X1 MOV 1 R2 0 0\n#END_TB\n", a, "t.in:5: ",
              "'X1' is not a register");
  trace_error(kTb + "insts = 1\n0000 ffffffff 1 R1 MOV 1 R2 0 0\n", a, "t.in:5: ",
              "missing #END_TB");
  trace_error(kTb + "insts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x10\n#END_TB\n", a,
              "t.in:5: ", "address field");
  trace_error(kTb + "insts = 1\nzzzz ffffffff 1 R1 MOV 1 R2 0 0\n#END_TB\n", a, "t.in:5: ",
              "bad PC");
  trace_error(kTb + "insts = 1\n0000 ffffffff 9 R1 MOV 1 R2 0 0\n#END_TB\n", a, "t.in:5: ",
              "destination count");
  trace_error("#BEGIN_TB\n0000 ffffffff 1 R1 MOV 1 R2 0 0\n#END_TB\n", a, "t.in:2: ",
              "before 'warp = n'");
  trace_error(kTb + "insts = 0\nwarp = 0\ninsts = 0\n#END_TB\n", a, "t.in:5: ", "twice");
  trace_error("-kernel name = k\n", a, "t.in:1: ", "no #BEGIN_TB");
  // Two traces joined with cat: the second kernel's header follows the
  // first kernel's blocks.
  const std::string tb = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                         "0000 ffffffff 1 R1 MOV 1 R2 0 0\n#END_TB\n";
  trace_error("-kernel name = k1\n" + tb + "-kernel name = k2\n" + tb, a, "t.in:8: ",
              "after the thread blocks of kernel 'k1'");
  // Blocks are picked by their coordinates: each block once per file.
  const std::string tb2 = "#BEGIN_TB\nthread block = 0, 0,0\nwarp = 0\ninsts = 1\n"
                          "0000 ffffffff 1 R1 MOV 1 R2 0 0\n#END_TB\n";
  trace_error(tb + tb2, a, "t.in:8: ", "thread block 0,0,0 appears twice (first at line 2)");
  // Coordinates left out are 0: "0" is block 0,0,0 too.
  const std::string tb3 = "#BEGIN_TB\nthread block = 0\nwarp = 0\ninsts = 1\n"
                          "0000 ffffffff 1 R1 MOV 1 R2 0 0\n#END_TB\n";
  trace_error(tb + tb3, a, "t.in:8: ", "thread block 0,0,0 appears twice (first at line 2)");
  trace_error("#BEGIN_TB\nthread block = 0,x,0\n", a, "t.in:2: ", "unsigned coordinates");
  trace_error("#BEGIN_TB\nthread block = 0,0,0,0\n", a, "t.in:2: ", "unsigned coordinates");
  trace_error("#BEGIN_TB\nthread block = 0,0,0\nthread block = 1,0,0\n", a, "t.in:3: ",
              "a second 'thread block' line");
}

TEST(ReadersErrors, Ptx) {
  const auto p = TraceFormat::ptx;
  trace_error("warp 0 : PC=0x0 (k.ptx:1) add.s32 %r1, %r2, 1\n", p, "t.in:1: ", "';'");
  trace_error("warp 0 : PC=0x0 (k.ptx:1) add.s32 %r1, %r2, 1;\nwarp 0 : PC=0x8 (k.ptx:2) frob.s32 %r1;\n",
              p, "t.in:2: ", "unknown opcode 'frob.s32'");
  trace_error("warp x : PC=0x0 (k.ptx:1) ret;\n", p, "t.in:1: ", "bad warp number");
  trace_error("warp 0 : (k.ptx:1) ret;\n", p, "t.in:1: ", "PC=");
  trace_error("warp 0 : PC=0x0 (k.ptx:1) ret;\nkernel_execution_time : many\n", p, "t.in:2: ",
              "kernel_execution_time");
  trace_error("warp 0 : PC=0x0 (k.ptx:1 ret;\n", p, "t.in:1: ", "unclosed '('");
  trace_error("warp 0 : PC=0x0 (k.ptx:1) add.s32 %r1, , %r2;\n", p, "t.in:1: ", "empty operand");
  // An operand cut short would run into the next one.
  trace_error("warp 0 : PC=0x0 (k.ptx:1) ld.param.u32 %r1, [k_param_1;\n", p, "t.in:1: ",
              "unbalanced brackets in the operands of 'ld.param.u32 %r1, [k_param_1'");
  trace_error("warp 0 : PC=0x0 (k.ptx:1) st.global.v2.f32 [%rd1], {%f1, %f2];\n", p, "t.in:1: ",
              "unbalanced brackets");
  trace_error("warp 0 : PC=0x0 (k.ptx:1) ld.global.u32 %r1, %rd1];\n", p, "t.in:1: ",
              "unbalanced brackets");
  trace_error(
      "warp 0 : PC=0x0 (k.ptx:1) st.v4.f32 [%rd1], {%f1, %f2, %f3, %f4}, %f5, %f6;\n", p,
      "t.in:1: ", "source registers");
  trace_error("kernel_execution_time : 5\n", p, "t.in:1: ", "no instruction");
  // A width PTX does not have would be costed as 4 bytes.
  trace_error("warp 0 : PC=0x0 (k.ptx:1) ld.global.u35 %r1, [%rd1];\n", p, "t.in:1: ",
              "'u35' in 'ld.global.u35' is not a PTX type");
  trace_error("warp 0 : PC=0x0 (k.ptx:1) add.f70 %f1, %f2, %f3;\n", p, "t.in:1: ", "'f70'");
}

TEST(ReadersErrors, Native) {
  const auto n = TraceFormat::native;
  trace_error("fp_add r1 , r2\n", n, "t.in:1: ", "outside a warp");
  trace_error("warp 0\nfp_add 3r , r2\n", n, "t.in:2: ", "'3r' is not a register");
  trace_error("warp 0\nwarp 0\n", n, "t.in:2: ", "twice");
  trace_error("warp 0\nfrobnicate r1\n", n, "t.in:2: ", "unknown opcode 'frobnicate'");
  trace_error("warp 0\nfp_add r1 r2 r3 r4 r5 , r6\n", n, "t.in:2: ", "destination registers");
  trace_error("warp zero\n", n, "t.in:1: ", "warp");
  trace_error("block 0\nblock 1\nwarp 0\nexit\n", n, "t.in:1: ", "block without warps");
  trace_error("block a\nwarp 0\nexit\nblock a\nwarp 0\nexit\n", n, "t.in:4: ",
              "block label 'a' given twice (first at line 1)");
  trace_error("block 1,2\nwarp 0\nexit\nblock 1, 2\nwarp 0\nexit\n", n, "t.in:4: ", "given twice");
  // A warp line that ends the text without its newline (found by fuzzing:
  // sizing the warp's arrays read past the end).
  trace_error("warp 0\nexit\nwarp 1", n, "t.in:3: ", "warp 1 has no instructions");
  trace_error("warp 0\nfp_add r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r14 r15 r16 r17 r18 r19 "
              "r20 r21 r22 r23 r24 r25 r26 r27 r28 r29 r30 r31 r32 r33 r34 r35 r36 r37 r38 r39 "
              "r40 r41 r42 r43 r44 r45 r46 r47 r48 r49 r50 r51 r52 r53 r54 r55 r56 r57 r58 r59 "
              "r60 r61 r62 r63 r64 r65 r66 r1 , r2\n",
              n, "t.in:2: ", "66 destination registers");
}

TEST(ReadersErrors, HardwareFiles) {
  auto hw_error = [](const std::string& text, const std::string& prefix, const std::string& words) {
    expect_error([&] { (void)parse_hardware_text("hw.toml", text, {}); }, prefix, words);
  };
  const std::string unit = "[[unit]]\nname = \"a\"\ninitiation = 1\nlatency = 2\n";
  hw_error("colour = 3\n" + unit, "hw.toml:1: ", "unknown key 'colour'");
  hw_error("[[unit]]\nname = \"a\"\ninitiation = 0\nlatency = 2\n", "hw.toml:3: ", "initiation");
  hw_error(unit + "[opcodes]\nFFMA = \"fma\"\n", "hw.toml:6: ", "unknown unit 'fma'");
  // An empty unit name fails when read, not only once a trace uses the opcode.
  hw_error(unit + "[opcodes]\nFFMA = \"\"\n", "hw.toml:6: ", "the rule for 'FFMA' needs a unit");
  hw_error(unit + "[opcodes]\nFFMA = { unit = \"\" }\n", "hw.toml:6: ", "needs a unit");
  // A file with nothing but comments describes no hardware, in either format.
  hw_error("", "hw.toml: ", "describes no hardware");
  hw_error("# nothing\n\n", "hw.toml: ", "describes no hardware");
  hw_error("[[unit]\n", "hw.toml:1:", "");
  hw_error(unit + unit, "hw.toml:6: ", "described twice");
  hw_error("[pipeline]\nissue_interval = 0\n" + unit, "hw.toml:2: ", "issue_interval");
  hw_error("[pipeline]\nlatency_from_issue = 1\n" + unit, "hw.toml:2: ", "true or false");
  hw_error("[pipeline]\nwidth = 2\n" + unit, "hw.toml:2: ", "unknown key 'width'");
  hw_error("[[unit]]\nname = \"a_very_long_unit_name\"\ninitiation = 1\nlatency = 2\n",
           "hw.toml:2: ", "unit name");
  hw_error(unit + "[opcodes]\nLDG = { unit = \"a\", kind = \"fetch\" }\n", "hw.toml:6: ", "kind");
  hw_error("[[unit]]\nname = \"a\"\ninitiation = 1\nlatency = 2\nresource = \"r\"\n"
           "[[unit]]\nname = \"b\"\ninitiation = 1\nlatency = 2\nresource = \"r\"\n"
           "queued_dispatch = true\n",
           "hw.toml:6: ", "unit 'b' has queued_dispatch = true but unit 'a' (line 1)");
  auto sim_error = [](const std::string& text, const std::string& prefix, const std::string& words) {
    expect_error([&] { (void)parse_hardware_text("gpgpusim.config", text, {}); }, prefix, words);
  };
  sim_error("# comment\n-ptx_opcode_latency_int 4,4,4\n", "gpgpusim.config:2: ", "expects 5");
  sim_error("-ptx_opcode_initiation_sfu 0\n", "gpgpusim.config:1: ", "at least 1");
  // Any option line makes a GPGPU-Sim configuration, not only the ones the
  // reader takes (a file with only -dram_latency was read as TOML).
  sim_error("-gpgpu_perfect_mem 0\n-dram_latency x\n", "gpgpusim.config:2: ", "cycle count");
  sim_error("-dram_latency x\n", "gpgpusim.config:1: ", "-dram_latency expects a cycle count");
  // No collector unit would be the model without them, a faster machine.
  sim_error("-gpgpu_perfect_mem 1\n-gpgpu_operand_collector_num_units_gen 0\n", "gpgpusim.config:2: ",
            "-gpgpu_operand_collector_num_units_gen 0: GPGPU-Sim needs at least one collector unit");
  sim_error("-gpgpu_enable_specialized_operand_collector 1\n-gpgpu_operand_collector_num_units_mem 0\n",
            "gpgpusim.config:2: ", "-gpgpu_operand_collector_num_units_mem 0");
  sim_error("-gpgpu_perfect_mem 1\n-gpgpu_smem_latency x\n", "gpgpusim.config:2: ", "cycle count");
  // The memory latency has the limit of every unit latency, 2^24.
  // Option lines, none of them read: not silently the preset's units.
  // Named at the first option line, what made the file read as one.
  sim_error("-gpgpu_n_clusters 1\n-gpgpu_num_sched_per_core 4\n", "gpgpusim.config:1: ",
            "'-gpgpu_n_clusters' reads as a GPGPU-Sim option, but the file sets none of the "
            "options gpuwcet reads");
  sim_error("-foo bar\n", "gpgpusim.config:1: ", "is it a gpgpusim.config?");
  sim_error("name = \"mine\"\n# a TOML file with a stray line\n-gpgpu_num_sp_units 2\n",
            "gpgpusim.config:3: ", "'-gpgpu_num_sp_units' reads as a GPGPU-Sim option");
  // Lines that start with a dash but are no option line are not named.
  sim_error("x = [\n  -1,\n]\n-gpgpu_num_sp_units 2\n", "gpgpusim.config:4: ",
            "'-gpgpu_num_sp_units' reads");
  sim_error("-x=1\n-foo # a=b\n-gpgpu_n_clusters#4\n", "gpgpusim.config:3: ",
            "'-gpgpu_n_clusters' reads");
  sim_error("-gpgpu_l1_latency 16777216\n-dram_latency 1\n", "gpgpusim.config:2: ",
            "L1 + L2 + DRAM, 16777302 cycles, exceeds 16777216 (-gpgpu_l1_latency on line 1, "
            "-dram_latency on line 2)");
  hw_error("memory_latency = 16777217\n" + unit, "hw.toml:1: ", "memory_latency");
  // A barrier with an issue slot needs barrier_delay >= 1 (its own slot).
  hw_error("[pipeline]\nbarrier_issues = true\n" + unit, "hw.toml:2: ", "needs barrier_delay >= issue_interval");
  // A hardware description without the unit an opcode needs.
  const HardwareConfig c = parse_hardware_text("hw.toml", unit, {});
  expect_error(
      [&] {
        (void)read_trace_text("t.in", kTb + "insts = 1\n0000 ffffffff 1 R1 HMMA.16816 1 R2 0 0\n#END_TB\n",
                              TraceFormat::accelsim, c);
      },
      "t.in:5: ", "unit 'tensor'");
}

TEST(ReadersErrors, EmptyAndMissingFiles) {
  // Whatever the format, an empty file or binary data is said to be one.
  trace_error("", TraceFormat::automatic, "t.in: ", "the file is empty");
  trace_error("\n\n", TraceFormat::ptx, "t.in: ", "the file is empty");
  trace_error("  \n", TraceFormat::accelsim, "t.in: ", "the file is empty");
  trace_error(std::string("warp 0\nexit\n\x7f\0\x01", 14), TraceFormat::automatic, "t.in:3: ",
              "not a text trace");
  trace_error("warp 0\n", TraceFormat::native, "t.in:1: ", "no instructions");
  const HardwareConfig c = hardware_preset("orin-sm", 100);
  expect_error([&] { (void)read_trace("/nonexistent/t.trace", TraceFormat::automatic, c); },
               "/nonexistent/t.trace: ", "cannot open");
  expect_error([&] { (void)read_trace(GPUWCET_SOURCE_DIR, TraceFormat::automatic, c); },
               GPUWCET_SOURCE_DIR, "is a directory");
  expect_error([&] { (void)load_hardware_file("/nonexistent/hw.toml", {}); }, "/nonexistent/hw.toml: ",
               "cannot open");
}
