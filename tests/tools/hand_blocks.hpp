// The machine and warp that the barrier tests work by hand
// (test_block_simulator.cpp, test_barrier_slots.cpp,
// test_co_resident_blocks.cpp).
#pragma once

#include <vector>

#include "gpuwcet/block_model.hpp"

namespace gpuwcet::tools::testing {

// The paper's pipeline with one unit U (initiation 1, latency 1: a result
// is written 2 cycles after its issue) and barrier_delay 2.
inline HardwareDescription one_unit_barrier_machine() {
  HardwareDescription hw;
  hw.unit_count = 1;
  hw.units[0].initiation = 1;
  hw.units[0].latency = 1;
  hw.barrier_delay = 2;
  return hw;
}

// `U; bar; U`, then exit.
inline std::vector<Instruction> u_bar_u() {
  std::vector<Instruction> code(4);
  code[1].kind = OpKind::barrier;
  code[3].kind = OpKind::exit;
  return code;
}

}  // namespace gpuwcet::tools::testing
