// A fresh folder for the files one test writes, removed with it.
#pragma once

#include <unistd.h>  // getpid: one folder per test process

#include <filesystem>
#include <fstream>
#include <string>

namespace gpuwcet::testing {

// Under the system's temporary folder, named for the test and the process,
// so that two test runs at once (a soak beside a build's tests, the host and
// sanitizer trees) never write into each other's files, and a folder a
// crashed run left behind is emptied before use.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              (name + "-" + std::to_string(static_cast<long>(::getpid())))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;  // a destructor must not throw
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Writes `text` to `name` (folders made as needed); returns the file's path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace gpuwcet::testing
