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
#include <unordered_set>
#include <vector>

namespace gpuwcet::tools {

class PtxControlFlow;

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
  // Some lanes may hold, instead of the affine value, one of `outliers`
  // other values, each the same in every lane that holds it: what
  // max(tid - 1, lo), min(tid + 1, hi) or selp(tid, u, p) leave with lo, hi
  // and u the same in every lane. An access then costs at most its affine
  // part's passes plus one lane's per outlier.
  std::uint8_t outliers = 0;
  static constexpr std::uint8_t kMaxOutliers = 4;
  // When the base is not known, a nonzero `symbol` names its value: values
  // with the same symbol have the same base in every lane, all through the
  // kernel (a parameter or a symbol's address, %ctaid, a parameter or
  // constant-bank load at such an address, and what one operation makes of
  // such values: nvcc recomputes loop invariants inside loops).
  std::uint64_t symbol = 0;

  static LaneValue unknown() { return LaneValue{}; }
  static LaneValue uniform();  // same in every lane, value unknown
  static LaneValue constant(std::int64_t v);
  static LaneValue thread_index(int dim);  // tid.x (0), tid.y (1), tid.z (2)
  bool is_uniform() const;
  bool is_constant() const { return is_uniform() && base_known; }
  // The same known number in every thread of a known launch: base and every
  // multiplier known.
  bool known_everywhere() const;
  // The same number in every lane whenever it is computed: base known or
  // named, every multiplier known, no outliers.
  bool identified() const;
  bool operator==(const LaneValue& o) const;
};

// Where a memory instruction goes, for its cost. Local memory is private to
// each thread, its words interleaved between threads (GPGPU-Sim).
enum class MemorySpace { global, shared, local, other };

struct AccessCost {
  std::uint32_t passes = 1;  // transactions (global) or bank passes (shared), >= 1
  bool exact = false;        // from real addresses (Accel-Sim) or a uniform address
};

// GPGPU-Sim numbers PTX instructions 8 bytes apart.
inline constexpr std::uint64_t kPtxInstructionBytes = 8;

// Where a traced instruction sits: its address and PTX source location.
// Lanes that a branch split can join again only at a label, and a label
// sits between two instructions whose source lines are not consecutive.
struct TraceLocation {
  std::uint64_t pc = 0;
  std::string_view file;   // the PTX file named by the trace line
  std::uint64_t line = 0;  // 0: unknown (any instruction may follow a label)
  // The instruction as the trace prints it, guard and operands, without its
  // ';'; checked against the PTX file's line when one is followed (empty:
  // not checked).
  std::string_view text;
};

// Follows a PTX warp trace instruction by instruction.
//
// A branch whose condition differs between lanes splits the warp: its lanes
// run one path, then the other, and join again further on (GPGPU-Sim's
// reconvergence stack). Lanes join, or the other path's lanes take over,
// only where the trace reaches a label or jumps, or falls through a loop's
// back edge that split the warp before; between two such points (an
// *epoch*) the running lanes can only become fewer. At such a point the
// lanes stay the same when the next instruction reads a register first
// written in the epoch after the last split: lanes joining or taking over
// never wrote it (no lane reads a register it never wrote). So a register read
// in the epoch of its last write holds that write's value in every reading
// lane. Across epochs (docs/trace-formats.md, "Split warps") a changed value
// is varying unless the write reached every lane holding the register: no
// lanes parted since the register's first write, the same straight run of
// instructions (no label, branch or jump between) as a write that did, or
// the per-thread mix, when still affine, on the fall-through of a branch
// whose condition it evaluates per thread. Accesses cost only the threads
// that may run them: those on the fall-through of such branches since the
// last join. A block barrier does not make a split warp whole (nvcc
// places `bar.sync` inside branches on the thread index, and GPGPU-Sim lets
// a warp pass it with the lanes it has).
//
// Given the kernel's PTX file (follow()), it needs none of these rules:
// it runs GPGPU-Sim's reconvergence stack over the file's join points, so
// lanes join exactly where the simulator joins them, and a join back to the
// whole warp makes every lane run again. A split on a condition known per
// thread gives each path its exact lanes. A condition it cannot evaluate
// per thread (loaded data, a parameter) may have sent every lane one way
// or split them: it keeps each stack the branch may have left, with the
// lanes of a split path unknown (at most those of the entry that split),
// until the trace's next lines rule stacks out; each instruction then runs
// with what every stack still possible allows (the union of their lanes,
// a join when any of them joins). From a call, an indirect branch, an exit
// under a guard that differs between lanes, or more than kMaxFlowStacks
// stacks, it goes on by the rules above (flow_left() says why).
class LaneValueAnalysis {
 public:
  // Comparisons an AND of predicates keeps (and.pred); a longer one is
  // unknown, so every lane counts.
  static constexpr std::size_t kMaxPredicateTerms = 16;
  // Stacks kept at most while following the PTX file's control flow.
  static constexpr std::size_t kMaxFlowStacks = 64;

  explicit LaneValueAnalysis(BlockShape shape);

  // Follows the reconvergence stack of `flow` (ptx_control_flow.hpp), which
  // must outlive the analysis and hold every line the trace runs. step()
  // then throws ToolError when a traced line is no instruction of the file,
  // holds another opcode, or is not where the stack says the warp goes.
  void follow(const PtxControlFlow* flow) { flow_ = flow; }
  // Why the analysis stopped following the control flow; empty while it
  // follows it (or never did).
  const std::string& flow_left() const { return flow_left_; }

  // Feeds one executed instruction: `opcode` with its modifiers
  // ("ld.global.u8"), the guard register or empty, and its operands as
  // written ("%r1", "[%rd5+-1]", "%tid.x", "0f3F800000", "{%f1, %f2}").
  // Returns the cost of the instruction when it accesses memory.
  AccessCost step(std::string_view opcode, std::string_view guard,
                  const std::vector<std::string_view>& operands, TraceLocation at = {});

  // The value of an operand right now (tests).
  LaneValue operand(std::string_view text) const;

 private:
  // setp's comparison of two values known in every thread.
  struct Comparison {
    std::string op;  // eq ne lt le gt ge lo ls hi hs
    LaneValue a, b;
    bool operator==(const Comparison& o) const { return op == o.op && a == o.a && b == o.b; }
  };
  // A predicate known per thread: the AND of comparisons and of predicates
  // the same in every lane (`uniform_terms`).
  struct LanePredicate {
    std::vector<Comparison> all_of;  // distinct, at most kMaxPredicateTerms
    bool uniform_terms = false;
    // Valid in every lane that reads it (computed by every lane, or the
    // register's first write: lanes that did not make it never wrote the
    // register), or else in `epoch` (for the lanes running in that epoch).
    bool every_lane = false;
    std::uint64_t epoch = 0;
    bool valid(std::uint64_t now) const { return every_lane || epoch == now; }
  };
  enum class Lanes { all, known, unknown };  // which lanes run the current instruction
  struct Branch {
    std::uint64_t pc = 0;
    bool splits = false;                       // the lanes may part
    bool always = false;                       // no guard
    // Threads that may fall through, when the condition is known per
    // thread; exactly those when `exact`.
    std::optional<std::vector<bool>> fall_through;
    bool exact = false;
    // fall_through is exactly the fall-through lanes among those running
    // (no term the same in every lane but unknown), whatever they are.
    bool predicate_exact = false;
    // It split the warp before: lanes that left a loop through its
    // fall-through wait there, and join the ones falling through now.
    bool split_before = false;
  };
  struct Register {
    LaneValue value;     // in every lane that reads it in `epoch`
    LaneValue held;      // in every lane holding it, in any later epoch
    std::uint64_t epoch = 0;        // epoch_ of its last write
    std::uint64_t run = 0;          // run_ of its last write
    std::uint64_t first_split = 0;  // splits_ at its first write
    std::uint64_t first_epoch = 0;  // epoch_ at its first write
    bool cover = true;  // its last write reached every lane holding it
    bool written_once = true;
  };

  // An entry of the reconvergence stack: where its lanes go next, where
  // they meet the lanes below, and which they are.
  struct StackEntry {
    std::uint32_t pc = 0;          // instruction index in the control flow
    std::uint32_t reconverge = 0;  // kBottom: the bottom entry; kAtExit: when the kernel ends
    Lanes lanes = Lanes::all;
    std::vector<bool> mask;  // exactly its lanes (known), or a superset (unknown)
    bool mask_full = true;
    // Lanes not known per thread left: it may hold none, and pop.
    bool may_be_empty = false;
  };
  static constexpr std::uint32_t kBottom = ~std::uint32_t{0};
  static constexpr std::uint32_t kAtExit = kBottom - 1;
  struct Transition {
    std::vector<StackEntry> stack;
    bool popped = false;  // lanes below took over
    bool split = false;   // fewer lanes
  };
  // Follows the stack to the traced instruction; false when it cannot tell
  // (the caller goes on by the rules), ToolError when the trace disagrees.
  bool follow_flow(const TraceLocation& at, std::string_view opcode);
  bool flow_step(std::uint32_t here, std::string& why);
  bool transitions(const std::vector<StackEntry>& stack, std::vector<Transition>& out,
                   std::string& why) const;
  void single_path(Transition& t, std::uint32_t next) const;
  void split_paths(Transition& t, Lanes lanes, std::uint32_t first_pc, const std::vector<bool>& first,
                   std::uint32_t second_pc, const std::vector<bool>& second,
                   std::uint32_t join) const;
  void exit_lanes(Transition& t) const;
  void leave(std::vector<StackEntry>& stack, const std::vector<bool>& gone, bool exact) const;
  void exit_some(Transition t, const std::vector<bool>& leaving, const std::vector<bool>& staying,
                 bool exact, std::vector<Transition>& out) const;
  void settle(Transition t, std::vector<Transition>& out) const;
  void single_from(const std::vector<StackEntry>& stack, std::uint32_t to,
                   std::vector<Transition>& out) const;
  void split_from(const std::vector<StackEntry>& stack, Lanes lanes, std::uint32_t lower_pc,
                  const std::vector<bool>& lower, std::uint32_t upper_pc,
                  const std::vector<bool>& upper, std::vector<Transition>& out) const;
  std::optional<std::vector<StackEntry>> all_one_way(std::vector<StackEntry> stack,
                                                     const std::vector<bool>& way) const;
  std::vector<StackEntry> among(std::vector<StackEntry> stack, const std::vector<bool>& warps) const;
  std::vector<bool> threads_of(const StackEntry& e) const;
  void remember(const TraceLocation& at);

  LaneValue address(std::string_view bracketed) const;
  void assign(std::string_view dst, const LaneValue& v, std::string_view guard);
  void enter(const TraceLocation& at, bool witnessed);
  bool reads_fresh_register(std::string_view opcode, std::string_view guard,
                            const std::vector<std::string_view>& ops) const;
  void lanes_may_join();
  void branch(std::string_view base, std::string_view guard,
              const std::vector<std::string_view>& ops);
  void record_predicate(std::string_view base, std::string_view opcode,
                        const std::vector<std::string_view>& ops);
  std::optional<std::vector<std::int64_t>> per_thread(const LaneValue& v) const;
  std::optional<std::vector<bool>> holds(const LanePredicate& p, bool negate) const;
  // The threads where a guard ("%p", "!%p") is `value`, when its predicate
  // is known per thread and valid now; `exact` false: a superset.
  std::optional<std::vector<bool>> where_guard(std::string_view guard, bool value, bool& exact) const;
  LaneValue mix(const LaneValue& written, const LaneValue& kept) const;
  // Symbols (LaneValue::symbol), one per distinct key.
  std::uint64_t intern(const std::string& key) const;
  LaneValue named(std::string_view name) const;
  LaneValue identify(LaneValue result, std::string_view opcode,
                     const std::vector<std::string_view>& ops) const;

  BlockShape shape_;
  std::unordered_map<std::string, Register> regs_;
  std::unordered_map<std::string, LanePredicate> predicates_;
  Lanes lanes_ = Lanes::all;
  // Threads that may run the current instruction (one flag per thread of a
  // known shape, else empty): exactly those when lanes_ == known, all when
  // lanes_ == all.
  std::vector<bool> mask_;
  bool mask_full_ = true;       // mask_ holds every thread
  std::uint64_t run_ = 0;       // straight run of instructions (no label, no branch)
  std::uint64_t splits_ = 0;    // times lanes may have parted (splits, path switches)
  std::uint64_t epoch_ = 0;     // times lanes may have joined or switched (labels, jumps)
  std::uint64_t pc_ = 0;        // of the instruction being fed
  bool started_ = false;
  std::uint64_t last_pc_ = 0, last_line_ = 0;
  std::string last_file_;
  std::optional<Branch> branch_;  // the previous instruction, when a branch
  std::unordered_set<std::uint64_t> split_branches_;  // pcs of branches that split
  bool params_written_ = false;  // a st.param or call: parameters may differ between lanes
  const PtxControlFlow* flow_ = nullptr;  // followed while set
  // The reconvergence stacks the trace so far allows (one unless a split
  // on a condition not known per thread is still undecided).
  std::vector<std::vector<StackEntry>> stacks_;
  std::uint32_t flow_at_ = 0;           // index of the previous instruction
  // The guard of the previous instruction, when an exit: the same in every
  // lane, or the threads where it holds when known per thread (exactly
  // those when `exact`, else a superset).
  struct ExitGuard {
    bool uniform = true;
    std::optional<std::vector<bool>> leaving;
    bool exact = false;
  };
  ExitGuard exit_guard_;
  std::string flow_left_;
  // Loops repeat the same accesses: costs by (space, address, bytes).
  std::unordered_map<std::string, AccessCost> costs_;
  mutable std::unordered_map<std::string, std::uint64_t> symbols_;
};

// Bytes one lane accesses: the type's width times the vector length
// (".v4.f32" -> 16); 4 when the opcode names no type.
std::uint32_t access_bytes(std::string_view opcode);

// A component of a PTX opcode that reads as a typed width (a letter u, s, b
// or f and digits) but is no PTX type (".u35"), or empty.
std::string_view unknown_ptx_type(std::string_view opcode);

// The memory space of a PTX load/store/atomic opcode (generic addresses count
// as global: the worse of the two).
MemorySpace memory_space(std::string_view opcode);

// Upper bound on the cost of an access of `bytes` per lane at `address` by
// every lane of a warp of a block of `shape`, at the worst alignment of the
// uniform part and the worst placement of the warp in the block. `active`,
// when given for a known shape (one flag per thread, x fastest), limits the
// access to the flagged threads: the others do not run it.
AccessCost cost_of_access(MemorySpace space, const LaneValue& address, std::uint32_t bytes,
                          BlockShape shape, const std::vector<bool>* active = nullptr);

// Exact cost from the addresses of the active lanes (Accel-Sim traces).
AccessCost cost_of_addresses(MemorySpace space, const std::vector<std::uint64_t>& addresses,
                             std::uint32_t bytes);

}  // namespace gpuwcet::tools
