#include "gpuwcet_tools/opcode_classes.hpp"

#include <cstddef>

namespace gpuwcet::tools {

namespace {

struct Entry {
  std::string_view name;
  std::string_view unit;  // empty: barrier / exit
  OpKind kind;
};

constexpr OpKind kC = OpKind::compute;
constexpr OpKind kLd = OpKind::load;
constexpr OpKind kSt = OpKind::store;
constexpr OpKind kBr = OpKind::branch;

// SASS base opcodes (before the first '.'), Volta to Hopper. Integer work
// takes the int list of its GPGPU-Sim class (add/logic/shift/compare: index
// 0, min/max 1, mul 2, mad 3); moves, special-register reads and other
// single-cycle work go to "alu" (see docs/trace-formats.md). Uniform-datapath
// opcodes (U...) are looked up without their 'U' after the table misses.
constexpr Entry kSass[] = {
    // FP32 pipe (half precision runs on it too; HFMA2.MMA is a move idiom).
    {"FADD", "fp_add", kC}, {"FADD32I", "fp_add", kC}, {"FSETP", "fp_add", kC},
    {"FSET", "fp_add", kC}, {"FSEL", "fp_add", kC}, {"FCHK", "fp_add", kC},
    {"FSWZADD", "fp_add", kC}, {"FMNMX", "fp_max", kC}, {"FMUL", "fp_mul", kC},
    {"FMUL32I", "fp_mul", kC}, {"FFMA", "fp_mad", kC}, {"FFMA32I", "fp_mad", kC},
    {"HADD2", "fp_add", kC}, {"HADD2_32I", "fp_add", kC}, {"HSETP2", "fp_add", kC},
    {"HSET2", "fp_add", kC}, {"HMNMX2", "fp_max", kC}, {"HMUL2", "fp_mul", kC},
    {"HMUL2_32I", "fp_mul", kC}, {"HFMA2", "fp_mad", kC}, {"HFMA2_32I", "fp_mad", kC},
    {"I2FP", "fp_add", kC}, {"F2FP", "fp_add", kC},
    // Conversions and transcendental functions: the MUFU/XU pipe.
    {"MUFU", "sfu", kC}, {"RRO", "sfu", kC}, {"F2I", "sfu", kC}, {"I2F", "sfu", kC},
    {"F2F", "sfu", kC}, {"FRND", "sfu", kC}, {"I2I", "sfu", kC},
    // FP64.
    {"DADD", "dp_add", kC}, {"DSETP", "dp_add", kC}, {"DSET", "dp_add", kC},
    {"DMNMX", "dp_max", kC}, {"DMUL", "dp_mul", kC}, {"DFMA", "dp_mad", kC},
    // Integer pipe.
    {"IADD3", "int_add", kC}, {"IADD", "int_add", kC}, {"IADD32I", "int_add", kC},
    {"VIADD", "int_add", kC}, {"ISETP", "int_add", kC}, {"ICMP", "int_add", kC},
    {"ISCADD", "int_add", kC}, {"IABS", "int_add", kC}, {"LOP", "int_add", kC},
    {"LOP3", "int_add", kC}, {"LOP32I", "int_add", kC}, {"PLOP3", "int_add", kC},
    {"SHF", "int_add", kC}, {"SHL", "int_add", kC}, {"SHR", "int_add", kC},
    {"LEA", "int_add", kC}, {"SEL", "int_add", kC}, {"PRMT", "int_add", kC},
    {"BFE", "int_add", kC}, {"BFI", "int_add", kC}, {"FLO", "int_add", kC},
    {"POPC", "int_add", kC}, {"BREV", "int_add", kC}, {"BMSK", "int_add", kC},
    {"SGXT", "int_add", kC}, {"IMNMX", "int_max", kC}, {"VIMNMX", "int_max", kC},
    {"IMUL", "int_mul", kC}, {"IMUL32I", "int_mul", kC}, {"IMAD", "int_mad", kC},
    {"IMAD32I", "int_mad", kC}, {"IDP", "int_mad", kC}, {"IMADSP", "int_mad", kC},
    // Single-cycle moves and reads of special registers.
    {"MOV", "alu", kC}, {"MOV32I", "alu", kC}, {"S2R", "alu", kC}, {"CS2R", "alu", kC},
    {"S2UR", "alu", kC}, {"R2UR", "alu", kC}, {"R2P", "alu", kC}, {"P2R", "alu", kC},
    {"SHFL", "alu", kC}, {"VOTE", "alu", kC}, {"MATCH", "alu", kC}, {"NOP", "alu", kC},
    {"MEMBAR", "alu", kC}, {"FENCE", "alu", kC}, {"DEPBAR", "alu", kC}, {"CCTL", "alu", kC},
    {"ERRBAR", "alu", kC}, {"LDGDEPBAR", "alu", kC}, {"REDUX", "alu", kC},
    // Tensor cores.
    {"HMMA", "tensor", kC}, {"IMMA", "tensor", kC}, {"BMMA", "tensor", kC},
    {"DMMA", "tensor", kC}, {"HGMMA", "tensor", kC},
    // Memory.
    // Memory: shared-memory and constant accesses have units of their own
    // (hardware_presets.hpp; a description without them falls back to mem).
    {"LDG", "mem", kLd}, {"LDS", "mem_shared", kLd}, {"LDC", "mem_param", kLd}, {"LD", "mem", kLd},
    {"LDL", "mem", kLd}, {"LDSM", "mem_shared", kLd}, {"LDGSTS", "mem", kLd}, {"TEX", "mem", kLd},
    {"TLD", "mem", kLd}, {"ATOM", "mem", kLd}, {"ATOMS", "mem_shared", kLd}, {"ATOMG", "mem", kLd},
    {"STG", "mem", kSt}, {"STS", "mem_shared", kSt}, {"ST", "mem", kSt}, {"STL", "mem", kSt},
    {"RED", "mem", kSt},
};

// Control flow (branch unit), barriers and exit.
constexpr Entry kSassControl[] = {
    {"BRA", "branch", kBr}, {"BRX", "branch", kBr}, {"JMP", "branch", kBr},
    {"JMX", "branch", kBr}, {"CALL", "branch", kBr}, {"RET", "branch", kBr},
    {"BSSY", "branch", kBr}, {"BSYNC", "branch", kBr}, {"BREAK", "branch", kBr},
    {"WARPSYNC", "branch", kBr}, {"YIELD", "branch", kBr}, {"NANOSLEEP", "branch", kBr},
    {"BMOV", "branch", kBr}, {"KILL", "branch", kBr}, {"BPT", "branch", kBr},
    {"BAR", "", OpKind::barrier}, {"EXIT", "", OpKind::exit},
};

template <std::size_t N>
std::optional<OpcodeClass> find(const Entry (&table)[N], std::string_view name) {
  for (const Entry& e : table) {
    if (e.name == name) return OpcodeClass{std::string(e.unit), e.kind};
  }
  return std::nullopt;
}

std::string_view base_of(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }


// The state space of a PTX memory opcode picks its unit: .shared on the
// shared-memory unit, .param and .const (both read through GPGPU-Sim's
// constant cache) on the parameter unit, the rest (global, local, generic,
// texture) on mem.
const char* memory_unit(std::string_view opcode) {
  if (has_component(opcode, "shared")) return "mem_shared";
  if (has_component(opcode, "param") || has_component(opcode, "const")) return "mem_param";
  return "mem";
}

// PTX: the value type among the modifiers picks GPGPU-Sim's list.
std::string_view ptx_list(std::string_view opcode) {
  if (has_component(opcode, "f32")) return "fp_";
  if (has_component(opcode, "f64")) return "dp_";
  return "int_";
}

constexpr std::string_view kPtxAlu[] = {
    "mov",   "cvt",   "cvta",  "setp",   "selp",   "set",    "slct",  "and",   "or",
    "xor",   "not",   "cnot",  "shl",    "shr",    "neg",    "abs",   "popc",  "clz",
    "bfe",   "bfi",   "bfind", "brev",   "prmt",   "testp",  "copysign", "vote", "shfl",
    "activemask", "isspacep", "lop3", "dp4a", "dp2a", "sad",  "nop",   "membar", "fence",
    "match", "redux", "szext", "bmsk",   "mapa",
};

}  // namespace

bool has_component(std::string_view opcode, std::string_view part) {
  std::size_t pos = 0;
  while (pos <= opcode.size()) {
    const std::size_t dot = opcode.find('.', pos);
    const std::size_t end = dot == std::string_view::npos ? opcode.size() : dot;
    if (opcode.substr(pos, end - pos) == part) return true;
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  return false;
}

bool ptx_writes_nothing(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  // bar.red / barrier.red write the reduction's result.
  if ((base == "bar" || base == "barrier") && has_component(opcode, "red")) return false;
  static constexpr std::string_view kNoDst[] = {
      "st", "red", "sust", "bar", "barrier", "bra", "brx", "ret", "exit", "membar", "fence",
      "prefetch", "prefetchu", "trap", "nop", "brkpt", "pmevent", "call",
  };
  for (std::string_view s : kNoDst) {
    if (base == s) return true;
  }
  return false;
}

std::optional<OpcodeClass> classify_sass(std::string_view opcode) {
  if (opcode.empty()) return std::nullopt;
  const std::string_view base = base_of(opcode);
  if (base.empty()) return std::nullopt;
  // BAR.ARV arrives without waiting for the other warps.
  if (base == "BAR" && has_component(opcode, "ARV")) return OpcodeClass{"alu", kC};
  if (auto c = find(kSassControl, base)) return c;
  if (auto c = find(kSass, base)) return c;
  // Uniform datapath: UIADD3, UMOV, ULDC, USHF, ... as their vector twins.
  if (base.size() > 1 && base[0] == 'U') {
    if (auto c = find(kSass, base.substr(1))) return c;
  }
  return std::nullopt;
}

std::optional<OpcodeClass> classify_ptx(std::string_view opcode) {
  if (opcode.empty()) return std::nullopt;
  const std::string_view base = base_of(opcode);
  const std::string_view list = ptx_list(opcode);
  auto on = [&](std::string_view suffix) {
    return OpcodeClass{std::string(list) + std::string(suffix), kC};
  };
  if (base == "add" || base == "sub" || base == "addc" || base == "subc") return on("add");
  if (base == "max" || base == "min") return on("max");
  if (base == "mul" || base == "mul24") return on("mul");
  if (base == "mad" || base == "mad24" || base == "madc" || base == "fma") return on("mad");
  // GPGPU-Sim runs every division on the SFU with its type's numbers; rem is
  // a division.
  if (base == "div" || base == "rem") return on("div");
  if (base == "sqrt" || base == "sin" || base == "cos" || base == "ex2" || base == "lg2" ||
      base == "rsqrt" || base == "rcp" || base == "tanh") {
    return OpcodeClass{"sfu", kC};
  }
  if (base == "mma" || base == "wmma") return OpcodeClass{"tensor", kC};
  if (base == "ld" || base == "ldu" || base == "atom" || base == "tex" || base == "tld4" ||
      base == "suld" || base == "prefetch") {
    return OpcodeClass{memory_unit(opcode), kLd};
  }
  if (base == "st" || base == "red" || base == "sust") return OpcodeClass{memory_unit(opcode), kSt};
  if (base == "bra" || base == "brx" || base == "call" || base == "brkpt") {
    return OpcodeClass{"branch", kBr};
  }
  if (base == "ret" || base == "exit") return OpcodeClass{"", OpKind::exit};
  if (base == "bar" || base == "barrier") {
    // bar.arrive does not wait for the other warps; bar.warp.sync only
    // reconverges the threads of one warp.
    if (has_component(opcode, "arrive") || has_component(opcode, "warp")) {
      return OpcodeClass{"alu", kC};
    }
    return OpcodeClass{"", OpKind::barrier};
  }
  for (std::string_view a : kPtxAlu) {
    if (base == a) return OpcodeClass{"alu", kC};
  }
  return std::nullopt;
}

OpcodeClass opcode_class_from_name(std::string_view unit_or_kind) {
  if (unit_or_kind == "barrier") return {"", OpKind::barrier};
  if (unit_or_kind == "exit") return {"", OpKind::exit};
  if (unit_or_kind == "mem" || unit_or_kind == "mem_shared" || unit_or_kind == "mem_param") {
    return {std::string(unit_or_kind), kLd};
  }
  if (unit_or_kind == "branch") return {"branch", kBr};
  return {std::string(unit_or_kind), kC};
}

std::optional<OpcodeClass> classify_native(std::string_view opcode) {
  if (opcode == "load") return OpcodeClass{"mem", kLd};
  if (opcode == "store") return OpcodeClass{"mem", kSt};
  if (opcode == "load.shared") return OpcodeClass{"mem_shared", kLd};
  if (opcode == "store.shared") return OpcodeClass{"mem_shared", kSt};
  if (opcode == "load.param") return OpcodeClass{"mem_param", kLd};
  if (opcode == "store.param") return OpcodeClass{"mem_param", kSt};
  if (opcode == "branch.fallthrough") return OpcodeClass{"branch", kC};
  static constexpr std::string_view kNames[] = {
      "int_add", "int_max", "int_mul", "int_mad", "int_div", "fp_add", "fp_max", "fp_mul",
      "fp_mad",  "fp_div",  "dp_add",  "dp_max",  "dp_mul",  "dp_mad", "dp_div", "sfu",
      "tensor",  "mem",     "mem_shared", "mem_param", "branch", "alu", "barrier", "exit",
  };
  for (std::string_view n : kNames) {
    if (opcode == n) return opcode_class_from_name(opcode);
  }
  if (auto c = classify_ptx(opcode)) return c;
  return classify_sass(opcode);
}

}  // namespace gpuwcet::tools
