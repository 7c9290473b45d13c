// libFuzzer target: any bytes given to the GPGPU-Sim configuration reader. Must give a
// valid hardware description or a ToolError, never a crash; an accepted
// description must then classify a small trace without anything but a
// ToolError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_trace_checks.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gpuwcet::fuzz::fuzz_hardware(data, size, [](std::string_view text) {
    return gpuwcet::tools::detail::parse_gpgpusim_config("fuzz", text, {});
  });
}
