// Independent oracle for the tests: the worst-case makespan by enumerating
// every work-conserving schedule of explicit warps. Shares no code with the
// library. Exponential: small instances only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace gpuwcet::testing {

class BruteForceMakespan {
 public:
  // instr[i]: class of the i-th (already transformed) instruction of a warp;
  // capacity[u]: warps class u serves per cycle.
  BruteForceMakespan(std::vector<int> instr, std::vector<int> capacity)
      : instr_(std::move(instr)), capacity_(std::move(capacity)) {}

  // Longest makespan of `warps` warps over all work-conserving schedules.
  std::uint64_t worst(int warps) {
    memo_.clear();
    return longest(std::vector<int>(static_cast<std::size_t>(warps), 0));
  }

 private:
  std::uint64_t longest(std::vector<int> pos) {
    std::sort(pos.begin(), pos.end());
    const int len = static_cast<int>(instr_.size());
    if (std::all_of(pos.begin(), pos.end(), [len](int p) { return p == len; })) return 0;
    auto it = memo_.find(pos);
    if (it != memo_.end()) return it->second;
    // Waiting warps per class; every class serves min(capacity, waiting).
    std::vector<std::vector<int>> waiting(capacity_.size());
    for (std::size_t w = 0; w < pos.size(); ++w) {
      if (pos[w] < len) waiting[static_cast<std::size_t>(instr_[pos[w]])].push_back(static_cast<int>(w));
    }
    std::uint64_t best = 0;
    std::vector<int> next = pos;
    choose_class(0, waiting, next, best);
    memo_[pos] = best;
    return best;
  }

  // Enumerates, class by class, every subset of the waiting warps of the
  // size a work-conserving scheduler must serve.
  void choose_class(std::size_t u, const std::vector<std::vector<int>>& waiting,
                    std::vector<int>& next, std::uint64_t& best) {
    if (u == waiting.size()) {
      best = std::max(best, 1 + longest(next));
      return;
    }
    const auto& cand = waiting[u];
    const int take = std::min<int>(capacity_[u], static_cast<int>(cand.size()));
    std::vector<bool> pick(cand.size(), false);
    std::fill(pick.begin(), pick.begin() + take, true);
    do {
      for (std::size_t i = 0; i < cand.size(); ++i) {
        if (pick[i]) ++next[static_cast<std::size_t>(cand[i])];
      }
      choose_class(u + 1, waiting, next, best);
      for (std::size_t i = 0; i < cand.size(); ++i) {
        if (pick[i]) --next[static_cast<std::size_t>(cand[i])];
      }
    } while (std::prev_permutation(pick.begin(), pick.end()));
  }

  std::vector<int> instr_;
  std::vector<int> capacity_;
  std::map<std::vector<int>, std::uint64_t> memo_;
};

}  // namespace gpuwcet::testing
