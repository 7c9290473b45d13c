// The worst-case makespan ILPs (docs/makespan-ilp.md) built through GLPK's
// C API. Two formulations share the time-indexed skeleton:
//
//   paper      x[w][k][t] in {0,1}: warp w executes position k in cycle t
//              (reconstruction of the paper's Fig. 3, Sec. 5)
//   symmetric  n[k][t] in {0..W}: how many warps execute position k in cycle t
//
// and the same work-conserving rule, linearised with one binary per class
// and cycle (docs/makespan-ilp.md, "Work conservation").
//
// NOLINT(core-heap): src/glpk is not part of the core but its own optional,
// host-only library (gpuwcet_glpk, excluded from gpuwcet_core by
// src/CMakeLists.txt, never built for bare metal): GLPK allocates anyway, so
// the model is built in vectors, and the try/catch at each entry point turns
// an allocation failure into solver_failed at the library's boundary.
#include "gpuwcet_glpk/makespan_ilp.hpp"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstddef>
#include <new>
#include <utility>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/sm_model.hpp"

namespace gpuwcet::glpk {
namespace {

using Clock = std::chrono::steady_clock;

// A linear expression sum(coef * column) + constant, columns 1-based as in GLPK.
struct LinExpr {
  std::vector<std::pair<int, double>> terms;  // NOLINT(core-heap)
  double constant = 0;
  void add(int col, double coef) { terms.emplace_back(col, coef); }
};

// Collects rows as triplets and loads them into GLPK in one call.
class Model {
 public:
  explicit Model(glp_prob* lp) : lp_(lp) {
    ia_.push_back(0);  // GLPK's triplet arrays are 1-based
    ja_.push_back(0);
    ar_.push_back(0);
  }

  // Adds `expr` (type, lo, hi) with the constant moved to the bounds.
  // Repeated columns are merged: GLPK refuses duplicate indices in a row.
  void add_row(LinExpr expr, int type, double lo, double hi) {
    std::sort(expr.terms.begin(), expr.terms.end());
    const int row = glp_add_rows(lp_, 1);
    glp_set_row_bnds(lp_, row, type, lo - expr.constant, hi - expr.constant);
    for (std::size_t i = 0; i < expr.terms.size();) {
      const int col = expr.terms[i].first;
      double coef = 0;
      for (; i < expr.terms.size() && expr.terms[i].first == col; ++i) coef += expr.terms[i].second;
      if (coef != 0) {
        ia_.push_back(row);
        ja_.push_back(col);
        ar_.push_back(coef);
      }
    }
  }

  void load() {
    glp_load_matrix(lp_, static_cast<int>(ia_.size() - 1), ia_.data(), ja_.data(), ar_.data());
  }

 private:
  glp_prob* lp_;
  std::vector<int> ia_;  // NOLINT(core-heap)
  std::vector<int> ja_;  // NOLINT(core-heap)
  std::vector<double> ar_;  // NOLINT(core-heap)
};

// Owns the glp_prob and restores the caller's terminal setting.
class Problem {
 public:
  Problem() : previous_term_(glp_term_out(GLP_OFF)), lp_(glp_create_prob()) {}
  ~Problem() {
    glp_delete_prob(lp_);
    glp_term_out(previous_term_);
  }
  Problem(const Problem&) = delete;  // NOLINT(core-heap): a deleted copy, not operator delete
  Problem& operator=(const Problem&) = delete;  // NOLINT(core-heap): as above
  glp_prob* get() const { return lp_; }

 private:
  int previous_term_;
  glp_prob* lp_;
};

struct Instance {
  gsl::span<const std::uint8_t> instr;
  gsl::span<const std::uint64_t> capacity;
  std::uint64_t warps = 0;
  std::uint64_t horizon = 0;
};

// Column layout shared by both formulations. `copies` is W for the paper's
// per-warp variables and 1 for the symmetric counts.
struct Layout {
  std::uint64_t copies = 0;
  std::uint64_t length = 0;
  std::uint64_t horizon = 0;
  std::uint64_t classes = 0;
  // exec(c, k, t): x[w=c][k][t] or n[k][t]; done(c, k, t): its running sum
  // over cycles 0..t (warps, or 0/1, past position k by the end of cycle t).
  int exec(std::uint64_t c, std::uint64_t k, std::uint64_t t) const {
    return 1 + static_cast<int>((c * length + k) * horizon + t);
  }
  int done(std::uint64_t c, std::uint64_t k, std::uint64_t t) const {
    return exec(c, k, t) + static_cast<int>(copies * length * horizon);
  }
  // z(u, t) = 1 allows class u to leave a waiting warp unserved in cycle t.
  int saturated(std::uint64_t u, std::uint64_t t) const {
    return 1 + static_cast<int>(2 * copies * length * horizon + u * horizon + t);
  }
  // busy(t) <= 1 counts cycle t when some instruction executes in it.
  int busy(std::uint64_t t) const {
    return 1 + static_cast<int>(2 * copies * length * horizon + classes * horizon + t);
  }
  std::uint64_t columns() const { return (2 * copies * length + classes + 1) * horizon; }
};

// Adds done(c, k-1, t-1) - done(c, k, t-1): 1 (or the count) when the copy
// waits at position k at the start of cycle t. done(-1, .) is `all` (every
// warp has passed the virtual position -1) and done(., -1) is 0.
void add_waiting(LinExpr& e, const Layout& lay, std::uint64_t c, std::uint64_t k, std::uint64_t t,
                 double all, double sign) {
  if (t == 0) {
    if (k == 0) e.constant += sign * all;
    return;
  }
  if (k == 0) {
    e.constant += sign * all;
  } else {
    e.add(lay.done(c, k - 1, t - 1), sign);
  }
  e.add(lay.done(c, k, t - 1), -sign);
}

void build(Model& model, glp_prob* lp, const Instance& in, const Layout& lay, bool per_warp) {
  const std::uint64_t len = lay.length;
  const std::uint64_t hor = lay.horizon;
  const double w_all = static_cast<double>(in.warps);
  // A copy is one warp (paper) or all of them (symmetric).
  const double copy_size = per_warp ? 1.0 : w_all;
  glp_set_obj_dir(lp, GLP_MAX);
  glp_add_cols(lp, static_cast<int>(lay.columns()));

  for (std::uint64_t c = 0; c < lay.copies; ++c) {
    for (std::uint64_t k = 0; k < len; ++k) {
      for (std::uint64_t t = 0; t < hor; ++t) {
        const int x = lay.exec(c, k, t);
        const int d = lay.done(c, k, t);
        glp_set_col_kind(lp, x, per_warp ? GLP_BV : GLP_IV);
        // Position k cannot run before cycle k, nor so late that the
        // len - 1 - k positions after it miss the horizon.
        const bool window = t >= k && t + (len - 1 - k) < hor;
        if (window) {
          glp_set_col_bnds(lp, x, GLP_DB, 0.0, copy_size);
        } else {
          glp_set_col_bnds(lp, x, GLP_FX, 0.0, 0.0);
        }
        // Every position is executed by every warp within the horizon.
        if (t + 1 == hor) {
          glp_set_col_bnds(lp, d, GLP_FX, copy_size, copy_size);
        } else {
          glp_set_col_bnds(lp, d, GLP_DB, 0.0, copy_size);
        }
        // done(k, t) = done(k, t-1) + exec(k, t).
        LinExpr link;
        link.add(d, 1);
        link.add(x, -1);
        if (t > 0) link.add(lay.done(c, k, t - 1), -1);
        model.add_row(std::move(link), GLP_FX, 0, 0);
        // In order, one cycle per instruction: a warp executes position k in
        // cycle t only if it finished position k-1 by cycle t-1, i.e.
        // done(k, t) <= done(k-1, t-1).
        if (k > 0 && t > 0) {
          LinExpr order;
          order.add(d, 1);
          order.add(lay.done(c, k - 1, t - 1), -1);
          model.add_row(std::move(order), GLP_UP, 0, 0);
        }
      }
    }
    // Fig. 3's one-instruction-per-warp-per-cycle row (implied by the order
    // rows above, kept as the paper states it).
    if (per_warp) {
      for (std::uint64_t t = 0; t < hor; ++t) {
        LinExpr one;
        for (std::uint64_t k = 0; k < len; ++k) one.add(lay.exec(c, k, t), 1);
        model.add_row(std::move(one), GLP_UP, 0, 1);
      }
    }
  }

  for (std::uint64_t u = 0; u < lay.classes; ++u) {
    const std::uint64_t cap = in.capacity[u];
    const bool can_saturate = cap < in.warps;
    const double cap_d = static_cast<double>(cap);
    for (std::uint64_t t = 0; t < hor; ++t) {
      const int z = lay.saturated(u, t);
      glp_set_col_kind(lp, z, GLP_BV);
      // With capacity >= W the class serves every waiting warp: z = 0.
      if (!can_saturate) glp_set_col_bnds(lp, z, GLP_FX, 0.0, 0.0);
      // served = sum of exec over the class's positions (all copies).
      LinExpr served;
      for (std::uint64_t c = 0; c < lay.copies; ++c) {
        for (std::uint64_t k = 0; k < len; ++k) {
          if (in.instr[k] == u) served.add(lay.exec(c, k, t), 1);
        }
      }
      if (served.terms.empty()) {
        glp_set_col_bnds(lp, z, GLP_FX, 0.0, 0.0);
        continue;  // the class has no position: nothing to serve
      }
      // Capacity: at most capacity[u] instructions of class u per cycle.
      if (can_saturate) model.add_row(served, GLP_UP, 0, cap_d);
      // Saturation: z = 1 only if the class serves capacity[u] warps.
      if (can_saturate) {
        LinExpr sat = served;
        sat.add(z, -cap_d);
        model.add_row(std::move(sat), GLP_LO, 0, 0);
      }
      if (per_warp) {
        // Paper style, per warp: a warp waiting on u and not served in cycle
        // t forces z = 1: waiting_u(w, t) - executed_u(w, t) <= z(u, t).
        for (std::uint64_t c = 0; c < lay.copies; ++c) {
          LinExpr idle;
          for (std::uint64_t k = 0; k < len; ++k) {
            if (in.instr[k] != u) continue;
            add_waiting(idle, lay, c, k, t, 1.0, 1.0);
            idle.add(lay.exec(c, k, t), -1);
          }
          idle.add(z, -1);
          model.add_row(std::move(idle), GLP_UP, 0, 0);
        }
      } else {
        // Symmetric, aggregated big-M: served >= waiting - (W - capacity) z,
        // so z = 0 forces every waiting warp to be served.
        LinExpr all = served;
        for (std::uint64_t k = 0; k < len; ++k) {
          if (in.instr[k] == u) add_waiting(all, lay, 0, k, t, w_all, -1.0);
        }
        if (can_saturate) all.add(z, w_all - cap_d);
        model.add_row(std::move(all), GLP_LO, 0, 0);
      }
    }
  }

  // Objective: the number of busy cycles. A work-conserving schedule never
  // idles while a warp is unfinished, so this is its makespan.
  for (std::uint64_t t = 0; t < hor; ++t) {
    const int b = lay.busy(t);
    glp_set_col_bnds(lp, b, GLP_DB, 0.0, 1.0);
    glp_set_obj_coef(lp, b, 1.0);
    LinExpr active;
    active.add(b, 1);
    for (std::uint64_t c = 0; c < lay.copies; ++c) {
      for (std::uint64_t k = 0; k < len; ++k) active.add(lay.exec(c, k, t), -1);
    }
    model.add_row(std::move(active), GLP_UP, 0, 0);
  }
  model.load();
}

// Reads the schedule of the current MIP solution and replays it; returns its
// makespan, or 0 when it is not a complete work-conserving schedule (which
// would mean a numerical failure of the solver).
std::uint64_t extract_schedule(glp_prob* lp, const Instance& in, const Layout& lay,
                               std::vector<std::vector<std::uint64_t>>& out) {  // NOLINT(core-heap)
  const std::uint64_t len = lay.length;
  std::vector<std::vector<std::uint64_t>> sched(lay.horizon, std::vector<std::uint64_t>(len, 0));  // NOLINT(core-heap)
  for (std::uint64_t t = 0; t < lay.horizon; ++t) {
    for (std::uint64_t k = 0; k < len; ++k) {
      double sum = 0;
      for (std::uint64_t c = 0; c < lay.copies; ++c) sum += glp_mip_col_val(lp, lay.exec(c, k, t));
      const double r = std::round(sum);
      if (r < 0 || std::fabs(sum - r) > 1e-6) return 0;
      sched[t][k] = static_cast<std::uint64_t>(r);
    }
  }
  std::vector<std::uint64_t> at(len + 1, 0);  // NOLINT(core-heap)
  at[0] = in.warps;
  std::uint64_t makespan = 0;
  for (std::uint64_t t = 0; t < lay.horizon; ++t) {
    if (at[len] == in.warps) {
      for (std::uint64_t k = 0; k < len; ++k) {
        if (sched[t][k] != 0) return 0;
      }
      continue;
    }
    std::vector<std::uint64_t> waiting(in.capacity.size(), 0);  // NOLINT(core-heap)
    std::vector<std::uint64_t> served(in.capacity.size(), 0);  // NOLINT(core-heap)
    for (std::uint64_t k = 0; k < len; ++k) {
      if (sched[t][k] > at[k]) return 0;
      waiting[in.instr[k]] += at[k];
      served[in.instr[k]] += sched[t][k];
    }
    for (std::size_t u = 0; u < in.capacity.size(); ++u) {
      if (served[u] != std::min(in.capacity[u], waiting[u])) return 0;
    }
    for (std::uint64_t k = len; k-- > 0;) {
      at[k] -= sched[t][k];
      at[k + 1] += sched[t][k];
    }
    makespan = t + 1;
  }
  if (at[len] != in.warps) return 0;
  sched.resize(makespan);
  out = std::move(sched);
  return makespan;
}

// Best bound over the open nodes of the branch-and-bound tree, refreshed at
// every callback. It only decreases, so the last value seen stays valid when
// the time limit stops the search.
struct BoundTracker {
  double bound = 0;
};

void track_bound(glp_tree* tree, void* info) {
  auto* tracker = static_cast<BoundTracker*>(info);
  const int node = glp_ios_best_node(tree);
  if (node != 0) tracker->bound = std::min(tracker->bound, glp_ios_node_bound(tree, node));
}

int remaining_ms(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 1) return 1;
  return left >= INT_MAX ? INT_MAX : static_cast<int>(left);
}

// Fills shape's count/capacity/length from the index string.
Status shape_of(gsl::span<const std::uint8_t> instr, gsl::span<const std::uint64_t> capacity,
                TransformedShape& shape) {
  if (instr.empty() || capacity.empty() || capacity.size() > kMaxUnitClasses) {
    return Status::invalid_argument;
  }
  shape = TransformedShape{};
  shape.class_count = capacity.size();
  for (std::size_t u = 0; u < capacity.size(); ++u) {
    if (capacity[u] == 0) return Status::invalid_argument;
    shape.capacity[u] = capacity[u];
    shape.repeat[u] = 1;
  }
  for (const std::uint8_t c : instr) {
    if (c >= capacity.size()) return Status::invalid_argument;
    ++shape.count[c];
  }
  shape.length = instr.size();
  return Status::ok;
}

IlpResult solve(gsl::span<const std::uint8_t> instr, gsl::span<const std::uint64_t> capacity,
                std::uint64_t warps, const IlpOptions& options) {
  const auto start = Clock::now();
  IlpResult result;
  auto finish = [&](Status st) {
    result.status = st;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return std::move(result);
  };
  if (!(options.time_limit_seconds > 0) || !std::isfinite(options.time_limit_seconds)) {
    return finish(Status::invalid_argument);
  }
  TransformedShape shape;
  Status st = shape_of(instr, capacity, shape);
  if (st != Status::ok) return finish(st);
  if (warps == 0) return finish(Status::zero_warps);
  std::uint64_t safe = 0;
  std::uint64_t trivial = 0;
  st = safe_pessimistic_makespan(shape, warps, safe);
  if (st == Status::ok) st = makespan_lower_bound(shape, warps, trivial);
  if (st != Status::ok) return finish(st);

  Layout lay;
  lay.copies = options.formulation == IlpFormulation::paper ? warps : 1;
  lay.length = instr.size();
  lay.horizon = options.horizon == 0 ? safe : options.horizon;
  lay.classes = capacity.size();
  // Size guard, in checked arithmetic: columns (2 * copies * I' + U + 1) * H
  // and roughly 12 non-zeros per exec column plus 4 per class and cycle.
  std::uint64_t cells = 0;
  std::uint64_t columns = 0;
  std::uint64_t nonzeros = 0;
  const bool fits = checked_mul(lay.copies, lay.length, cells) &&
                    checked_mul(cells, lay.horizon, cells) &&
                    checked_mul(cells, 2, columns) &&
                    checked_add(columns, (lay.classes + 1) * lay.horizon, columns) &&
                    checked_mul(cells, 12, nonzeros) &&
                    checked_add(nonzeros, (4 * lay.classes + 2) * lay.horizon, nonzeros);
  if (!fits || columns > kMaxIlpColumns || nonzeros > kMaxIlpNonzeros ||
      lay.horizon > kMaxIlpColumns || warps > (1ull << 52)) {
    return finish(Status::kernel_too_long);
  }

  const Instance in{instr, capacity, warps, lay.horizon};
  // Bounds before any solving: the horizon caps every schedule the model
  // holds; the trivial bound is at most every schedule's length.
  result.lower_bound = std::min(trivial, lay.horizon);
  // Never above the safe bound, even with a longer caller-given horizon.
  result.upper_bound = std::min(lay.horizon, safe);

  // The cast below overflows the clock's 64-bit count of nanoseconds from
  // about 9.2e9 s less the clock's current value; 10^9 s (31 years) stays
  // clear of that and is no real limit.
  const auto limit = std::chrono::duration<double>(std::min(options.time_limit_seconds, 1e9));
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(limit);
  Problem problem;
  glp_prob* lp = problem.get();
  Model model(lp);
  build(model, lp, in, lay, options.formulation == IlpFormulation::paper);

  // The LP relaxation first (glp_intopt without presolver needs it).
  glp_smcp lp_parm;
  glp_init_smcp(&lp_parm);
  lp_parm.msg_lev = GLP_MSG_OFF;
  lp_parm.tm_lim = remaining_ms(deadline);
  const int lp_ret = glp_simplex(lp, &lp_parm);
  if (lp_ret == GLP_ETMLIM) return finish(Status::budget_exhausted);
  if (lp_ret != 0 || glp_get_status(lp) != GLP_OPT) {
    // No relaxed schedule fits: only possible with a caller-given horizon
    // below the shortest schedule.
    result.lower_bound = 0;
    result.upper_bound = 0;
    return finish(Status::solver_failed);
  }
  BoundTracker tracker;
  tracker.bound = glp_get_obj_val(lp);

  glp_iocp mip_parm;
  glp_init_iocp(&mip_parm);
  mip_parm.msg_lev = GLP_MSG_OFF;
  mip_parm.presolve = GLP_OFF;  // node bounds then refer to this very model
  mip_parm.tm_lim = remaining_ms(deadline);
  mip_parm.cb_func = track_bound;
  mip_parm.cb_info = &tracker;
  const int mip_ret = glp_intopt(lp, &mip_parm);
  const int mip_status = glp_mip_status(lp);
  if (mip_ret != 0 && mip_ret != GLP_ETMLIM) return finish(Status::solver_failed);

  if (mip_status == GLP_OPT || mip_status == GLP_FEAS) {
    const std::uint64_t found = extract_schedule(lp, in, lay, result.advanced_per_cycle);
    if (found == 0) return finish(Status::solver_failed);
    result.lower_bound = found;
  }
  if (mip_ret == 0 && mip_status == GLP_OPT) {
    result.upper_bound = result.lower_bound;
    return finish(Status::ok);
  }
  if (mip_ret == 0 && mip_status != GLP_FEAS) {
    // Finished without a solution: no schedule fits the horizon.
    result.lower_bound = 0;
    result.upper_bound = 0;
    return finish(Status::solver_failed);
  }
  // Time limit (or a search that stopped at a gap): the objective is
  // integral, so ceil of the open nodes' best bound (with a tolerance for
  // GLPK's own) caps every schedule in the model.
  const double bound = std::ceil(tracker.bound - 1e-6);
  if (bound >= 0 && bound < static_cast<double>(result.upper_bound)) {
    result.upper_bound = static_cast<std::uint64_t>(bound);
  }
  result.upper_bound = std::max(result.upper_bound, result.lower_bound);
  return finish(Status::budget_exhausted);
}

}  // namespace

IlpResult solve_makespan_ilp(gsl::span<const std::uint8_t> instr,
                             gsl::span<const std::uint64_t> capacity, std::uint64_t warps,
                             const IlpOptions& options) {
  try {  // NOLINT(core-heap)
    return solve(instr, capacity, warps, options);
  } catch (const std::bad_alloc&) {  // NOLINT(core-heap)
    IlpResult failed;
    failed.status = Status::solver_failed;
    return failed;
  }
}

IlpResult solve_kernel_makespan_ilp(const SmDescription& sm, std::string_view kernel,
                                    const TransformedShape& shape, std::uint64_t warps,
                                    const IlpOptions& options) {
  IlpResult failed;
  // Refuse before allocating the transformed string: the model would be
  // refused for its size anyway.
  if (shape.length > kMaxIlpColumns) {
    failed.status = Status::kernel_too_long;
    return failed;
  }
  try {  // NOLINT(core-heap)
    std::vector<std::uint8_t> instr(static_cast<std::size_t>(shape.length));  // NOLINT(core-heap)
    std::size_t written = 0;
    failed.status = transform_to_classes(sm, kernel, instr, written);
    if (failed.status != Status::ok) return failed;
    return solve_makespan_ilp(gsl::span<const std::uint8_t>(instr.data(), written),
                              gsl::span<const std::uint64_t>(shape.capacity.data(), shape.class_count),
                              warps, options);
  } catch (const std::bad_alloc&) {  // NOLINT(core-heap)
    failed.status = Status::solver_failed;
    return failed;
  }
}

}  // namespace gpuwcet::glpk
