// Random blocks (block_generator.hpp).
#include "gpuwcet_tools/block_generator.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace gpuwcet::tools {
namespace {

struct MixEntry {
  const char* unit;
  int weight;
  OpKind kind;
};

// Rough dynamic mix of the Rodinia PTX traces: address arithmetic dominates,
// then loads/stores and fp math.
constexpr std::array<MixEntry, 15> kRodiniaMix{{
    {"int_add", 22, OpKind::compute},
    {"int_mad", 10, OpKind::compute},
    {"int_mul", 5, OpKind::compute},
    {"int_max", 3, OpKind::compute},
    {"fp_add", 8, OpKind::compute},
    {"fp_mul", 7, OpKind::compute},
    {"fp_mad", 8, OpKind::compute},
    {"mem", 10, OpKind::load},
    {"mem", 4, OpKind::store},
    {"mem_shared", 6, OpKind::load},
    {"mem_shared", 2, OpKind::store},
    {"mem_param", 2, OpKind::load},
    {"sfu", 3, OpKind::compute},
    {"fp_div", 1, OpKind::compute},
    {"branch", 5, OpKind::branch},
}};

std::vector<Instruction> generate_warp(const HardwareDescription& hw,
                                       const BlockGeneratorOptions& o, std::mt19937_64& rng) {
  std::vector<std::pair<int, OpKind>> mix;  // (unit, kind), repeated by weight
  if (o.rodinia_mix) {
    for (const MixEntry& e : kRodiniaMix) {
      const int u = find_unit(hw, e.unit);
      if (u < 0) continue;
      for (int k = 0; k < e.weight; ++k) mix.emplace_back(u, e.kind);
    }
  }
  if (mix.empty()) {
    for (std::size_t u = 0; u < hw.unit_count; ++u) mix.emplace_back(static_cast<int>(u), OpKind::compute);
  }
  const std::size_t regs = std::max<std::size_t>(o.registers, 2);
  std::uniform_int_distribution<std::size_t> pick_mix(0, mix.size() - 1);
  std::uniform_int_distribution<std::size_t> pick_reg(0, regs - 1);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<std::uint16_t> recent;  // last destinations, for chains

  // Barrier positions spread over the sequence.
  std::vector<std::size_t> barrier_at;
  for (std::size_t b = 0; b < o.barriers; ++b) {
    barrier_at.push_back(std::uniform_int_distribution<std::size_t>(0, o.instructions)(rng));
  }
  std::sort(barrier_at.begin(), barrier_at.end());

  std::vector<Instruction> out;
  std::size_t next_barrier = 0;
  for (std::size_t i = 0; i <= o.instructions; ++i) {
    while (next_barrier < barrier_at.size() && barrier_at[next_barrier] == i) {
      Instruction bar;
      bar.kind = OpKind::barrier;
      out.push_back(bar);
      ++next_barrier;
    }
    if (i == o.instructions) break;
    const auto [unit, kind] = mix[pick_mix(rng)];
    Instruction ins;
    ins.unit = static_cast<std::uint16_t>(unit);
    ins.kind = kind;
    const bool memory = kind == OpKind::load || kind == OpKind::store || !o.rodinia_mix;
    if (o.max_extra_cycles > 0 && memory && rng() % 3 == 0) {
      ins.extra_cycles = static_cast<std::uint8_t>(rng() % (o.max_extra_cycles + 1u));
    }
    const std::size_t srcs = kind == OpKind::branch ? 1 : (kind == OpKind::store ? 2 : 1 + rng() % 3);
    for (std::size_t k = 0; k < srcs; ++k) {
      std::uint16_t r;
      if (!recent.empty() && coin(rng) < o.dependency) {
        const std::size_t back = std::min<std::size_t>(recent.size(), 4);
        r = recent[recent.size() - 1 - rng() % back];
      } else {
        r = static_cast<std::uint16_t>(pick_reg(rng));
      }
      ins.src[ins.src_count++] = r;
    }
    if (kind != OpKind::store && kind != OpKind::branch) {
      const auto d = static_cast<std::uint16_t>(pick_reg(rng));
      ins.dst[ins.dst_count++] = d;
      recent.push_back(d);
    }
    out.push_back(ins);
  }
  Instruction ret;
  ret.kind = OpKind::exit;
  // An exit that issues needs a unit: the ALU's if there is one.
  const int alu = find_unit(hw, "alu");
  ret.unit = static_cast<std::uint16_t>(alu >= 0 ? alu : 0);
  out.push_back(ret);
  return out;
}

}  // namespace

std::vector<std::vector<Instruction>> generate_block(const HardwareDescription& hw,
                                                     const BlockGeneratorOptions& options,
                                                     std::mt19937_64& rng) {
  std::vector<std::vector<Instruction>> block;
  if (options.same_code) {
    block.assign(options.warps, generate_warp(hw, options, rng));
  } else {
    for (std::size_t w = 0; w < options.warps; ++w) block.push_back(generate_warp(hw, options, rng));
  }
  return block;
}

}  // namespace gpuwcet::tools
