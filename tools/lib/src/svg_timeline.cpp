// SVG timelines of warp phases (svg_timeline.hpp).
#include "gpuwcet_tools/svg_timeline.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace gpuwcet::tools {
namespace {

constexpr double kLeft = 90;     // room for the row labels
constexpr double kWidth = 1100;  // plot width in pixels
constexpr double kRow = 22;
constexpr double kTop = 40;

// Length of the well-formed UTF-8 sequence (Unicode Table 3-7) at the start
// of `s`, and its code point; 0 when none starts there.
std::size_t utf8_sequence(std::string_view s, char32_t& code) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) {
    code = b0;
    return 1;
  }
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  code = b0 & (0xFF >> (n + 1));
  for (std::size_t i = 1; i < n; ++i) {
    if (i > 1 && (byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  return n;
}

// Characters XML 1.0 allows in a document (its production "Char").
bool xml_char(char32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// Text for element content and attribute values. Labels come from traces
// (file names, block labels) and may hold control characters or bytes that
// are not UTF-8, either of which makes the document not well-formed: those
// become U+FFFD, so the image always opens.
std::string escape(std::string_view s) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8
  std::string out;
  while (!s.empty()) {
    char32_t code = 0;
    const std::size_t n = utf8_sequence(s, code);
    if (n == 0 || !xml_char(code)) {
      out += kReplacement;
      s.remove_prefix(n == 0 ? 1 : n);
      continue;
    }
    switch (code) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.append(s.data(), n);
    }
    s.remove_prefix(n);
  }
  return out;
}

// Phases narrower than a pixel drawn one by one would make a long trace's
// image hundreds of megabytes that no viewer opens: runs of them are merged
// into one rectangle of at least a pixel, shaded by its share of execution
// cycles, whose title says what it holds.
constexpr double kMinPixels = 1.0;

struct Span {
  std::uint64_t start = 0, end = 0;
  std::uint64_t execution = 0;  // cycles of execution phases in it
  std::size_t phases = 0;
  std::uint32_t first_section = 0, last_section = 0;
  PhaseKind kind = PhaseKind::execution;  // of a single phase
};

void draw_span(std::string& s, const Span& g, double scale, double y) {
  const double x = kLeft + static_cast<double>(g.start) * scale;
  const double w = std::max(0.5, static_cast<double>(g.end - g.start) * scale);
  if (g.phases == 1) {
    const bool exec = g.kind == PhaseKind::execution;
    s += fmt::format(
        "<rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" fill=\"{}\" "
        "stroke=\"#555\" stroke-width=\"0.3\"><title>{} [{}, {}) section {}</title></rect>\n",
        x, y + 2, w, kRow - 4, exec ? "#3b7dd8" : "url(#idle)", exec ? "execution" : "idle",
        g.start, g.end, g.first_section);
    return;
  }
  // From the idle grey to the execution blue by the execution share.
  const double share =
      static_cast<double>(g.execution) / static_cast<double>(std::max<std::uint64_t>(1, g.end - g.start));
  const auto mix = [&](int idle, int exec) {
    return static_cast<int>(idle + (exec - idle) * share + 0.5);
  };
  const std::string sections = g.first_section == g.last_section
                                   ? fmt::format("section {}", g.first_section)
                                   : fmt::format("sections {}-{}", g.first_section, g.last_section);
  s += fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" "
      "fill=\"#{:02x}{:02x}{:02x}\"><title>{} phases [{}, {}): {} execution and {} idle cycles, "
      "{}</title></rect>\n",
      x, y + 2, w, kRow - 4, mix(0xdd, 0x3b), mix(0xdd, 0x7d), mix(0xdd, 0xd8), g.phases, g.start,
      g.end, g.execution, g.end - g.start - g.execution, sections);
}

}  // namespace

std::string render_svg(const Timeline& t) {
  std::uint64_t end = 1;
  for (const TimelineRow& r : t.rows) {
    for (const Phase& p : r.phases) end = std::max(end, p.start + p.length);
  }
  for (const TimelineMarker& m : t.markers) end = std::max(end, m.cycle);
  const double scale = kWidth / static_cast<double>(end);
  const double height = kTop + kRow * static_cast<double>(t.rows.size()) + 50;
  const double width = kLeft + kWidth + 30;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<defs><pattern id=\"idle\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f4f4f4\"/>"
      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#bbb\" stroke-width=\"2\"/></pattern></defs>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"20\" font-size=\"14\">{}</text>\n",
      width, height, kLeft, escape(t.title));
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const TimelineRow& r = t.rows[i];
    const double y = kTop + kRow * static_cast<double>(i);
    s += fmt::format("<text x=\"4\" y=\"{:.1f}\">{}</text>\n", y + 14, escape(r.label));
    Span g;
    for (const Phase& p : r.phases) {
      // A phase that would start a pixel past the open run, or is wide
      // itself, closes the run first.
      if (g.phases != 0 && (static_cast<double>(g.end - g.start) * scale >= kMinPixels ||
                            p.start != g.end ||
                            static_cast<double>(p.length) * scale >= kMinPixels)) {
        draw_span(s, g, scale, y);
        g = Span{};
      }
      if (g.phases == 0) {
        g.start = p.start;
        g.first_section = p.section;
        g.kind = p.kind;
      }
      g.end = p.start + p.length;
      g.last_section = p.section;
      if (p.kind == PhaseKind::execution) g.execution += p.length;
      ++g.phases;
    }
    if (g.phases != 0) draw_span(s, g, scale, y);
    // One tick per pixel at most: the issues of a long trace would
    // otherwise draw millions of lines on top of each other.
    double last_tick = -1;
    for (std::uint64_t c : r.issues) {
      const double x = kLeft + (static_cast<double>(c) + 0.5) * scale;
      if (last_tick >= 0 && x - last_tick < kMinPixels) continue;
      last_tick = x;
      s += fmt::format("<line x1=\"{:.2f}\" y1=\"{:.1f}\" x2=\"{:.2f}\" y2=\"{:.1f}\" "
                       "stroke=\"#111\" stroke-width=\"0.6\"/>\n",
                       x, y + kRow - 6, x, y + kRow - 2);
    }
  }
  const double bottom = kTop + kRow * static_cast<double>(t.rows.size());
  for (std::size_t i = 0; i < t.markers.size(); ++i) {
    const TimelineMarker& m = t.markers[i];
    const double x = kLeft + static_cast<double>(m.cycle) * scale;
    s += fmt::format(
        "<line x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\" stroke=\"#c0392b\" "
        "stroke-dasharray=\"4 3\"/>\n<text x=\"{0:.2f}\" y=\"{3:.1f}\" fill=\"#c0392b\" "
        "text-anchor=\"end\">{4}</text>\n",
        x, kTop - 4, bottom + 4, bottom + 18 + 14 * static_cast<double>(i % 2), escape(m.label));
  }
  s += fmt::format("<text x=\"{}\" y=\"{:.1f}\" fill=\"#555\">0</text>\n", kLeft, height - 6);
  s += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\" fill=\"#555\" text-anchor=\"end\">{} cycles</text>\n",
                   kLeft + kWidth, height - 6, end);
  s += "</svg>\n";
  return s;
}

}  // namespace gpuwcet::tools
