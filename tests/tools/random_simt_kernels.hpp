// Random structured kernels for the split-warp tests, laid out as GPGPU-Sim
// prints PTX (one instruction per source line, a blank line before every
// basic block, labels on their own lines): straight code; if / if-else on
// the thread index, on loaded data, on a parameter or a predicate the same
// in every lane but unknown, or on the and.pred of two of them; do-while
// loops whose trip count is fixed, differs with the thread index or with
// loaded data, with breaks; block barriers anywhere; writes, loads and
// exits under guards that differ between lanes; global and shared loads,
// often at tid.x x 128 or other multiples that give each lane a sector or
// bank word of its own; %tid.y; registers some lanes never write.
// simt_reference.hpp runs them as GPGPU-Sim does.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace gpuwcet::tools::random_kernels {

constexpr int kLanes = 32;
// %r0 = tid.x; %r1-%r4 written freely; %r5, %r6 count loops; %r7, %r8
// written freely but not by every lane first; %r9, %r10 the loaded bound of
// a loop at depth 0, 1.
constexpr int kRegs = 11;
constexpr int kFirstLate = 7;
constexpr int kLoopBound = 9;
// %p1, %p2: a float parameter compared with zero, the same in every lane
// but unknown to the analysis; the other predicates follow.
constexpr int kUniformPredicates = 2;

// One linear PTX instruction.
struct Ins {
  enum Kind {
    exit, mov_tid, mov_tid_y, mov_const, load_param, load_float_param, setp_float, add, add_const,
    mul_const, max, min, selp, load_data, load, load_shared, setp, and_pred, bra, jmp, bar
  } kind;
  int dst = 0, a = 0, b = 0;
  std::int64_t c = 0;
  std::string cmp;            // setp
  bool unsigned_cmp = false;  // setp: .u32, the 32-bit patterns compared unsigned
  bool negate = false;        // bra: @!%p
  int target = -1;            // bra / jmp: instruction index
  int p = 1;                  // setp / setp_float / and_pred / selp / bra: predicate register
                              // and_pred: %p<p> = %p<a> and %p<b>
  int guard = 0;              // other instructions: @%p<guard> (0: none)
  bool guard_negated = false;
  std::uint64_t line = 0;
};

inline Ins op(Ins::Kind k, int dst = 0, int a = 0, int b = 0, std::int64_t c = 0, std::string cmp = {}) {
  Ins i{};
  i.kind = k;
  i.dst = dst;
  i.a = a;
  i.b = b;
  i.c = c;
  i.cmp = std::move(cmp);
  return i;
}

// Random structured code, emitted with its source lines.
struct Program {
  std::vector<Ins> code;
  std::uint64_t line = 10;
  std::mt19937_64& rng;
  int predicates = kUniformPredicates;  // the last predicate register set
  // The breaks of each open loop, innermost last: their targets are set
  // when the loop ends.
  std::vector<std::vector<std::size_t>> breaks;
  explicit Program(std::mt19937_64& r) : rng(r) {}

  int pick(int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); }
  int reg() { return pick(kFirstLate + 2); }  // %r0-%r8
  int out() {                                 // never %r0 or a counter
    const int k = pick(6);
    return k < 4 ? 1 + k : kFirstLate + (k - 4);
  }
  // Multipliers: small ones make lanes share sectors; 32 and up give each
  // lane a sector (or bank word) of its own, so every lane that runs an
  // access is counted.
  std::int64_t multiplier() {
    static const std::int64_t kScaled[] = {32, 64, 128, 256, 33, 96};
    return pick(2) ? kScaled[pick(6)] : pick(40);
  }
  // Where a load goes: any register, or often the one tid.x x 128 was
  // written to (each lane a sector of its own, a bank word of its own in
  // one bank: the cost then counts every lane that runs the access).
  int scaled = -1;
  int address() { return scaled >= 0 && pick(3) == 0 ? scaled : reg(); }
  void emit(Ins i) {
    i.line = line++;
    code.push_back(i);
  }
  void block_start(bool label) { line += label ? 2 : 1; }  // blank line (+ label)

  void statement(int depth) {
    if (pick(6) == 0) return guarded();
    if (!breaks.empty() && pick(8) == 0) return leave_loop();
    const int k = pick(depth < 2 ? 12 : 9);
    if (k == 0) emit(op(Ins::mov_const, out(), 0, 0, pick(5) * (pick(2) ? 128 : 1)));
    else if (k == 1) emit(op(Ins::add, out(), reg(), reg()));
    else if (k == 2) emit(op(Ins::add_const, out(), reg(), 0, pick(9) - 4));
    else if (k == 3) emit(op(Ins::mul_const, out(), reg(), 0, multiplier()));
    else if (k == 4) emit(op(Ins::load_data, out(), address()));
    else if (k == 5) emit(op(pick(3) == 0 ? Ins::load_shared : Ins::load, 0, address()));
    else if (k == 6) emit(pick(2) ? op(Ins::bar) : op(Ins::load_param, out(), 0, 0, pick(2)));
    else if (k == 7) clamp();
    else if (k == 8) emit(op(Ins::mov_tid_y, out()));
    else if (k <= 10) conditional(depth);
    else loop(depth);
  }
  void body(int depth, int n) {
    for (int k = 0; k < n; ++k) statement(depth + 1);
  }
  // A write, a load or an exit under a predicate that may differ between
  // lanes; or an exit the same for every lane (unguarded, or on %p1 or %p2),
  // which inside a split ends one path only.
  void guarded() {
    if (pick(6) == 0) {
      Ins e = op(Ins::exit);
      if (pick(2)) {
        e.guard = 1 + pick(kUniformPredicates);
        e.guard_negated = pick(2);
      }
      return emit(e);
    }
    const int p = condition();
    const int k = pick(12);
    Ins i = k <= 1   ? op(Ins::exit)
            : k <= 3 ? op(Ins::mov_const, out(), 0, 0, pick(5))
            : k <= 5 ? op(Ins::add, out(), reg(), reg())
            : k <= 7 ? op(Ins::mul_const, out(), reg(), 0, multiplier())
            : k <= 9 ? op(Ins::load_data, out(), address())
                     : op(pick(3) == 0 ? Ins::load_shared : Ins::load, 0, address());
    i.guard = p;
    i.guard_negated = pick(2);
    emit(i);
  }
  // A predicate register for a branch, guard or selp, returned: one the
  // same in every lane but unknown, a new comparison (on the thread index,
  // known per lane, or on any register), or the and.pred of a comparison
  // and a second comparison or a uniform predicate (a superset of lanes).
  int condition() {
    if (pick(10) == 0) return 1 + pick(kUniformPredicates);
    static const char* kCmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    int a = pick(2) ? 0 : reg();
    if (pick(4) == 0) {  // on data loaded just before
      a = out();
      emit(op(Ins::load_data, a, address()));
    }
    Ins i = op(Ins::setp, 0, a, 0, pick(34) - 1, kCmp[pick(6)]);
    i.unsigned_cmp = pick(4) == 0;
    i.p = ++predicates;
    emit(i);
    if (pick(4) != 0) return i.p;
    int second = 1 + pick(kUniformPredicates);
    if (pick(2)) {
      Ins j = op(Ins::setp, 0, reg(), 0, pick(34) - 1, kCmp[pick(6)]);
      j.p = ++predicates;
      emit(j);
      second = j.p;
    }
    Ins both = op(Ins::and_pred, 0, i.p, second);
    both.p = ++predicates;
    emit(both);
    return both.p;
  }
  // max / min with a register or a constant; selp on a condition.
  void clamp() {
    const int kind = pick(3);
    if (kind == 2) {
      const int p = condition();
      Ins s = op(Ins::selp, out(), reg(), reg());
      s.p = p;
      return emit(s);
    }
    emit(op(kind == 0 ? Ins::max : Ins::min, out(), reg(), pick(2) ? reg() : -1, pick(40)));
  }
  void conditional(int depth) {
    const int p = condition();
    const bool has_else = pick(2);
    const std::size_t branch = code.size();
    Ins b = op(Ins::bra);
    b.p = p;
    b.negate = pick(2);
    emit(b);
    block_start(false);
    body(depth, 1 + pick(3));
    // Sometimes a conditional jump straight to the join point: when every
    // lane of this path takes it, the stack switches to the other path.
    std::size_t early = 0;
    if (pick(3) == 0) {
      const int q = condition();
      early = code.size();
      Ins e = op(Ins::bra);
      e.p = q;
      emit(e);
      block_start(false);
    }
    std::size_t jump = 0;
    if (has_else) {
      jump = code.size();
      emit(op(Ins::jmp));
      block_start(true);
      code[branch].target = static_cast<int>(code.size());
      body(depth, 1 + pick(3));
    }
    block_start(true);  // END
    const int end = static_cast<int>(code.size());
    code[has_else ? jump : branch].target = end;
    if (early != 0) code[early].target = end;
  }
  // A conditional jump past the end of the innermost loop.
  void leave_loop() {
    const int p = condition();
    Ins b = op(Ins::bra);
    b.p = p;
    b.negate = pick(2);
    breaks.back().push_back(code.size());
    emit(b);
    block_start(false);
  }
  // A do-while loop. Its trip count is the same for every lane, differs
  // with the thread index (counter + tid < k), or with loaded data (counter
  // + a value loaded before the loop < k, up to 40 trips): lanes leave at
  // different iterations and wait after the loop, its join point, which no
  // label marks unless a break jumps there.
  void loop(int depth) {
    const int counter = 5 + depth;  // nested loops count with their own register
    const bool on_data = pick(3) == 0;
    if (on_data) emit(op(Ins::load_data, kLoopBound + depth, address()));
    emit(op(Ins::mov_const, counter, 0, 0, 0));
    block_start(true);  // LOOP
    const int head = static_cast<int>(code.size());
    breaks.emplace_back();
    body(depth, 1 + pick(3));
    emit(op(Ins::add_const, counter, counter, 0, 1));
    int tested = counter;
    if (on_data) {
      tested = out();
      emit(op(Ins::add, tested, counter, kLoopBound + depth));
    } else if (pick(3) == 0) {
      tested = out();
      emit(op(Ins::add, tested, counter, 0));
    }
    // Up to 40 trips at depth 0, 8 inside: nested loops stay short to run.
    const std::int64_t bound = 1 + (on_data ? pick(depth == 0 ? 40 : 8) : pick(3));
    Ins test = op(Ins::setp, 0, tested, 0, bound, "lt");
    test.p = ++predicates;
    emit(test);
    Ins back = op(Ins::bra);
    back.p = test.p;
    back.target = head;
    emit(back);
    const std::vector<std::size_t> exits = breaks.back();
    breaks.pop_back();
    block_start(!exits.empty());
    for (std::size_t k : exits) code[k].target = static_cast<int>(code.size());
  }
};

// A kernel: tid.x into %r0, every other early register written by every
// lane (the analysis assumes no lane reads a register it never wrote,
// docs/trace-formats.md), the uniform predicates, sometimes tid.x x 128 in
// one register, then six random statements.
inline Program random_kernel(std::mt19937_64& rng) {
  Program p(rng);
  p.emit(op(Ins::mov_tid));
  for (int k = 1; k < kFirstLate; ++k) p.emit(op(Ins::mov_const, k, 0, 0, p.pick(4)));
  for (int u = 1; u <= kUniformPredicates; ++u) p.emit(op(Ins::load_float_param, 0, 0, 0, u));
  for (int u = 1; u <= kUniformPredicates; ++u) {
    Ins s = op(Ins::setp_float, 0, 0, 0, u);
    s.p = u;
    p.emit(s);
  }
  if (p.pick(4) != 0) {
    p.scaled = 1 + p.pick(4);
    p.emit(op(Ins::mul_const, p.scaled, 0, 0, 128));
  }
  for (int k = 0; k < 6; ++k) p.statement(0);
  return p;
}

inline std::string r(int k) { return "%r" + std::to_string(k); }
inline std::string pr(int k) { return "%p" + std::to_string(k); }
inline std::string guard_text(int p, bool negated) { return (negated ? "@!" : "@") + pr(p); }

// The instruction as the trace and the PTX file write it: opcode, guard
// (empty when none) and operands.
struct PtxInstruction {
  std::string opcode, guard;
  std::vector<std::string> operands;
};

inline PtxInstruction ptx_of(const Ins& in) {
  const std::string g = in.guard == 0 ? std::string() : guard_text(in.guard, in.guard_negated);
  const std::string d = r(in.dst), a = r(in.a), b = r(in.b), c = std::to_string(in.c);
  switch (in.kind) {
    case Ins::mov_tid: return {"mov.u32", "", {"%r0", "%tid.x"}};
    case Ins::mov_tid_y: return {"mov.u32", "", {d, "%tid.y"}};
    case Ins::mov_const: return {"mov.u32", g, {d, c}};
    case Ins::load_param: return {"ld.param.u32", "", {d, "[k_param_" + c + "]"}};
    case Ins::load_float_param: return {"ld.param.f32", "", {"%f" + c, "[k_fparam_" + c + "]"}};
    case Ins::setp_float: return {"setp.ne.f32", "", {pr(in.p), "%f" + c, "0f00000000"}};
    case Ins::add: return {"add.s32", g, {d, a, b}};
    case Ins::add_const: return {"add.s32", "", {d, a, c}};
    case Ins::mul_const: return {"mul.lo.s32", g, {d, a, c}};
    case Ins::max: return {"max.s32", "", {d, a, in.b < 0 ? c : b}};
    case Ins::min: return {"min.s32", "", {d, a, in.b < 0 ? c : b}};
    case Ins::selp: return {"selp.b32", "", {d, a, b, pr(in.p)}};
    case Ins::load_data: return {"ld.global.u8", g, {d, "[" + a + "]"}};
    case Ins::load: return {"ld.global.u8", g, {"%r99", "[" + a + "]"}};
    case Ins::load_shared: return {"ld.shared.u8", g, {"%r99", "[" + a + "]"}};
    case Ins::setp:
      return {"setp." + in.cmp + (in.unsigned_cmp ? ".u32" : ".s32"), "", {pr(in.p), a, c}};
    case Ins::and_pred: return {"and.pred", "", {pr(in.p), pr(in.a), pr(in.b)}};
    case Ins::bra: return {"bra", guard_text(in.p, in.negate), {"L" + std::to_string(in.target)}};
    case Ins::jmp: return {"bra.uni", "", {"L" + std::to_string(in.target)}};
    case Ins::exit: return {"exit", g, {}};
    case Ins::bar: return {"bar.sync", "", {"0"}};
  }
  return {};
}

// The kernel as a PTX file: each instruction on its source line, a label
// on the line before each branch target, and a final ret.
inline std::string ptx_text(const Program& p) {
  std::vector<std::string> lines(p.line + 2);
  lines[1] = ".visible .entry k(";
  lines[2] = ")";
  lines[3] = "{";
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    const Ins& in = p.code[i];
    const PtxInstruction w = ptx_of(in);
    lines[in.line] = fmt::format("{}{}{}{};", w.guard.empty() ? "" : w.guard + " ", w.opcode,
                                 w.operands.empty() ? "" : " ", fmt::join(w.operands, ", "));
    if (in.kind == Ins::bra || in.kind == Ins::jmp) {
      const std::size_t t = static_cast<std::size_t>(in.target);
      lines[(t < p.code.size() ? p.code[t].line : p.line) - 1] = "L" + std::to_string(in.target) + ":";
    }
  }
  lines[p.line] = "ret;";
  lines[p.line + 1] = "}";
  std::string out;
  for (std::size_t k = 1; k < lines.size(); ++k) out += lines[k] + "\n";
  return out;
}

}  // namespace gpuwcet::tools::random_kernels
