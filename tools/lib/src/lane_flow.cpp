// Split warps with the kernel's PTX file (lane_values.hpp, follow()):
// GPGPU-Sim's reconvergence stack (simt_stack::update in its
// abstract_hardware_model.cc), run over the join points of
// ptx_control_flow.hpp, with the lanes of every entry known per thread.
#include <algorithm>

#include <fmt/format.h>

#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

namespace {

bool any(const std::vector<bool>& mask) { return std::find(mask.begin(), mask.end(), true) != mask.end(); }

}  // namespace

// Lanes that all go to `next`: at the top entry's join point they wait for
// the lanes below, and the entry pops; otherwise the entry moves on.
void LaneValueAnalysis::single_path(Transition& t, std::uint32_t next) const {
  StackEntry& top = t.stack.back();
  if (next != FlowInstruction::kNone && next == top.reconverge) {
    t.stack.pop_back();
    t.popped = true;
    drop_empty(t);
  } else {
    top.pc = next;
  }
}

// A split: both groups hold lanes. The `lower` group is written into the
// stack first and runs after the `upper` one. A group at the join point of
// the entry it leaves waits there; otherwise the entry waits at the branch's
// join point `join` with all its lanes (unless that is the same point), and
// each group not already there runs in an entry of its own.
void LaneValueAnalysis::split_paths(Transition& t, std::uint32_t lower_pc,
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
    e.lanes = Lanes::known;
    e.mask = *mask;
    e.mask_full = false;
    s.emplace_back();
  }
  s.pop_back();
  // Both groups at the top entry's join point: it pops, lanes below run.
  t.popped = s.size() < depth;
  t.split = !t.popped;
  if (t.popped) drop_empty(t);
}

// Entries whose lanes have all left run nothing: they pop.
void LaneValueAnalysis::drop_empty(Transition& t) const {
  while (!t.stack.empty() && t.stack.back().lanes == Lanes::known && !any(t.stack.back().mask)) {
    t.stack.pop_back();
    t.popped = true;
  }
}

bool LaneValueAnalysis::flow_step(std::uint32_t here, std::string& why) {
  using K = FlowInstruction::Kind;
  const FlowInstruction& prev = flow_->at(flow_at_);
  StackEntry& live = stack_.back();
  live.lanes = lanes_;
  live.mask = mask_;
  live.mask_full = mask_full_;
  const std::uint32_t next = flow_->next(flow_at_);
  // What the previous instruction may have done to the stack; the trace's
  // next line says which.
  std::vector<Transition> options;
  auto single = [&](std::uint32_t to) {
    Transition t{stack_};
    single_path(t, to);
    options.push_back(std::move(t));
  };
  switch (prev.kind) {
    case K::call:
      why = "a call";
      return false;
    case K::indirect:
      why = "an indirect branch";
      return false;
    case K::exit: {
      if (prev.guarded && !exit_guard_uniform_) {
        why = "lanes leave under a guard that differs between them";
        return false;
      }
      if (prev.guarded) single(next);  // no lane leaves
      // Every running lane leaves: its entry pops, and its lanes leave the
      // entries below.
      Transition t{stack_};
      const StackEntry leaving = t.stack.back();
      t.stack.pop_back();
      t.popped = true;
      for (StackEntry& e : t.stack) {
        if (e.lanes == Lanes::all) e.mask.assign(e.mask.size(), true);
        for (std::size_t k = 0; k < e.mask.size(); ++k) {
          if (leaving.lanes == Lanes::all || (k < leaving.mask.size() && leaving.mask[k])) e.mask[k] = false;
        }
        e.lanes = Lanes::known;
        e.mask_full = false;
      }
      drop_empty(t);
      options.push_back(std::move(t));
      break;
    }
    case K::branch: {
      if (!prev.guarded || !branch_ || prev.target == next) {  // one way for every lane
        single(prev.target);
        break;
      }
      const Branch& b = *branch_;
      if (!b.splits) {  // the same way in every lane
        single(prev.target);
        single(next);
        break;
      }
      if (!b.fall_through || !b.exact) {
        why = "a split whose lanes are not known per thread";
        return false;
      }
      const std::vector<bool>& fall = *b.fall_through;
      std::vector<bool> taken(mask_.size(), false);
      for (std::size_t k = 0; k < taken.size(); ++k) taken[k] = mask_[k] && !fall[k];
      // The traced warp is one of the block's: every warp that runs the
      // branch must split, or none.
      int splitting = 0, whole = 0;
      for (std::size_t first = 0; first < mask_.size(); first += kWarpLanes) {
        const std::size_t end = std::min(mask_.size(), first + kWarpLanes);
        bool runs = false, f = false, t = false;
        for (std::size_t k = first; k < end; ++k) {
          runs = runs || mask_[k];
          f = f || fall[k];
          t = t || taken[k];
        }
        if (runs) ++(f && t ? splitting : whole);
      }
      if (splitting != 0 && whole != 0) {
        why = "a branch that splits some warps of the block and not others";
        return false;
      }
      if (splitting == 0) {
        single(prev.target);
        single(next);
        break;
      }
      const std::uint32_t join = prev.reconverge == FlowInstruction::kNone ? kAtExit : prev.reconverge;
      // GPGPU-Sim writes the fall-through group first, so the taken one
      // runs first; the trace says which order ran.
      Transition t1{stack_};
      split_paths(t1, next, fall, prev.target, taken, join);
      options.push_back(std::move(t1));
      Transition t2{stack_};
      split_paths(t2, prev.target, taken, next, fall, join);
      options.push_back(std::move(t2));
      break;
    }
    default:
      single(next);
  }
  const Transition* chosen = nullptr;
  for (const Transition& t : options) {
    if (t.stack.empty() || t.stack.back().pc != here) continue;
    if (chosen == nullptr) {
      chosen = &t;
      continue;
    }
    const bool same = std::equal(t.stack.begin(), t.stack.end(), chosen->stack.begin(), chosen->stack.end(),
                                 [](const StackEntry& a, const StackEntry& b) {
                                   return a.pc == b.pc && a.reconverge == b.reconverge &&
                                          a.lanes == b.lanes && a.mask == b.mask;
                                 });
    if (!same || t.popped != chosen->popped) {
      why = "two ways the stack may have gone";
      return false;
    }
  }
  if (chosen == nullptr) {
    std::string expected;
    for (const Transition& t : options) {
      if (!expected.empty()) expected += " or ";
      const bool known = !t.stack.empty() && t.stack.back().pc < flow_->size();
      expected += known ? fmt::format("line {}", flow_->at(t.stack.back().pc).line)
                        : std::string("nowhere (the warp has ended)");
    }
    throw ToolError(fmt::format(
        "after line {} of {} GPGPU-Sim's reconvergence stack goes to {}, the trace to line {}: "
        "the trace was not run from this PTX file",
        prev.line, flow_->name(), expected, flow_->at(here).line));
  }
  const bool popped = chosen->popped;
  const bool split = chosen->split;
  stack_ = chosen->stack;
  if (prev.kind == K::branch || popped || split) ++run_;
  if (popped || split) {
    // Lanes below took over (a join, or the other path of a split), or
    // fewer lanes run: registers read from here on by lanes that may not
    // have made their last write read what every lane holds.
    ++splits_;
    if (popped) ++epoch_;
    const StackEntry& top = stack_.back();
    lanes_ = top.lanes;
    mask_ = top.mask;
    mask_full_ = top.lanes == Lanes::all || top.mask_full;
  }
  return true;
}

bool LaneValueAnalysis::follow_flow(const TraceLocation& at, std::string_view opcode) {
  if (!at.file.empty() && at.file != flow_->name()) {
    throw ToolError(fmt::format("the trace runs {}, the PTX file given is {}", at.file, flow_->name()));
  }
  const std::uint32_t here = at.line == 0 ? FlowInstruction::kNone : flow_->index_of_line(at.line);
  if (here == FlowInstruction::kNone) {
    throw ToolError(fmt::format("line {} of {} holds no instruction (or more than one)", at.line,
                                flow_->name()));
  }
  if (flow_->at(here).opcode != opcode) {
    throw ToolError(fmt::format("line {} of {} holds '{}', the trace runs '{}' there", at.line,
                                flow_->name(), flow_->at(here).opcode, opcode));
  }
  bool followed = true;
  if (!started_) {
    stack_.assign(1, StackEntry{here, kBottom, lanes_, mask_, mask_full_});
  } else {
    std::string why;
    followed = flow_step(here, why);
    if (!followed) {
      // From here on, by the rules without join points: whatever the stack
      // held, parked lanes may join anywhere.
      flow_left_ = fmt::format("line {} of {}: {}", flow_->at(flow_at_).line, flow_->name(), why);
      flow_ = nullptr;
      stack_.clear();
      ++run_;
      ++splits_;
      lanes_may_join();
    }
  }
  flow_at_ = here;
  return followed;
}

}  // namespace gpuwcet::tools
