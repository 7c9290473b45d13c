// JSON as the tools print it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gpuwcet::tools {

// The indented text of `j`. Strings in the tools' output come from files and
// the command line (trace paths, kernel names, block labels) and need not be
// valid UTF-8, on which nlohmann::json::dump throws: their invalid bytes
// become U+FFFD instead.
inline std::string json_text(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gpuwcet::tools
