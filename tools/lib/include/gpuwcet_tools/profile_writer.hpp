// Writing compiled timing profiles (docs/profile-format.md) on the host:
// from a TOML manifest, to the binary blob, to a C source file with a const
// array for firmware, and back to text or JSON for `gpuwcet inspect`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuwcet::tools {

// One kernel as the writer holds it.
struct KernelEntry {
  std::string name;  // 1..31 printable ASCII characters, no space
  std::uint32_t block_threads = 0;
  std::uint32_t warp_size = 32;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t shared_memory_per_block = 0;
  // sections[s][w] = {length, demand} of warp w in barrier section s
  // (gpuwcet::PhaseSummary), given or computed from a trace.
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> sections;
  // B_1, a bound on the block alone on its SM, when below what the sections
  // give (block-wcet's bound: per-resource charges, a one-warp block's time
  // alone); 0: the sections' bound. Needs sections, at most their bound.
  std::uint64_t block_bound_alone = 0;
  std::string block_bound_alone_where;  // "manifest:line" of the key, if given
  // Makespan model (optional when sections are given).
  std::string kernel_string;
  std::uint32_t makespan_warps = 0;  // default: the block's warps
  std::vector<std::pair<char, std::uint32_t>> units;
  // "manifest:line" of its [[kernel]] table, which the writer's messages
  // start with; empty for an entry made in code.
  std::string where;
  // What the analysis of its trace noted (a warp cut short, an option the
  // model does not use, ...), each naming the manifest line and the file.
  std::vector<std::string> notes;
};

// Reads a manifest (docs/profile-format.md, "Manifest"). Relative paths in
// it are relative to the manifest. Throws ToolError "file:line: message".
std::vector<KernelEntry> load_manifest(const std::string& path);

namespace detail {
// load_manifest on a manifest already read: `path` names it in messages and
// is where its relative paths start (the fuzz target's way in).
std::vector<KernelEntry> parse_manifest(const std::string& path, std::string_view content);
}  // namespace detail

// The blob, its kernels in name order (the format's; indices follow it).
// Throws ToolError naming the kernel (with its manifest and line when it has
// them) and the problem; the result always passes gpuwcet::open_profile.
std::vector<std::uint8_t> write_profile(const std::vector<KernelEntry>& kernels);

// A C99 source defining `const unsigned char <symbol>[]` and
// `const unsigned int <symbol>_size`, with `command` in a comment (as
// printable ASCII, '?' for other bytes, and with no "*/" to end it early).
// Throws what require_c_identifier throws.
std::string emit_c(const std::vector<std::uint8_t>& blob, const std::string& symbol,
                   const std::string& command);

// Throws ToolError unless `symbol` is a C identifier (letters, digits and
// '_', not starting with a digit) other than a C99 keyword.
void require_c_identifier(const std::string& symbol);

// Reads a blob back through the core (throws ToolError with the status).
nlohmann::json inspect_json(const std::vector<std::uint8_t>& blob);
std::string inspect_text(const std::vector<std::uint8_t>& blob);

}  // namespace gpuwcet::tools
