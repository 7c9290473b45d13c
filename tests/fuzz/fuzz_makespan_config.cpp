// libFuzzer target: any bytes given to the reader of `gpuwcet makespan
// --config` files; a complete problem is then validated and bounded by the
// closed-form bounds (linear in the kernel; the searches are left to the
// makespan tests). A ToolError is the expected answer to a bad file; any
// other exception or a crash is a bug, and so is a lower bound above the
// safe upper bound.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet_tools/makespan_problem.hpp"
#include "gpuwcet_tools/tool_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuwcet;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const tools::MakespanConfig c = tools::detail::parse_makespan_config("fuzz.toml", text);
    if (!c.kernel || !c.warps || !c.units) return 0;
    tools::MakespanProblem p;
    p.kernel = *c.kernel;
    p.warps = *c.warps;
    p.warp_size = c.warp_size.value_or(p.warp_size);
    p.units = *c.units;
    const tools::ValidatedProblem v = tools::validate(p);
    for (std::size_t u = 0; u < v.shape.class_count; ++u) (void)tools::sigma_text(v.sm, u);
    std::uint64_t upper = 0;
    std::uint64_t lower = 0;
    std::uint64_t paper = 0;
    const Status su = safe_pessimistic_makespan(v.shape, p.warps, upper);
    const Status sl = makespan_lower_bound(v.shape, p.warps, lower);
    (void)paper_pessimistic_estimate(v.shape, p.warps, paper);
    if (su == Status::ok && sl == Status::ok && lower > upper) std::abort();
  } catch (const tools::ToolError&) {
  }
  return 0;
}
