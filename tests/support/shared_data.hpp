// The real data sets of ../shared/data for the tests that read them (they
// skip when a folder is absent: a fresh clone has no ../shared).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace gpuwcet::test {

// GPUWCET_SHARED_DATA_DIR is set by tests/CMakeLists.txt.
inline const std::filesystem::path kSharedData = GPUWCET_SHARED_DATA_DIR;

// Regular files under `dir` (recursively) ending in `ext`, sorted; empty
// when `dir` does not exist.
inline std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir,
                                                   const std::string& ext) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gpuwcet::test
