// Whole-file reads and writes (file_io.hpp).
#include "gpuwcet_tools/file_io.hpp"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpuwcet::tools {

ToolError file_error(const std::string& path, const std::string& what, int err) {
  std::string m = path + ": " + what;
  if (err != 0) m += ": " + std::generic_category().message(err);
  return ToolError(m);
}

std::string read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ToolError(path + ": is a directory, not a file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw file_error(path, "cannot open the file", errno);
  // One read into a string of the file's size (traces run to gigabytes: no
  // growing buffer, no second copy), then whatever follows: a file that grew
  // meanwhile, or a pipe, whose size is unknown.
  std::string text;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > 0 && size < std::numeric_limits<std::size_t>::max()) {
    text.resize(static_cast<std::size_t>(size));
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<std::size_t>(in.gcount()));
  }
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw file_error(path, "read error", errno);
  return text;
}

FileText::FileText(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ToolError(path + ": is a directory, not a file");
  if (std::filesystem::is_regular_file(path, ec)) {
    errno = 0;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw file_error(path, "cannot open the file", errno);
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (map != MAP_FAILED) {
        // Read front to back once: read ahead, and drop what is behind.
        (void)::madvise(map, static_cast<std::size_t>(st.st_size), MADV_SEQUENTIAL);
        mapped_ = static_cast<const char*>(map);
        size_ = static_cast<std::size_t>(st.st_size);
      }
    }
    ::close(fd);
    if (mapped_ != nullptr) return;
  }
  read_ = read_text_file(path);  // empty, special, or not mappable
}

FileText::~FileText() {
  if (mapped_ != nullptr) ::munmap(const_cast<char*>(mapped_), size_);
}

std::vector<std::uint8_t> read_binary_file(const std::string& path) {
  const std::string text = read_text_file(path);
  return {text.begin(), text.end()};
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
