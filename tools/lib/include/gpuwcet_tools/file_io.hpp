// Whole-file reads and writes of the host tools, with errors that say which
// file and why.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

// "path: what: reason" for a file operation that just failed, the reason
// from `err`, errno right after the failure (the standard streams leave it
// set on POSIX): no such file, no permission, a loop of symbolic links, a
// name too long. err 0: no reason known.
ToolError file_error(const std::string& path, const std::string& what, int err);

// Throw file_error when the file cannot be read or written (a directory
// cannot be read either).
std::string read_text_file(const std::string& path);
std::vector<std::uint8_t> read_binary_file(const std::string& path);
void write_binary_file(const std::string& path, const std::vector<std::uint8_t>& bytes);
void write_text_file(const std::string& path, const std::string& text);

}  // namespace gpuwcet::tools
