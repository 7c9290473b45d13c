// libFuzzer target: any bytes given as a PTX file to the control-flow reader
// (ptx_control_flow.hpp), then a trace walked through what it read, read
// back with it (LaneValueAnalysis following the reconvergence stack). Each
// must give its result or a ToolError, never a crash.
#include <string>

#include <fmt/format.h>

#include "fuzz_trace_checks.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuwcet::tools;
  static const HardwareConfig hw = hardware_preset("orin-sm", 200);
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const PtxControlFlow flow = PtxControlFlow::parse("f.ptx", text);
    if (flow.size() == 0) return 0;
    std::vector<std::string_view> lines{""};
    for (std::size_t pos = 0; pos <= text.size();) {
      const std::size_t end = std::min(text.find('\n', pos), text.size());
      lines.push_back(std::string_view(text).substr(pos, end - pos));
      pos = end + 1;
    }
    // A walk: guarded branches taken every other time, up to 200 steps.
    std::string trace;
    std::uint32_t at = 0;
    for (int step = 0; step < 200 && at != FlowInstruction::kNone; ++step) {
      const FlowInstruction& in = flow.at(at);
      gpuwcet::fuzz::check(in.line < lines.size());
      trace += fmt::format("warp 0 : PC=0x{:x} (f.ptx:{}) {}\n", 8 * at, in.line, lines[in.line]);
      if (in.kind == FlowInstruction::Kind::exit && !in.guarded) break;
      const bool take = in.kind == FlowInstruction::Kind::branch && (!in.guarded || step % 2 == 0);
      at = take ? in.target : flow.next(at);
    }
    TraceReadOptions options;
    options.block_shape = BlockShape{32, 1, 1};
    options.control_flow = &flow;
    const TraceFile t = read_trace_text("fuzz", trace, TraceFormat::ptx, hw, options);
    gpuwcet::fuzz::check_trace(t, hw.hw);
  } catch (const ToolError&) {
  }
  return 0;
}
