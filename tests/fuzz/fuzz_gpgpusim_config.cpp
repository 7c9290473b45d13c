// libFuzzer target: any bytes given to the GPGPU-Sim configuration reader. Must give a
// valid hardware description or a ToolError, never a crash; an accepted
// description must then classify a small trace without anything but a
// ToolError.
#include <string_view>

#include "fuzz_trace_checks.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuwcet;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const tools::HardwareConfig c = tools::detail::parse_gpgpusim_config("fuzz", text, {});
    fuzz::check(validate(c.hw) == Status::ok);
    const tools::TraceFile t = tools::read_trace_text(
        "trace", "warp 0\nFFMA r1 , r2 r3\nld.global.f32 r4 , r1\nbar.sync\nalu r5 , r4\n",
        tools::TraceFormat::native, c);
    fuzz::check_trace(t, c.hw);
  } catch (const tools::ToolError&) {
  }
  return 0;
}
