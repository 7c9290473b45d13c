// The makespan command's schedule output when the search's bounds are exact
// but its node budget ran out before a worst schedule was rebuilt
// (Status::schedule_unavailable): it says so instead of drawing an empty one.
#include <gtest/gtest.h>

#include <string>

#include "gpuwcet_tools/makespan_report.hpp"

namespace {

using gpuwcet::tools::MakespanReport;
using gpuwcet::tools::ValidatedProblem;

TEST(MakespanReport, ScheduleNotRebuiltIsSaidSo) {
  MakespanReport r;
  r.schedule_available = false;
  const ValidatedProblem v{};
  const std::string text = gpuwcet::tools::gantt(v, r, 4);
  EXPECT_NE(text.find("not available"), std::string::npos) << text;
  const auto j = gpuwcet::tools::schedule_json(v, r, 4);
  EXPECT_FALSE(j.at("available").get<bool>());
  EXPECT_TRUE(j.at("cycles").is_null());
}

}  // namespace
