// The one exception type of the host tools: a message a person can act on,
// already naming the file and line when it comes from a file.
#pragma once

#include <stdexcept>
#include <string>

namespace gpuwcet::tools {

class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gpuwcet::tools
