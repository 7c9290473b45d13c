// libFuzzer target: any bytes given to the ptx trace reader
// (docs/trace-formats.md). Must give a trace or a ToolError, never a crash.
#include "fuzz_trace_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gpuwcet::fuzz::fuzz_trace(data, size, gpuwcet::tools::TraceFormat::ptx);
}
