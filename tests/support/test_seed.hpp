// The seed of a property test's generator.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include <gtest/gtest.h>

namespace gpuwcet::testing {

// A property test draws its cases from a fixed seed, so that every run (and
// every build, case_count.hpp) checks the same cases and a failure is
// reproducible. Setting GPUWCET_TEST_SEED to a number draws a different
// sequence from each number instead: scripts/soak.sh runs the safety
// properties under seed after seed, and a failure there names the seed that
// reproduces it. An unset or empty variable keeps the fixed seed; one that
// is not a decimal number fails the test, so that a typing error cannot pass
// for a soak.
inline std::uint64_t test_seed(std::uint64_t fixed) {
  const char* text = std::getenv("GPUWCET_TEST_SEED");
  if (text == nullptr || *text == '\0') return fixed;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || errno != 0) {  // strtoull takes blanks and signs
    ADD_FAILURE() << "GPUWCET_TEST_SEED=" << text << " is not a decimal number below 2^64";
    return fixed;
  }
  // splitmix64 of the pair: neighbouring soak seeds, and two tests whose fixed
  // seeds differ, draw unrelated sequences.
  std::uint64_t z = fixed + 0x9E3779B97F4A7C15ull * (value + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace gpuwcet::testing
