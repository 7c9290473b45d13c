// libFuzzer target: any bytes given to the profile-manifest reader as if they
// were examples/kernels/admission.toml (so that its relative trace paths
// resolve and traced kernels run the block analysis), then to the writer.
// A ToolError is the expected answer to a bad manifest; any other exception
// or a crash is a bug, and so is a blob from the writer that the core's
// reader refuses (profile_writer.hpp promises it opens).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "gpuwcet/profile.hpp"
#include "gpuwcet_tools/profile_writer.hpp"
#include "gpuwcet_tools/tool_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuwcet;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<tools::KernelEntry> kernels = tools::detail::parse_manifest(
        std::string(GPUWCET_SOURCE_DIR) + "/examples/kernels/admission.toml", text);
    const std::vector<std::uint8_t> blob = tools::write_profile(kernels);
    Profile p;
    if (open_profile(blob, p) != Status::ok || p.kernel_count() != kernels.size()) std::abort();
    (void)tools::inspect_json(blob).dump(2);  // what `gpuwcet inspect --json` prints
    (void)tools::emit_c(blob, "fuzz_profile", "gpuwcet compile fuzz.toml");
  } catch (const tools::ToolError&) {
  }
  return 0;
}
