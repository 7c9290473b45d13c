// Field-by-field comparison of two hardware configurations (a file read back
// against the preset it describes), shared by the reader tests.
#pragma once

#include <cstddef>

#include <gtest/gtest.h>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::testing {

// Pipeline, tools settings and units. Resources: which units share one must
// agree; with `same_resource_ids` the ids themselves too.
inline void expect_same_hardware(const tools::HardwareConfig& file,
                                 const tools::HardwareConfig& preset, bool same_resource_ids) {
  EXPECT_EQ(file.hw.issue_interval, preset.hw.issue_interval);
  EXPECT_EQ(file.hw.branch_delay, preset.hw.branch_delay);
  EXPECT_EQ(file.hw.result_delay, preset.hw.result_delay);
  EXPECT_EQ(file.hw.latency_from_issue, preset.hw.latency_from_issue);
  EXPECT_EQ(file.hw.barrier_delay, preset.hw.barrier_delay);
  EXPECT_EQ(file.hw.dispatch_delay, preset.hw.dispatch_delay);
  EXPECT_EQ(file.hw.launch_delay, preset.hw.launch_delay);
  EXPECT_EQ(file.hw.exit_issues, preset.hw.exit_issues);
  EXPECT_EQ(file.cycles_per_8_transactions, preset.cycles_per_8_transactions);
  EXPECT_EQ(file.barriers_drain, preset.barriers_drain);
  EXPECT_EQ(file.barrier_issues, preset.barrier_issues);
  ASSERT_EQ(file.hw.unit_count, preset.hw.unit_count);
  for (std::size_t i = 0; i < file.hw.unit_count; ++i) {
    const FunctionalUnit& a = file.hw.units[i];
    const FunctionalUnit& b = preset.hw.units[i];
    SCOPED_TRACE(b.name.data());
    EXPECT_STREQ(a.name.data(), b.name.data());
    EXPECT_EQ(a.initiation, b.initiation);
    EXPECT_EQ(a.latency, b.latency);
    EXPECT_EQ(a.flags, b.flags);
    if (same_resource_ids) {
      EXPECT_EQ(a.resource, b.resource);
    }
    for (std::size_t j = 0; j < file.hw.unit_count; ++j) {
      EXPECT_EQ(unit_resource(file.hw, i) == unit_resource(file.hw, j),
                unit_resource(preset.hw, i) == unit_resource(preset.hw, j));
    }
  }
}

}  // namespace gpuwcet::testing
