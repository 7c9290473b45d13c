// Compiled profiles as C99 source for firmware (profile_writer.hpp, emit_c).
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gpuwcet_tools/profile_writer.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

namespace {

// The command as text inside a C block comment. A C compiler's source
// character set is only sure to hold printable ASCII, so other bytes become
// '?'; "*/" would end the comment (and "/*" draws -Wcomment), so the two
// characters are kept apart. Paths may hold any of these.
std::string comment_text(const std::string& s) {
  std::string out;
  for (const char c : s) {
    const bool printable = c >= 0x20 && c <= 0x7E;
    if (!out.empty() && ((out.back() == '*' && c == '/') || (out.back() == '/' && c == '*'))) {
      out += ' ';
    }
    out += printable ? c : '?';
  }
  return out;
}

bool c_keyword(const std::string& s) {
  static const char* const kKeywords[] = {
      "auto",     "break",    "case",     "char",       "const",    "continue", "default",
      "do",       "double",   "else",     "enum",       "extern",   "float",    "for",
      "goto",     "if",       "inline",   "int",        "long",     "register", "restrict",
      "return",   "short",    "signed",   "sizeof",     "static",   "struct",   "switch",
      "typedef",  "union",    "unsigned", "void",       "volatile", "while",    "_Bool",
      "_Complex", "_Imaginary"};
  for (const char* k : kKeywords) {
    if (s == k) return true;
  }
  return false;
}

}  // namespace

void require_c_identifier(const std::string& symbol) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  bool ok = !symbol.empty() && letter(symbol[0]) && !c_keyword(symbol);
  for (const char c : symbol) ok = ok && (letter(c) || (c >= '0' && c <= '9'));
  if (!ok) {
    throw ToolError(fmt::format("symbol '{}' is not a C identifier (letters, digits and '_', not "
                                "starting with a digit, not a keyword)",
                                symbol));
  }
}

std::string emit_c(const std::vector<std::uint8_t>& blob, const std::string& symbol,
                   const std::string& command) {
  require_c_identifier(symbol);
  std::ostringstream o;
  o << "/* Compiled timing profile (docs/profile-format.md). Generated, do not edit:\n"
    << " *   " << comment_text(command) << "\n */\n"
    << "const unsigned char " << symbol << "[" << blob.size() << "] = {";
  for (std::size_t i = 0; i < blob.size(); ++i) {
    o << (i % 12 == 0 ? "\n  " : " ") << fmt::format("0x{:02x},", blob[i]);
  }
  o << "\n};\nconst unsigned int " << symbol << "_size = " << blob.size() << "u;\n";
  return o.str();
}

}  // namespace gpuwcet::tools
