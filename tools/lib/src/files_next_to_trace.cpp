// The files a GPGPU-Sim run leaves next to its trace, which the tools take
// by default: the configuration it ran (gpgpusim.config) and the PTX file
// its lines name (docs/trace-formats.md, "Join points from the PTX file").
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

namespace {

// Whether `p` names an existing file; what the system cannot tell (a loop
// of symbolic links, a name too long) is an error naming `trace`, since
// going on without the file would analyse the trace on other terms.
bool file_there(const std::string& trace, const std::filesystem::path& p, const char* what) {
  std::error_code ec;
  const bool there = std::filesystem::exists(p, ec);
  if (ec) {
    throw ToolError(fmt::format("{}: cannot look for {} next to it ({}: {})", trace, what,
                                p.string(), ec.message()));
  }
  return there;
}

// The file named by the first line of a PTX trace, "warp 0 :  PC=0x8d60
// (lud-rodinia-2.8.sm_75.ptx:34) ld.param...", or empty when `head` opens
// with anything else, or the name holds a directory.
std::string_view ptx_name_in(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  while (!head.empty()) {
    const std::size_t end = head.find('\n');
    if (end == std::string_view::npos) return {};  // no whole line
    const std::string_view line = detail::trim(head.substr(0, end));
    head.remove_prefix(end + 1);
    if (line.empty()) continue;
    if (line.substr(0, 4) != "warp") return {};
    const std::size_t pc = line.find("PC=");
    const std::size_t open = pc == std::string_view::npos ? pc : line.find('(', pc);
    const std::size_t close = open == std::string_view::npos ? open : line.find(')', open);
    if (close == std::string_view::npos) return {};
    const std::string_view source = line.substr(open + 1, close - open - 1);
    const std::size_t colon = source.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return {};
    const std::string_view name = source.substr(0, colon);
    if (name.find_first_of("/\\") != std::string_view::npos || name == "." || name == "..") return {};
    return name;
  }
  return {};
}

// The folders a trace's companion files are looked for in: the trace's own,
// as its path names it, then, when that path is a symbolic link into
// another folder, the folder of the file it leads to. GPGPU-Sim leaves its
// files in its run's folder; a trace linked into a collection of traces
// would otherwise be bounded on a preset, not on the machine it ran on. A
// file next to the link comes first: it is what the user put there.
std::vector<std::filesystem::path> folders_of(const std::string& trace) {
  std::vector<std::filesystem::path> folders{std::filesystem::path(trace).parent_path()};
  std::error_code ec;
  if (!std::filesystem::is_symlink(trace, ec)) return folders;
  // A link that leads nowhere has no folder of its own: the reader says why.
  const std::filesystem::path target = std::filesystem::canonical(trace, ec);
  if (ec) return folders;
  const std::filesystem::path given = std::filesystem::weakly_canonical(
      folders.front().empty() ? std::filesystem::path(".") : folders.front(), ec);
  if (ec || target.parent_path() != given) folders.push_back(target.parent_path());
  return folders;
}

}  // namespace

std::string config_next_to(const std::string& trace) {
  if (trace == "-") return {};  // standard input lies next to nothing
  for (const std::filesystem::path& folder : folders_of(trace)) {
    const std::filesystem::path p = folder / "gpgpusim.config";
    if (file_there(trace, p, "a gpgpusim.config")) return p.string();
  }
  return {};
}

std::string ptx_file_next_to(const std::string& trace) {
  if (trace == "-") return {};
  // Only a regular file is opened: reading the head of a named pipe would
  // take it from the reader.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(trace, ec)) return {};
  std::ifstream in(trace, std::ios::binary);
  if (!in) return {};  // the reader says why
  // The first line is enough; 64 KiB hold it with room to spare.
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const std::string_view name = ptx_name_in(head);
  if (name.empty()) return {};
  for (const std::filesystem::path& folder : folders_of(trace)) {
    const std::filesystem::path p = folder / std::string(name);
    // A folder of that name is no PTX file (a link to a file is one).
    if (file_there(trace, p, "the PTX file its lines name") &&
        std::filesystem::is_regular_file(p, ec)) {
      return p.string();
    }
  }
  return {};
}

bool beside_link_target(const std::string& trace, const std::string& found) {
  return !found.empty() &&
         std::filesystem::path(found).parent_path() != std::filesystem::path(trace).parent_path();
}

TracePtxFile::TracePtxFile(const std::string& trace, const std::string& given, bool none,
                           std::string_view opt_out)
    : path_(!given.empty() ? given : none ? std::string() : ptx_file_next_to(trace)),
      next_to_trace_(given.empty() && !path_.empty()),
      beside_link_target_(next_to_trace_ && beside_link_target(trace, path_)),
      opt_out_(opt_out) {
  if (path_.empty()) return;
  try {
    flow_ = PtxControlFlow::load(path_);
  } catch (const ToolError& e) {
    throw explained(e);
  }
}

ToolError TracePtxFile::explained(const ToolError& e) const {
  if (!next_to_trace_) return e;
  return ToolError(fmt::format("{} ({} lies next to the {} and its lines name it, so it was "
                               "taken as the PTX file the trace ran; {} reads the trace without it)",
                               e.what(), path_,
                               beside_link_target_ ? "file the trace links to" : "trace",
                               opt_out_));
}

}  // namespace gpuwcet::tools
