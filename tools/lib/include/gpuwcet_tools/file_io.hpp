// Whole-file reads and writes of the host tools, with errors that say which
// file and why.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
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

// A file's text for one pass of reading: a regular file is mapped into
// memory (pages the system reads on demand and may drop again, none copied
// onto the heap: traces run to gigabytes), anything else (a pipe) is read
// whole. Throws as read_text_file. The text lives as long as the object.
// (A mapped file that another process truncates meanwhile is an error the
// system signals, as for any mapped file.)
class FileText {
 public:
  explicit FileText(const std::string& path);
  ~FileText();
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  std::string_view text() const { return mapped_ != nullptr ? std::string_view(mapped_, size_) : read_; }

 private:
  const char* mapped_ = nullptr;
  std::size_t size_ = 0;
  std::string read_;
};
std::vector<std::uint8_t> read_binary_file(const std::string& path);
void write_binary_file(const std::string& path, const std::vector<std::uint8_t>& bytes);
void write_text_file(const std::string& path, const std::string& text);

}  // namespace gpuwcet::tools
