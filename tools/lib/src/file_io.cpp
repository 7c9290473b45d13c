// Whole-file reads and writes (file_io.hpp).
#include "gpuwcet_tools/file_io.hpp"

#include <cerrno>
#include <fstream>
#include <iterator>
#include <system_error>

namespace gpuwcet::tools {

ToolError file_error(const std::string& path, const std::string& what, int err) {
  std::string m = path + ": " + what;
  if (err != 0) m += ": " + std::generic_category().message(err);
  return ToolError(m);
}

std::vector<std::uint8_t> read_binary_file(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw file_error(path, "cannot open", errno);
  std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) throw file_error(path, "read error", errno);
  return bytes;
}

namespace {

void write_bytes(const std::string& path, const char* data, std::size_t size) {
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  if (!out) throw file_error(path, "cannot open for writing", errno);
  out.write(data, static_cast<std::streamsize>(size));
  out.close();
  if (!out) throw file_error(path, "write failed", errno);
}

}  // namespace

void write_binary_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  write_bytes(path, reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

void write_text_file(const std::string& path, const std::string& text) {
  write_bytes(path, text.data(), text.size());
}

}  // namespace gpuwcet::tools
