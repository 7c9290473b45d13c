// A timeline of warps' execution and idle phases as a stand-alone SVG image:
// one row per warp, execution phases filled, idle phases hatched, barrier
// releases and bounds as labelled vertical lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpuwcet/phase_profile.hpp"

namespace gpuwcet::tools {

struct TimelineRow {
  std::string label;          // "warp 3"
  std::vector<Phase> phases;  // in time order
  std::vector<std::uint64_t> issues;  // issue cycles (ticks), may be empty
};

struct TimelineMarker {
  std::uint64_t cycle = 0;
  std::string label;  // "GUB 1234", "barrier", ...
};

struct Timeline {
  std::string title;
  std::vector<TimelineRow> rows;
  std::vector<TimelineMarker> markers;
};

// The SVG document. The horizontal scale fits the largest phase end or
// marker into a fixed width; every element carries a <title> tooltip with its
// exact cycles.
std::string render_svg(const Timeline& timeline);

}  // namespace gpuwcet::tools
