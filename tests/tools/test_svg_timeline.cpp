// SVG timelines stay well-formed XML whatever their labels hold: labels come
// from traces (file names, block labels) in any encoding.
#include <string>

#include <gtest/gtest.h>

#include "gpuwcet_tools/svg_timeline.hpp"

using namespace gpuwcet::tools;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// The text of the marker label in the document.
std::string marker_text(const std::string& label) {
  Timeline t;
  t.markers.push_back({5, label});
  const std::string svg = render_svg(t);
  const std::string open = "text-anchor=\"end\">";
  const std::size_t at = svg.find(open);
  if (at == std::string::npos) return "<no marker>";
  const std::size_t from = at + open.size();
  return svg.substr(from, svg.find("</text>", from) - from);
}

}  // namespace

TEST(SvgTimeline, MarkupCharactersAreEscaped) {
  EXPECT_EQ(marker_text("a<&>\"b"), "a&lt;&amp;&gt;&quot;b");
}

TEST(SvgTimeline, ControlCharactersBecomeTheReplacementCharacter) {
  // XML 1.0 allows tab, LF and CR, no other C0 control.
  EXPECT_EQ(marker_text("a\x01" "b\x1b[1m\tc"), "a" + kFffd + "b" + kFffd + "[1m\tc");
  EXPECT_EQ(marker_text(std::string("a\0b", 3)), "a" + kFffd + "b");
}

TEST(SvgTimeline, InvalidUtf8BecomesTheReplacementCharacter) {
  // Valid UTF-8 stays: e acute, a CJK character, an emoji.
  EXPECT_EQ(marker_text("\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80"), "\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80");
  // Latin-1 e acute followed by ASCII; a lone continuation byte; a truncated
  // sequence at the end.
  EXPECT_EQ(marker_text("r\xE9sultat"), "r" + kFffd + "sultat");
  EXPECT_EQ(marker_text("a\x80" "b"), "a" + kFffd + "b");
  EXPECT_EQ(marker_text("a\xE4\xB8"), "a" + kFffd + kFffd);
  // Overlong '/', a UTF-16 surrogate, a code point above U+10FFFF: ill-formed.
  EXPECT_EQ(marker_text("\xC0\xAF"), kFffd + kFffd);
  EXPECT_EQ(marker_text("\xED\xA0\x80"), kFffd + kFffd + kFffd);
  EXPECT_EQ(marker_text("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);
  // U+FFFF is well-formed UTF-8 but not an XML character.
  EXPECT_EQ(marker_text("\xEF\xBF\xBF"), kFffd);
}

TEST(SvgTimeline, TitleAndRowLabelsAreCleanedToo) {
  Timeline t;
  t.title = "r\xE9sultat.traceg\x01";
  t.rows.push_back({"block \xE9t\xE9\x02", {}, {}});
  const std::string svg = render_svg(t);
  EXPECT_NE(svg.find("r" + kFffd + "sultat.traceg" + kFffd), std::string::npos);
  EXPECT_NE(svg.find("block " + kFffd + "t" + kFffd + kFffd), std::string::npos);
  for (const char c : svg) {
    EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 || c == '\n') << static_cast<int>(c);
  }
}
