// Split warps with the kernel's PTX file (lane_values.hpp, follow()):
// GPGPU-Sim's reconvergence stack (simt_stack::update in its
// abstract_hardware_model.cc), run over the join points of
// ptx_control_flow.hpp, with the lanes of every entry known per thread or
// bounded by a superset, and every stack a split not known per thread may
// have left kept until the trace rules it out.
#include <algorithm>

#include <fmt/format.h>

#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

namespace {

bool any(const std::vector<bool>& mask) { return std::find(mask.begin(), mask.end(), true) != mask.end(); }

// Whether lanes flagged by a superset may be there: an empty mask (launch
// shape unknown) flags nothing but rules nothing out.
bool may_hold(const std::vector<bool>& mask) { return mask.empty() || any(mask); }

std::vector<bool> both(const std::vector<bool>& a, const std::vector<bool>& b) {
  std::vector<bool> out(a.size(), false);
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) out[k] = a[k] && b[k];
  return out;
}

std::vector<bool> but(const std::vector<bool>& a, const std::vector<bool>& b) {
  std::vector<bool> out = a;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) out[k] = a[k] && !b[k];
  return out;
}

bool full(const std::vector<bool>& mask) { return std::find(mask.begin(), mask.end(), false) == mask.end(); }

constexpr std::string_view kBlanks = " \t\r";

// An instruction's text as compared with another's: comments and blanks
// (spaces, tabs) left out. GPGPU-Sim prints a traced line without its tabs
// and with its comments; the file's text keeps its tabs and drops them.
std::string comparable(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) break;
    if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      i = end + 1;
      continue;
    }
    if (!detail::is_one_of(text[i], kBlanks)) out.push_back(text[i]);
  }
  return out;
}

// The text with each run of blanks as one space, for messages.
std::string shown(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (!detail::is_one_of(c, kBlanks)) {
      out.push_back(c);
    } else if (!out.empty() && out.back() != ' ') {
      out.push_back(' ');
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The traced warp is one warp of the block, whose threads the masks flag.
// When the running lanes of some warps go one way (`a`) and of others the
// other way (`b`) or both, each kind is a stack of its own: the threads of
// the warps of each kind (empty when none).
struct WarpKinds {
  std::vector<bool> only_a, only_b, both;
  int kinds() const { return any(only_a) + any(only_b) + any(both); }
};

WarpKinds by_warp(const std::vector<bool>& running, const std::vector<bool>& a,
                  const std::vector<bool>& b) {
  WarpKinds k{std::vector<bool>(running.size(), false), std::vector<bool>(running.size(), false),
              std::vector<bool>(running.size(), false)};
  for (std::size_t first = 0; first < running.size(); first += kWarpLanes) {
    const std::size_t end = std::min(running.size(), first + kWarpLanes);
    bool in_a = false, in_b = false;
    for (std::size_t t = first; t < end; ++t) {
      in_a = in_a || (running[t] && a[t]);
      in_b = in_b || (running[t] && b[t]);
    }
    std::vector<bool>* kind = in_a && in_b ? &k.both : in_a ? &k.only_a : in_b ? &k.only_b : nullptr;
    if (kind != nullptr) std::fill(kind->begin() + static_cast<std::ptrdiff_t>(first),
                                   kind->begin() + static_cast<std::ptrdiff_t>(end), true);
  }
  return k;
}

}  // namespace

// `stack` for a traced warp among those `warps` flags: every entry keeps
// only their threads (the whole warp becomes those warps' threads, known).
std::vector<LaneValueAnalysis::StackEntry> LaneValueAnalysis::among(std::vector<StackEntry> stack,
                                                                    const std::vector<bool>& warps) const {
  for (StackEntry& e : stack) {
    e.mask = both(threads_of(e), warps);
    if (e.lanes == Lanes::all) e.lanes = Lanes::known;
    e.mask_full = full(e.mask);
  }
  return stack;
}

std::vector<bool> LaneValueAnalysis::threads_of(const StackEntry& e) const {
  if (e.lanes != Lanes::all) return e.mask;
  const std::uint64_t threads = shape_.known() ? std::uint64_t{shape_.x} * shape_.y * shape_.z : 0;
  return std::vector<bool>(threads, true);
}

// Lanes that all go to `next`: at the top entry's join point they wait for
// the lanes below, and the entry pops; otherwise the entry moves on.
void LaneValueAnalysis::single_path(Transition& t, std::uint32_t next) const {
  StackEntry& top = t.stack.back();
  if (next != FlowInstruction::kNone && next == top.reconverge) {
    t.stack.pop_back();
    t.popped = true;
  } else {
    top.pc = next;
  }
}

// A split: both groups hold lanes. The `lower` group is written into the
// stack first and runs after the `upper` one. A group at the join point of
// the entry it leaves waits there; otherwise the entry waits at the branch's
// join point `join` with all its lanes (unless that is the same point), and
// each group not already there runs in an entry of its own, with `lanes`
// saying whether its mask is exact or a superset.
void LaneValueAnalysis::split_paths(Transition& t, Lanes lanes, std::uint32_t lower_pc,
                                    const std::vector<bool>& lower, std::uint32_t upper_pc,
                                    const std::vector<bool>& upper, std::uint32_t join) const {
  std::vector<StackEntry>& s = t.stack;
  const std::size_t depth = s.size();
  const std::uint32_t outer = s.back().reconverge;
  bool diverged = false;
  for (const auto& [pc, mask] : {std::pair{lower_pc, &lower}, std::pair{upper_pc, &upper}}) {
    if (pc == outer) continue;
    if (!diverged) {
      diverged = true;
      if (join != outer) {
        s.back().pc = join;
        s.emplace_back();
      }
    }
    if (pc == join) continue;
    StackEntry& e = s.back();
    e.pc = pc;
    e.reconverge = join;
    e.lanes = lanes;
    e.mask = *mask;
    e.mask_full = full(*mask);
    e.may_be_empty = false;  // a split: both groups hold lanes
    s.emplace_back();
  }
  s.pop_back();
  // Both groups at the top entry's join point: it pops, lanes below run.
  t.popped = s.size() < depth;
  t.split = !t.popped;
}

// Every running lane leaves: its entry pops, and its lanes leave the
// entries below. When they are not known per thread, each entry below may
// have lost any of the lanes flagged, and may hold none.
void LaneValueAnalysis::exit_lanes(Transition& t) const {
  const StackEntry leaving = t.stack.back();
  t.stack.pop_back();
  t.popped = true;
  if (leaving.lanes == Lanes::all) {  // the whole warp
    t.stack.clear();
    return;
  }
  leave(t.stack, threads_of(leaving), leaving.lanes == Lanes::known);
}

// Lanes that exit leave every entry: exactly those of `gone`, or some of
// them (not `exact`), in which case each entry may have lost any of them
// (lanes it held outside `gone` are still there).
void LaneValueAnalysis::leave(std::vector<StackEntry>& stack, const std::vector<bool>& gone,
                              bool exact) const {
  for (StackEntry& e : stack) {
    const std::vector<bool> had = threads_of(e);
    if (exact) {
      e.mask = but(had, gone);
      e.lanes = e.lanes == Lanes::unknown ? Lanes::unknown : Lanes::known;
      e.may_be_empty = e.lanes == Lanes::unknown;
    } else {
      e.mask = had;
      e.may_be_empty = e.may_be_empty || e.lanes == Lanes::unknown || !any(but(had, gone));
      e.lanes = Lanes::unknown;
    }
    e.mask_full = full(e.mask);
  }
}

// Some running lanes leave (`leaving`), the others go on to the next
// instruction (`staying`): the leaving ones leave every entry. Not `exact`:
// both are supersets, and each entry below may have lost any lanes.
void LaneValueAnalysis::exit_some(Transition t, const std::vector<bool>& leaving,
                                  const std::vector<bool>& staying, bool exact,
                                  std::vector<Transition>& out) const {
  const std::uint32_t next = flow_->next(flow_at_);
  leave(t.stack, leaving, exact);
  StackEntry& top = t.stack.back();
  top.mask = staying;
  top.lanes = exact ? Lanes::known : Lanes::unknown;
  top.mask_full = full(staying);
  top.may_be_empty = false;  // some lanes stay
  t.split = true;            // fewer lanes
  single_path(t, next);
  settle(std::move(t), out);
}

// `t` with its empty top entries popped: an entry that may hold no lane
// gives one stack where it runs and one where it pops.
void LaneValueAnalysis::settle(Transition t, std::vector<Transition>& out) const {
  while (!t.stack.empty()) {
    StackEntry& top = t.stack.back();
    const bool empty = top.lanes != Lanes::all && !top.mask.empty() && !any(top.mask);
    const bool known_empty = empty || (top.lanes == Lanes::known && top.mask.empty());
    if (!known_empty && !top.may_be_empty) break;
    if (!known_empty) {
      Transition runs = t;
      runs.stack.back().may_be_empty = false;
      out.push_back(std::move(runs));
    }
    t.stack.pop_back();
    t.popped = true;
  }
  out.push_back(std::move(t));
}

void LaneValueAnalysis::single_from(const std::vector<StackEntry>& stack, std::uint32_t to,
                                    std::vector<Transition>& out) const {
  Transition t{stack};
  single_path(t, to);
  settle(std::move(t), out);
}

void LaneValueAnalysis::split_from(const std::vector<StackEntry>& stack, Lanes lanes,
                                   std::uint32_t lower_pc, const std::vector<bool>& lower,
                                   std::uint32_t upper_pc, const std::vector<bool>& upper,
                                   std::vector<Transition>& out) const {
  const FlowInstruction& prev = flow_->at(flow_at_);
  const std::uint32_t join = prev.reconverge == FlowInstruction::kNone ? kAtExit : prev.reconverge;
  Transition t{stack};
  split_paths(t, lanes, lower_pc, lower, upper_pc, upper, join);
  settle(std::move(t), out);
}

// `stack` if every running lane of its top entry goes the way whose lanes
// `way` bounds, or nothing when they cannot: the lanes of an inexact entry
// are then among `way`; for an exact one, the traced warp is one whose
// running lanes all lie in `way` (when only some warps qualify, the stack
// keeps only their threads).
std::optional<std::vector<LaneValueAnalysis::StackEntry>> LaneValueAnalysis::all_one_way(
    std::vector<StackEntry> stack, const std::vector<bool>& way) const {
  StackEntry& top = stack.back();
  if (top.lanes == Lanes::unknown) {
    if (!may_hold(way)) return std::nullopt;
    if (!way.empty()) {
      top.mask = both(top.mask, way);
      top.mask_full = full(top.mask);
    }
    return stack;
  }
  const std::vector<bool> running = threads_of(top);
  if (running.empty()) return stack;  // launch shape unknown
  std::vector<bool> warps(running.size(), false);
  bool some = false, all = true;
  for (std::size_t first = 0; first < running.size(); first += kWarpLanes) {
    const std::size_t end = std::min(running.size(), first + kWarpLanes);
    bool runs = false, inside = true;
    for (std::size_t t = first; t < end; ++t) {
      runs = runs || running[t];
      inside = inside && (!running[t] || (t < way.size() && way[t]));
    }
    if (!runs) continue;
    if (!inside) {
      all = false;
      continue;
    }
    some = true;
    std::fill(warps.begin() + static_cast<std::ptrdiff_t>(first),
              warps.begin() + static_cast<std::ptrdiff_t>(end), true);
  }
  if (!some) return std::nullopt;
  return all ? stack : among(std::move(stack), warps);
}

// What the previous instruction may have done to `stack`; the trace's next
// line says which. False when it cannot tell (`why`).
bool LaneValueAnalysis::transitions(const std::vector<StackEntry>& stack, std::vector<Transition>& out,
                                    std::string& why) const {
  using K = FlowInstruction::Kind;
  const FlowInstruction& prev = flow_->at(flow_at_);
  const std::uint32_t next = flow_->next(flow_at_);
  auto single = [&](std::uint32_t to) { single_from(stack, to, out); };
  auto split = [&](Lanes lanes, std::uint32_t lower_pc, const std::vector<bool>& lower,
                   std::uint32_t upper_pc, const std::vector<bool>& upper) {
    split_from(stack, lanes, lower_pc, lower, upper_pc, upper, out);
  };
  switch (prev.kind) {
    case K::call:
      why = "a call";
      return false;
    case K::indirect:
      why = "an indirect branch";
      return false;
    case K::exit: {
      auto all_leave = [&](const std::vector<StackEntry>& from) {
        Transition t{from};
        exit_lanes(t);
        settle(std::move(t), out);
      };
      if (!prev.guarded || exit_guard_.uniform) {
        if (prev.guarded) single(next);  // no lane leaves
        all_leave(stack);
        return true;
      }
      // The lanes where the guard holds leave.
      const StackEntry& top = stack.back();
      const std::vector<bool> running = threads_of(top);
      const auto& guard = exit_guard_.leaving;
      const bool exact_guard = guard && exit_guard_.exact;
      const std::vector<bool> leaving = guard ? both(*guard, running) : running;
      const std::vector<bool> staying = exact_guard ? but(running, *guard) : running;
      if (exact_guard && top.lanes != Lanes::unknown) {
        const WarpKinds k = by_warp(running, leaving, staying);
        const bool one = k.kinds() == 1;
        if (any(k.only_b)) single_from(one ? stack : among(stack, k.only_b), next, out);
        if (any(k.only_a)) all_leave(one ? stack : among(stack, k.only_a));
        if (any(k.both)) {
          const auto from = one ? stack : among(stack, k.both);
          exit_some(Transition{from}, both(leaving, k.both), both(staying, k.both), true, out);
        }
        return true;
      }
      if (const auto s = all_one_way(stack, staying)) single_from(*s, next, out);
      if (const auto s = all_one_way(stack, leaving)) all_leave(*s);
      if (may_hold(leaving) && may_hold(staying)) exit_some(Transition{stack}, leaving, staying, false, out);
      return true;
    }
    case K::branch:
      break;
    default:
      single(next);
      return true;
  }
  if (!prev.guarded || !branch_ || prev.target == next) {  // one way for every lane
    single(prev.target);
    return true;
  }
  const Branch& b = *branch_;
  if (!b.splits) {  // the same way in every lane
    single(prev.target);
    single(next);
    return true;
  }
  const StackEntry& top = stack.back();
  const std::vector<bool> running = threads_of(top);
  if (b.fall_through && b.predicate_exact && top.lanes != Lanes::unknown) {
    const std::vector<bool> fall = both(*b.fall_through, running);
    const std::vector<bool> taken = but(running, *b.fall_through);
    const WarpKinds k = by_warp(running, taken, fall);
    const bool one = k.kinds() == 1;
    if (any(k.only_a)) single_from(one ? stack : among(stack, k.only_a), prev.target, out);
    if (any(k.only_b)) single_from(one ? stack : among(stack, k.only_b), next, out);
    if (any(k.both)) {
      // GPGPU-Sim writes the fall-through group first, so the taken one
      // runs first; the trace says which order ran.
      const auto from = one ? stack : among(stack, k.both);
      const auto f = both(fall, k.both), t = both(taken, k.both);
      split_from(from, Lanes::known, next, f, prev.target, t, out);
      split_from(from, Lanes::known, prev.target, t, next, f, out);
    }
    return true;
  }
  // Lanes not known per thread: every lane one way, every lane the other,
  // or a split in either order, each group within its superset.
  const std::vector<bool> fall = b.fall_through ? both(*b.fall_through, running) : running;
  const std::vector<bool> taken =
      b.fall_through && b.predicate_exact ? but(running, *b.fall_through) : running;
  if (const auto s = all_one_way(stack, taken)) single_from(*s, prev.target, out);
  if (const auto s = all_one_way(stack, fall)) single_from(*s, next, out);
  if (may_hold(taken) && may_hold(fall)) {
    split(Lanes::unknown, next, fall, prev.target, taken);
    split(Lanes::unknown, prev.target, taken, next, fall);
  }
  return true;
}

bool LaneValueAnalysis::flow_step(std::uint32_t here, std::string& why) {
  std::vector<Transition> options;
  for (const std::vector<StackEntry>& stack : stacks_) {
    if (!transitions(stack, options, why)) return false;
  }
  auto same = [](const std::vector<StackEntry>& x, const std::vector<StackEntry>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const StackEntry& a, const StackEntry& b) {
      return a.pc == b.pc && a.reconverge == b.reconverge && a.lanes == b.lanes && a.mask == b.mask &&
             a.may_be_empty == b.may_be_empty;
    });
  };
  // The stacks that go where the trace goes, each once; lanes joined or
  // parted if they did in any of them.
  std::vector<std::vector<StackEntry>> kept;
  bool popped = false, split = false;
  for (Transition& t : options) {
    if (t.stack.empty() || t.stack.back().pc != here) continue;
    popped = popped || t.popped;
    split = split || t.split;
    if (std::none_of(kept.begin(), kept.end(), [&](const auto& k) { return same(k, t.stack); })) {
      kept.push_back(std::move(t.stack));
    }
  }
  if (kept.empty()) {
    std::vector<std::string> expected;
    for (const Transition& t : options) {
      const bool known = !t.stack.empty() && t.stack.back().pc < flow_->size();
      std::string where = known ? fmt::format("line {}", flow_->at(t.stack.back().pc).line)
                                : std::string("nowhere (the warp has ended)");
      if (std::find(expected.begin(), expected.end(), where) == expected.end()) {
        expected.push_back(std::move(where));
      }
    }
    throw PtxFileMismatch(fmt::format(
        "after line {} of {} GPGPU-Sim's reconvergence stack goes to {}, the trace to line {}: "
        "the trace was not run from this PTX file, or not with this block shape",
        flow_->at(flow_at_).line, flow_->path(), fmt::join(expected, " or "), flow_->at(here).line));
  }
  if (kept.size() > kMaxFlowStacks) {
    why = fmt::format("more than {} ways the reconvergence stack may have gone", kMaxFlowStacks);
    return false;
  }
  stacks_ = std::move(kept);
  if (flow_->at(flow_at_).kind == FlowInstruction::Kind::branch || popped || split) ++run_;
  if (popped || split) {
    // Lanes below took over (a join, or the other path of a split), or
    // fewer lanes run: registers read from here on by lanes that may not
    // have made their last write read what every lane holds.
    ++splits_;
    if (popped) ++epoch_;
  }
  // The lanes that run now: those of every stack when they agree, else
  // any of them.
  const StackEntry& first = stacks_.front().back();
  const bool agree = std::all_of(stacks_.begin(), stacks_.end(), [&](const auto& s) {
    return s.back().lanes == first.lanes && (first.lanes == Lanes::all || s.back().mask == first.mask);
  });
  lanes_ = agree ? first.lanes : Lanes::unknown;
  mask_ = threads_of(first);
  if (!agree) {
    for (const auto& s : stacks_) {
      const std::vector<bool> m = threads_of(s.back());
      for (std::size_t k = 0; k < mask_.size() && k < m.size(); ++k) mask_[k] = mask_[k] || m[k];
    }
  }
  mask_full_ = lanes_ == Lanes::all || full(mask_);
  return true;
}

bool LaneValueAnalysis::follow_flow(const TraceLocation& at, std::string_view opcode) {
  if (!at.file.empty() && at.file != flow_->name()) {
    // Its lines are matched by number: another file's (or a copy under
    // another name, which nothing tells apart from one) would misplace
    // every join point.
    throw PtxFileMismatch(fmt::format("the trace's lines name the PTX file {}, the PTX file followed is {}: "
                                "give the file the trace ran, under the name its lines give",
                                at.file, flow_->path()));
  }
  const std::uint32_t here = at.line == 0 ? FlowInstruction::kNone : flow_->index_of_line(at.line);
  if (here == FlowInstruction::kNone) {
    throw PtxFileMismatch(fmt::format("line {} of {} holds no instruction (or more than one)", at.line,
                                flow_->path()));
  }
  const FlowInstruction& ins = flow_->at(here);
  if (ins.opcode != opcode) {
    throw PtxFileMismatch(fmt::format("line {} of {} holds '{}', the trace runs '{}' there", at.line,
                                flow_->path(), ins.opcode, opcode));
  }
  // The guard and operands too (GPGPU-Sim prints the line without its tabs):
  // a trace whose branch conditions or targets differ from the file's would
  // have its lanes followed through code it did not run.
  if (!at.text.empty() && !ins.text.empty() && comparable(at.text) != comparable(ins.text)) {
    throw PtxFileMismatch(fmt::format("line {} of {} holds '{}', the trace runs '{}' there", at.line,
                                flow_->path(), shown(ins.text), shown(at.text)));
  }
  // GPGPU-Sim places a function's instructions kPtxInstructionBytes apart in
  // the order of the file: within a function the addresses must step as the
  // lines do, else the branches taken (told by the addresses) and the
  // file's control flow would disagree.
  if (started_ && ins.function == flow_->at(flow_at_).function &&
      at.pc - last_pc_ != kPtxInstructionBytes * (std::uint64_t{here} - flow_at_)) {
    throw PtxFileMismatch(fmt::format(
        "PC=0x{:x} at line {} of {}, after PC=0x{:x} at line {}: GPGPU-Sim places the "
        "instructions of a function {} bytes apart in the file's order, so the trace was not run "
        "from this PTX file",
        at.pc, at.line, flow_->path(), last_pc_, flow_->at(flow_at_).line, kPtxInstructionBytes));
  }
  bool followed = true;
  if (!started_) {
    stacks_.assign(1, {StackEntry{here, kBottom, lanes_, mask_, mask_full_, false}});
  } else {
    std::string why;
    followed = flow_step(here, why);
    if (!followed) {
      // From here on, by the rules without join points: whatever the stack
      // held, parked lanes may join anywhere.
      flow_left_ = fmt::format("line {} of {}: {}", flow_->at(flow_at_).line, flow_->path(), why);
      flow_ = nullptr;
      stacks_.clear();
      ++run_;
      ++splits_;
      lanes_may_join();
    }
  }
  flow_at_ = here;
  return followed;
}

}  // namespace gpuwcet::tools
