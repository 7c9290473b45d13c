// Split warps in a PTX trace (lane_values.hpp, docs/trace-formats.md "Split
// warps"): which lanes run an instruction, predicates known per thread, and
// the per-thread mix a write leaves when only some lanes make it.
#include <algorithm>
#include <cstddef>

#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/opcode_classes.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

namespace {

bool compare(std::string_view op, std::int64_t a, std::int64_t b, bool& ok) {
  ok = true;
  if (op == "eq") return a == b;
  if (op == "ne") return a != b;
  if (op == "lt") return a < b;
  if (op == "le") return a <= b;
  if (op == "gt") return a > b;
  if (op == "ge") return a >= b;
  // Unsigned comparisons of values that may be negative would wrap.
  ok = a >= 0 && b >= 0;
  if (op == "lo") return a < b;
  if (op == "ls") return a <= b;
  if (op == "hi") return a > b;
  if (op == "hs") return a >= b;
  ok = false;
  return false;
}

// Whether every warp of the block runs `fall_through` whole or not at all.
bool no_warp_splits(const std::vector<bool>& fall_through) {
  for (std::size_t first = 0; first < fall_through.size(); first += kWarpLanes) {
    const std::size_t end = std::min(fall_through.size(), first + kWarpLanes);
    for (std::size_t t = first + 1; t < end; ++t) {
      if (fall_through[t] != fall_through[first]) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::vector<std::int64_t>> LaneValueAnalysis::per_thread(const LaneValue& v) const {
  if (!shape_.known() || !v.known_everywhere()) return std::nullopt;
  const std::uint64_t threads = std::uint64_t{shape_.x} * shape_.y * shape_.z;
  std::vector<std::int64_t> out(threads);
  for (std::uint64_t t = 0; t < threads; ++t) {
    const std::int64_t x = static_cast<std::int64_t>(t % shape_.x);
    const std::int64_t y = static_cast<std::int64_t>((t / shape_.x) % shape_.y);
    const std::int64_t z = static_cast<std::int64_t>(t / (std::uint64_t{shape_.x} * shape_.y));
    std::int64_t value = v.base;
    for (const auto& [a, i] : {std::pair{v.tid[0].value, x}, std::pair{v.tid[1].value, y},
                               std::pair{v.tid[2].value, z}}) {
      std::int64_t term = 0;
      if (__builtin_mul_overflow(a, i, &term) || __builtin_add_overflow(value, term, &value)) {
        return std::nullopt;
      }
    }
    out[t] = value;
  }
  return out;
}

std::optional<std::vector<bool>> LaneValueAnalysis::holds(const LanePredicate& p,
                                                          bool negate) const {
  if (!shape_.known()) return std::nullopt;
  // The negation of an AND with terms the same in every lane but unknown
  // is all lanes or the negated comparisons: not known per thread.
  if (negate && p.uniform_terms) return std::nullopt;
  std::vector<bool> out(std::uint64_t{shape_.x} * shape_.y * shape_.z, true);
  for (const Comparison& c : p.all_of) {
    const auto a = per_thread(c.a);
    const auto b = per_thread(c.b);
    if (!a || !b) return std::nullopt;
    for (std::size_t t = 0; t < out.size(); ++t) {
      bool ok = false;
      const bool r = compare(c.op, (*a)[t], (*b)[t], ok);
      if (!ok) return std::nullopt;
      out[t] = out[t] && r;
    }
  }
  if (negate) out.flip();
  return out;
}

LaneValue LaneValueAnalysis::mix(const LaneValue& written, const LaneValue& kept) const {
  const auto w = per_thread(written);
  const auto k = per_thread(kept);
  if (!w || !k || mask_.size() != w->size()) return LaneValue::unknown();
  bool as_written = true;
  bool as_kept = true;
  for (std::size_t t = 0; t < w->size(); ++t) {
    const std::int64_t now = mask_[t] ? (*w)[t] : (*k)[t];
    as_written = as_written && now == (*w)[t];
    as_kept = as_kept && now == (*k)[t];
  }
  if (as_written) return written;
  if (as_kept) return kept;
  return LaneValue::unknown();
}

LaneValueAnalysis::LaneValueAnalysis(BlockShape shape) : shape_(shape) {
  if (shape_.known()) mask_.assign(std::uint64_t{shape_.x} * shape_.y * shape_.z, true);
}

void LaneValueAnalysis::lanes_may_join() {
  // Lanes parked at this point may join, or the stack switched to a split
  // warp's other path: any thread may run, which ones is unknown.
  ++epoch_;
  lanes_ = Lanes::unknown;
  if (!mask_full_) {
    mask_.assign(mask_.size(), true);
    mask_full_ = true;
  }
}

// `witnessed`: the instruction reads a register first written in this epoch,
// after the last split (reads_fresh_register). Its lanes then all wrote it,
// so no lanes joined them and no other path's lanes replaced them (those
// never wrote it, and no lane reads a register it never wrote): whatever
// label or jump lies between, the lanes are those of the last instruction.
void LaneValueAnalysis::enter(const TraceLocation& at, bool witnessed) {
  const bool follows = started_ && at.line != 0 && last_line_ != 0 &&
                       at.pc == last_pc_ + kPtxInstructionBytes && at.line == last_line_ + 1 &&
                       at.file == last_file_;
  if (branch_) {
    // The fall-through of a branch may sit one source line further (the
    // blank line that opens a basic block in GPGPU-Sim's PTX); a label
    // takes a line of its own besides, so none sits between them (a branch
    // to the very next instruction is not taken for one).
    const bool falls_through = started_ && at.line != 0 && last_line_ != 0 &&
                               at.pc == branch_->pc + kPtxInstructionBytes &&
                               at.line > last_line_ && at.line <= last_line_ + 2 &&
                               at.file == last_file_;
    if (falls_through) {
      // The fall-through runs first (or alone): fewer lanes, none joining,
      // unless the branch is a loop's and split the warp before: the lanes
      // that left then wait at its fall-through, the loop's join point (no
      // label marks it), and join now.
      if (branch_->splits) {
        ++run_;
        ++splits_;
        if (branch_->fall_through) {
          mask_ = std::move(*branch_->fall_through);
          mask_full_ = false;
          lanes_ = branch_->exact ? Lanes::known : Lanes::unknown;
        } else {
          lanes_ = Lanes::unknown;
        }
      }
      if (branch_->split_before && !witnessed) {
        ++run_;
        lanes_may_join();
      }
    } else if (branch_->splits) {
      // Taken: the lanes that take it run first, or, when a jump reaches
      // the join point of a split warp, the other path's lanes or the
      // joined warp.
      ++run_;
      ++splits_;
      if (witnessed) {
        lanes_ = Lanes::unknown;  // the taking lanes, fewer
      } else {
        lanes_may_join();
      }
    } else {
      ++run_;
      if (lanes_ != Lanes::all && !witnessed) {
        ++splits_;
        lanes_may_join();
      }
    }
    branch_.reset();
  } else if (!follows) {
    // A label may lie between: lanes parked there may join. After a jump
    // that no branch made, the stack of a split warp switched paths: other
    // lanes run now.
    ++run_;
    if (lanes_ != Lanes::all && !witnessed) {
      if (!started_ || at.pc != last_pc_ + kPtxInstructionBytes || at.file != last_file_) ++splits_;
      lanes_may_join();
    }
  }
  remember(at);
}

void LaneValueAnalysis::remember(const TraceLocation& at) {
  started_ = true;
  last_pc_ = at.pc;
  last_line_ = at.line;
  if (last_file_ != at.file) last_file_.assign(at.file.data(), at.file.size());
  pc_ = at.pc;
}

bool LaneValueAnalysis::reads_fresh_register(std::string_view opcode, std::string_view guard,
                                             const std::vector<std::string_view>& ops) const {
  // Registers every running lane reads: the guard, and every operand but
  // the destination (names inside brackets and braces too).
  auto fresh = [&](std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '%') continue;
      std::size_t end = i + 1;
      while (end < text.size() && detail::ptx_ident_char(text[end])) ++end;
      const auto it = regs_.find(std::string(text.substr(i, end - i)));
      if (it != regs_.end() && it->second.first_epoch == epoch_ &&
          it->second.first_split == splits_) {
        return true;
      }
      i = end;
    }
    return false;
  };
  if (!guard.empty() && fresh(guard)) return true;
  if (!guard.empty()) return false;  // other operands: only the lanes the guard lets through
  const bool has_dst = !ptx_writes_nothing(opcode) && !ops.empty() &&
                       !detail::starts_with(detail::trim(ops[0]), "[");
  for (std::size_t k = has_dst ? 1 : 0; k < ops.size(); ++k) {
    if (fresh(ops[k])) return true;
  }
  return false;
}

void LaneValueAnalysis::branch(std::string_view base, std::string_view guard,
                               const std::vector<std::string_view>& ops) {
  Branch b;
  b.pc = pc_;
  b.always = guard.empty();
  const bool uniform_guard = guard.empty() || operand(guard).is_uniform();
  const bool uniform_target = base == "bra" || (!ops.empty() && operand(ops[0]).is_uniform());
  b.splits = !uniform_guard || !uniform_target;
  b.split_before = split_branches_.count(pc_) != 0;
  if (b.splits) split_branches_.insert(pc_);
  if (b.splits && base == "bra") {
    // The lanes that fall through: where the guard is false (@%p) or true
    // (@!%p). When they fall through, the guard's terms the same in every
    // lane are true (@!%p) or cannot be told apart (@%p). The predicate
    // holds in the lanes that computed it: every lane, or all those running
    // now when no lanes may have joined since.
    b.fall_through = where_guard(guard, false, b.predicate_exact);
    if (b.fall_through && no_warp_splits(*b.fall_through)) {
      b.splits = false;
      b.fall_through.reset();
    } else if (b.fall_through) {
      for (std::size_t t = 0; t < b.fall_through->size(); ++t) {
        (*b.fall_through)[t] = (*b.fall_through)[t] && mask_[t];
      }
      b.exact = lanes_ != Lanes::unknown && b.predicate_exact;
    }
  }
  branch_ = std::move(b);
}

std::optional<std::vector<bool>> LaneValueAnalysis::where_guard(std::string_view guard, bool value,
                                                                bool& exact) const {
  exact = false;
  const bool negated = detail::starts_with(guard, "!");
  const auto it = predicates_.find(std::string(negated ? guard.substr(1) : guard));
  if (it == predicates_.end() || !it->second.valid(epoch_)) return std::nullopt;
  // Terms the same in every lane are taken as true (holds()): the threads
  // are then a superset of those where the guard is `value`, not exact.
  exact = !it->second.uniform_terms;
  return holds(it->second, value == negated);
}

void LaneValueAnalysis::record_predicate(std::string_view base, std::string_view opcode,
                                         const std::vector<std::string_view>& ops) {
  if (ops.empty()) return;
  std::string_view dst = detail::trim(ops[0]);
  const std::size_t bar = dst.find('|');
  if (bar != std::string_view::npos) {  // "%p|%q": %q is the negation, not kept
    predicates_.erase(std::string(detail::trim(dst.substr(bar + 1))));
    dst = detail::trim(dst.substr(0, bar));
  }
  const std::string name(dst);
  predicates_.erase(name);
  if (ops.size() < 3) return;
  const auto reg = regs_.find(name);
  const bool every_lane = lanes_ == Lanes::all || (reg != regs_.end() && reg->second.written_once);
  if (base == "setp") {
    static constexpr std::string_view kOps[] = {"eq", "ne", "lt", "le", "gt", "ge",
                                                "lo", "ls", "hi", "hs"};
    if (opcode.size() <= 5) return;
    std::string_view op = opcode.substr(5, opcode.find('.', 5) - 5);
    // On unsigned and bit types lt, le, gt, ge compare unsigned, like lo, ls,
    // hi, hs (a negative difference is a large number: `(unsigned)(tid - 16)
    // < 8` holds for tid 16 to 23 only).
    const bool unsigned_type = has_component(opcode, "u8") || has_component(opcode, "u16") ||
                               has_component(opcode, "u32") || has_component(opcode, "u64") ||
                               has_component(opcode, "b16") || has_component(opcode, "b32") ||
                               has_component(opcode, "b64");
    if (unsigned_type) {
      if (op == "lt") op = "lo";
      if (op == "le") op = "ls";
      if (op == "gt") op = "hi";
      if (op == "ge") op = "hs";
    }
    const bool integer = !has_component(opcode, "f32") && !has_component(opcode, "f64") &&
                         !has_component(opcode, "f16");
    for (std::string_view k : kOps) {
      if (op == k && integer && ops.size() == 3) {
        predicates_[name] = LanePredicate{{Comparison{std::string(op), operand(ops[1]), operand(ops[2])}},
                                          false, every_lane, epoch_};
        return;
      }
    }
    return;
  }
  if (base == "and" && has_component(opcode, "pred")) {
    LanePredicate r;
    r.every_lane = every_lane;
    r.epoch = epoch_;
    for (std::size_t k = 1; k < 3; ++k) {
      const std::string_view src = detail::trim(ops[k]);
      if (const auto it = predicates_.find(std::string(src));
          it != predicates_.end() && it->second.valid(epoch_)) {
        // Each term once, and at most kMaxPredicateTerms of them: `and.pred
        // %p2, %p1, %p1; and.pred %p1, %p2, %p2; ...` would otherwise double
        // the list on every line (gigabytes after 30 lines). A longer AND is
        // left unknown, as when a source is unknown.
        for (const Comparison& c : it->second.all_of) {
          if (std::find(r.all_of.begin(), r.all_of.end(), c) != r.all_of.end()) continue;
          if (r.all_of.size() == kMaxPredicateTerms) return;
          r.all_of.push_back(c);
        }
        r.uniform_terms = r.uniform_terms || it->second.uniform_terms;
      } else if (operand(src).is_uniform()) {
        r.uniform_terms = true;
      } else {
        return;
      }
    }
    predicates_[name] = std::move(r);
  }
}

}  // namespace gpuwcet::tools
