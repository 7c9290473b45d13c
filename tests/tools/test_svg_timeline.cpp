// SVG timelines stay well-formed XML whatever their labels hold: labels come
// from traces (file names, block labels) in any encoding.
#include <cstdint>
#include <cstdio>
#include <string>

#include <fmt/format.h>
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

// A long trace's phases are far narrower than a pixel: runs of them become
// one rectangle each, whose titles still account for every cycle, so that
// the image stays small enough to open; wide phases keep their own.
TEST(SvgTimeline, PhasesNarrowerThanAPixelAreMerged) {
  Timeline t;
  TimelineRow row{"warp 0", {}, {}};
  std::uint64_t cycle = 0, execution = 0;
  for (int i = 0; i < 200000; ++i) {
    const bool exec = i % 2 == 0;
    const std::uint64_t length = 1 + static_cast<std::uint64_t>(i % 3);
    row.phases.push_back({cycle, length, exec ? gpuwcet::PhaseKind::execution : gpuwcet::PhaseKind::idle, 0});
    row.issues.push_back(cycle);
    if (exec) execution += length;
    cycle += length;
  }
  // One phase as wide as a tenth of the plot, at the end.
  row.phases.push_back({cycle, cycle / 9, gpuwcet::PhaseKind::execution, 1});
  const std::uint64_t wide_start = cycle;
  cycle += cycle / 9;
  t.rows.push_back(row);
  const std::string svg = render_svg(t);
  EXPECT_LT(svg.size(), 800'000u);
  std::size_t rects = 0, lines = 0;
  for (std::size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) ++rects;
  for (std::size_t at = svg.find("<line"); at != std::string::npos; at = svg.find("<line", at + 1)) ++lines;
  EXPECT_LE(rects, 1200u);
  EXPECT_LE(lines, 1200u);
  // Every cycle of the merged runs is in exactly one title, and the
  // execution cycles add up.
  std::uint64_t covered = 0, counted_exec = 0, next = 0;
  const std::string key = " phases [";
  for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1)) {
    unsigned long long s = 0, e = 0, x = 0, idle = 0;
    ASSERT_EQ(std::sscanf(svg.c_str() + at + key.size(), "%llu, %llu): %llu execution and %llu idle", &s,
                          &e, &x, &idle),
              4);
    EXPECT_EQ(s, next);
    EXPECT_EQ(x + idle, e - s);
    next = e;
    covered += e - s;
    counted_exec += x;
  }
  EXPECT_EQ(covered, wide_start);
  EXPECT_EQ(counted_exec, execution);
  EXPECT_NE(svg.find(fmt::format("<title>execution [{}, {}) section 1</title>", wide_start, cycle)),
            std::string::npos);
}
