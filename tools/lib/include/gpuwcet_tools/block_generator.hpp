// Random thread blocks for the multi-phase analysis: the simulator tests and
// the tightness benchmark. Instruction mix loosely follows the Rodinia traces
// of the gpgpusim-ptx-traces data set (integer address arithmetic, fp math,
// global/shared loads and stores, a few SFU and divide operations, barriers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "gpuwcet/block_model.hpp"

namespace gpuwcet::tools {

struct BlockGeneratorOptions {
  std::size_t warps = 8;
  std::size_t instructions = 64;  // per warp, barriers excluded
  std::size_t barriers = 0;
  std::size_t registers = 32;     // register ids 0..registers-1
  // Rodinia blocks run one kernel: every warp gets the same sequence. Off:
  // every warp gets its own random sequence (same barrier count).
  bool same_code = true;
  // Probability that a source reads one of the last few results (a chain).
  double dependency = 0.5;
  bool rodinia_mix = true;  // else any unit of hw, uniformly
  // A third of the memory instructions (any instruction without the Rodinia
  // mix) get extra_cycles drawn from 0..max_extra_cycles: uncoalesced
  // transactions and bank conflicts.
  std::uint8_t max_extra_cycles = 0;
};

// Units used with the presets' names (hardware_presets.hpp); any other
// description gets a uniform mix over its units (rodinia_mix ignored).
std::vector<std::vector<Instruction>> generate_block(const HardwareDescription& hw,
                                                     const BlockGeneratorOptions& options,
                                                     std::mt19937_64& rng);

}  // namespace gpuwcet::tools
