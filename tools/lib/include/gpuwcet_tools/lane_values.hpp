// What a warp's memory accesses cost, from what the trace says about the
// addresses of its 32 lanes.
//
// A memory instruction of a warp is served as several *transactions* (one per
// 32-byte sector of global memory it touches) or, for shared memory, in as
// many passes as its worst bank conflict. PTX traces give no addresses, so
// LaneValueAnalysis follows every register through the dynamic trace as an
// affine function of the thread index,
//     value = base + a*tid.x + b*tid.y + c*tid.z,
// with `base` the same in every lane (kernel parameters, block index,
// constants, ...) and a, b, c known integers or unknown-but-uniform
// multipliers; anything else (loaded data, divisions, ...) is *varying* and
// its lanes may take any values. An access whose address is varying costs the
// worst: one transaction (one bank pass) per lane. So every count is an upper
// bound on what the hardware does, for every launch and every data set, under
// the assumption (docs/trace-formats.md) that index arithmetic does not wrap
// around its register width.
//
// Accel-Sim traces carry every lane's address; cost_of_addresses counts
// those exactly.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpuwcet::tools {

inline constexpr std::uint32_t kWarpLanes = 32;
// GPGPU-Sim's coalescer for compute capability >= 4.0 (-gpgpu_coalesce_arch
// 86): global and local accesses are split into 32-byte sectors.
inline constexpr std::uint32_t kSectorBytes = 32;
// Shared memory: 32 banks of 4-byte words (-gpgpu_shmem_num_banks 32).
inline constexpr std::uint32_t kSharedBanks = 32;
inline constexpr std::uint32_t kBankWordBytes = 4;

// Thread-block shape of the launch; 0 in x means unknown (then the analysis
// assumes the worst placement of a warp's lanes in the block).
struct BlockShape {
  std::uint32_t x = 0, y = 1, z = 1;
  bool known() const { return x != 0; }
};

// "16", "16,16" or "16,16,1"; nullopt when malformed, zero or above 1024
// threads.
std::optional<BlockShape> parse_block_shape(std::string_view text);

// One value as the lanes of a warp see it.
struct LaneValue {
  struct Term {
    bool known = true;       // false: an unknown multiplier, the same in every lane
    std::int64_t value = 0;  // the multiplier when known
    bool zero() const { return known && value == 0; }
  };
  bool varying = true;      // lanes may hold unrelated values
  bool base_known = false;  // base is the known constant `base`
  std::int64_t base = 0;
  std::array<Term, 3> tid{};  // multipliers of tid.x, tid.y, tid.z

  static LaneValue unknown() { return LaneValue{}; }
  static LaneValue uniform();  // same in every lane, value unknown
  static LaneValue constant(std::int64_t v);
  static LaneValue thread_index(int dim);  // tid.x (0), tid.y (1), tid.z (2)
  bool is_uniform() const;
  bool is_constant() const { return is_uniform() && base_known; }
  bool operator==(const LaneValue& o) const;
};

// Where a memory instruction goes, for its cost.
enum class MemorySpace { global, shared, other };

struct AccessCost {
  std::uint32_t passes = 1;  // transactions (global) or bank passes (shared), >= 1
  bool exact = false;        // from real addresses (Accel-Sim) or a uniform address
};

// Follows a PTX warp trace instruction by instruction.
class LaneValueAnalysis {
 public:
  explicit LaneValueAnalysis(BlockShape shape) : shape_(shape) {}

  // Feeds one executed instruction: `opcode` with its modifiers
  // ("ld.global.u8"), the guard register or empty, and its operands as
  // written ("%r1", "[%rd5+-1]", "%tid.x", "0f3F800000", "{%f1, %f2}").
  // Returns the cost of the instruction when it accesses memory.
  AccessCost step(std::string_view opcode, std::string_view guard,
                  const std::vector<std::string_view>& operands);

  // The value of an operand right now (tests).
  LaneValue operand(std::string_view text) const;

 private:
  LaneValue address(std::string_view bracketed) const;
  void assign(std::string_view dst, const LaneValue& v, std::string_view guard);

  BlockShape shape_;
  std::unordered_map<std::string, LaneValue> regs_;
  // Loops repeat the same accesses: costs by (space, address, bytes).
  std::unordered_map<std::string, AccessCost> costs_;
};

// Bytes one lane accesses: the type's width times the vector length
// (".v4.f32" -> 16); 4 when the opcode names no type.
std::uint32_t access_bytes(std::string_view opcode);

// The memory space of a PTX load/store/atomic opcode (generic addresses count
// as global: the worse of the two).
MemorySpace memory_space(std::string_view opcode);

// Upper bound on the cost of an access of `bytes` per lane at `address` by
// every lane of a warp of a block of `shape`, at the worst alignment of the
// uniform part and the worst placement of the warp in the block.
AccessCost cost_of_access(MemorySpace space, const LaneValue& address, std::uint32_t bytes,
                          BlockShape shape);

// Exact cost from the addresses of the active lanes (Accel-Sim traces).
AccessCost cost_of_addresses(MemorySpace space, const std::vector<std::uint64_t>& addresses,
                             std::uint32_t bytes);

}  // namespace gpuwcet::tools
