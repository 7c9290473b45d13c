#include <cstdio>

#include "gpuwcet/makespan_bounds.hpp"

int main() {
  gpuwcet::SmDescription sm;
  sm.warp_size = 32;
  if (sm.add_class('L', 16) != gpuwcet::Status::ok) return 1;
  gpuwcet::TransformedShape shape;
  if (gpuwcet::analyze_kernel(sm, "LL", shape) != gpuwcet::Status::ok) return 1;
  std::uint64_t cycles = 0;
  if (gpuwcet::safe_pessimistic_makespan(shape, 2, cycles) != gpuwcet::Status::ok) return 1;
  std::printf("consumer_cpp: %llu\n", static_cast<unsigned long long>(cycles));
  return 0;
}
