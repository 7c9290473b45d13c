// How many of a property test's generated cases this build runs.
#pragma once

#include <algorithm>

#ifndef GPUWCET_TEST_CASE_DIVISOR
#define GPUWCET_TEST_CASE_DIVISOR 1
#endif

namespace gpuwcet::testing {

// A property test draws its `n` cases one after another from a fixed seed.
// A native host build runs all of them; a build under a sanitizer or an
// emulator, where the same code runs 3 to 30 times slower, runs the first
// n / GPUWCET_TEST_CASE_DIVISOR (tests/CMakeLists.txt), so every case it
// checks the host build checks too. Thresholds on what the cases exercise
// scale with it.
constexpr int case_count(int n) { return std::max(1, n / GPUWCET_TEST_CASE_DIVISOR); }

}  // namespace gpuwcet::testing
