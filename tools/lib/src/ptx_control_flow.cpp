// PTX control flow: instructions, labels, basic blocks and the
// reconvergence point of every branch (ptx_control_flow.hpp).
#include "gpuwcet_tools/ptx_control_flow.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

namespace {

using detail::starts_with;
using detail::trim;
constexpr std::uint32_t kNone = FlowInstruction::kNone;
constexpr std::uint32_t kAmbiguous = kNone - 1;

bool has_word(std::string_view line, std::string_view word) {
  for (std::size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    const bool left = at == 0 || !detail::ptx_ident_char(line[at - 1]);
    const std::size_t end = at + word.size();
    if (left && (end == line.size() || !detail::ptx_ident_char(line[end]))) return true;
  }
  return false;
}

struct Function {
  std::uint32_t begin = 0, end = 0;  // instruction indices
  std::unordered_map<std::string, std::uint32_t> labels;
  struct Branch {
    std::uint32_t index;
    std::string label;
    std::uint64_t line;
  };
  std::vector<Branch> branches;  // targets resolved when the function closes
};

class Parser {
 public:
  Parser(const std::string& name, std::vector<FlowInstruction>& code,
         std::unordered_map<std::uint64_t, std::uint32_t>& by_line)
      : name_(name), code_(code), by_line_(by_line) {}

  void run(std::string_view text) {
    detail::LineCursor lines(text);
    std::string_view raw;
    while (lines.next(raw)) {
      line_ = lines.line_number();
      line(raw);
    }
    if (!statement_.empty()) {
      fail(fmt::format("the statement begun on line {} has no ';'", statement_line_), statement_line_);
    }
    if (in_body_) fail(fmt::format("function '{}' is not closed by '}}'", function_name_));
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::uint64_t at = 0) const {
    throw ToolError(fmt::format("{}:{}: {}", name_, at != 0 ? at : line_, what));
  }

  std::string_view strip_comments(std::string_view raw) {
    comment_buffer_.clear();
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (in_block_comment_) {
        if (raw[i] == '*' && i + 1 < raw.size() && raw[i + 1] == '/') {
          in_block_comment_ = false;
          ++i;
        }
        continue;
      }
      if (raw[i] == '/' && i + 1 < raw.size() && raw[i + 1] == '/') break;
      if (raw[i] == '/' && i + 1 < raw.size() && raw[i + 1] == '*') {
        in_block_comment_ = true;
        ++i;
        continue;
      }
      comment_buffer_.push_back(raw[i]);
    }
    return trim(comment_buffer_);
  }

  void line(std::string_view raw) {
    std::string_view s = strip_comments(raw);
    if (!in_body_) {
      if (has_word(s, ".entry") || has_word(s, ".func")) {
        header_ = true;
        const std::size_t at = has_word(s, ".entry") ? s.find(".entry") + 6 : s.find(".func") + 5;
        function_name_ = std::string(trim(s.substr(at)).substr(0, trim(s.substr(at)).find_first_of(" (\t")));
      }
      if (!header_) return;
      const std::size_t open = s.find('{');
      if (open == std::string_view::npos) {
        // A declaration without a body ends at its ';'.
        if (!s.empty() && s.back() == ';') header_ = false;
        return;
      }
      header_ = false;
      in_body_ = true;
      depth_ = 1;
      functions_.emplace_back();
      functions_.back().begin = static_cast<std::uint32_t>(code_.size());
      s = trim(s.substr(open + 1));
    }
    bool first = true;
    while (!s.empty() && in_body_) {
      if (!statement_.empty()) {
        // The rest of a statement begun on an earlier line (nvcc writes a
        // call's operands one per line): up to its ';', braces included
        // (vector operands), but not a scope's brace alone or a function.
        if (s == "{" || s == "}" || has_word(s, ".entry") || has_word(s, ".func")) {
          fail(fmt::format("the statement begun on line {} has no ';'", statement_line_));
        }
        const std::size_t semi = s.find(';');
        statement_.append(" ").append(s.substr(0, semi));
        if (semi == std::string_view::npos) return;
        s = trim(s.substr(semi + 1));
        // GPGPU-Sim adds the instruction when it reads the ';', so it has
        // the line of the ';' (ptx_parser.cc, add_instruction); the text a
        // trace shows for it is not known, so it is not checked.
        const std::string whole = std::move(statement_);
        statement_.clear();
        if (whole.front() != '.' && !prototype(whole)) instruction(whole, first, false);
        first = false;
        continue;
      }
      if (s.front() == '{') {
        ++depth_;
        s = trim(s.substr(1));
        continue;
      }
      if (s.front() == '}') {
        if (--depth_ == 0) close_function();
        s = trim(s.substr(1));
        continue;
      }
      // A label: "NAME:" or "NAME :" (GPGPU-Sim's lexer skips the blanks),
      // not "::" and not a call prototype's name.
      if (const std::size_t colon = name_colon(s); colon != 0 && !prototype(s)) {
        pending_labels_.emplace_back(trim(s.substr(0, colon)));
        s = trim(s.substr(colon + 1));
        continue;
      }
      const std::size_t semi = s.find(';');
      if (semi == std::string_view::npos &&
          (s.front() != '.' || starts_with(s, ".branchtargets") || starts_with(s, ".calltargets"))) {
        // A statement that goes on on the next line. (A directive without
        // its ';', such as .loc, ends with its line; a list of branch or
        // call targets runs to its ';'.)
        statement_ = std::string(s);
        statement_line_ = line_;
        return;
      }
      const std::string_view statement = trim(s.substr(0, semi));
      s = semi == std::string_view::npos ? std::string_view{} : trim(s.substr(semi + 1));
      if (statement.empty() || statement.front() == '.' || prototype(statement)) continue;  // directive
      instruction(statement, first, true);
      first = false;
    }
  }

  // Where the colon after a name opening `s` is ("NAME:" or "NAME :", not
  // "::"), or 0.
  static std::size_t name_colon(std::string_view s) {
    std::size_t k = 0;
    while (k < s.size() && detail::ptx_ident_char(s[k])) ++k;
    if (k == 0 || s[0] == '.') return 0;
    while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
    if (k == s.size() || s[k] != ':' || s.substr(k, 2) == "::") return 0;
    return k;
  }

  // "prototype_0 : .callprototype (...)": declares a call's signature; no
  // instruction (and its name no label).
  static bool prototype(std::string_view s) {
    const std::size_t colon = name_colon(s);
    return colon != 0 && starts_with(trim(s.substr(colon + 1)), ".callprototype");
  }

  void instruction(std::string_view s, bool first_on_line, bool one_line) {
    FlowInstruction ins;
    if (one_line) ins.text = std::string(s);
    ins.line = static_cast<std::uint32_t>(line_);
    ins.function = static_cast<std::uint32_t>(functions_.size() - 1);
    if (starts_with(s, "@")) {
      ins.guarded = true;
      std::size_t end = 1;
      while (end < s.size() && s[end] != ' ' && s[end] != '\t') ++end;
      s = trim(s.substr(end));
    }
    const std::size_t op_end = detail::ptx_opcode_length(s);
    ins.opcode = std::string(s.substr(0, op_end));
    const std::string_view base = s.substr(0, s.find('.') < op_end ? s.find('.') : op_end);
    const std::string_view operands = trim(s.substr(op_end));
    Function& f = functions_.back();
    const auto index = static_cast<std::uint32_t>(code_.size());
    if (base == "bra") {
      ins.kind = FlowInstruction::Kind::branch;
      std::string_view label = operands;
      if (const std::size_t comma = label.rfind(','); comma != std::string_view::npos) {
        label = trim(label.substr(comma + 1));
      }
      if (label.empty()) fail("bra without a target label");
      f.branches.push_back({index, std::string(label), line_});
    } else if (base == "brx") {
      ins.kind = FlowInstruction::Kind::indirect;
    } else if (base == "ret" || base == "exit" || base == "retp") {
      ins.kind = FlowInstruction::Kind::exit;
    } else if (base == "call") {
      ins.kind = FlowInstruction::Kind::call;
    }
    for (const std::string& l : pending_labels_) f.labels[l] = index;
    pending_labels_.clear();
    code_.push_back(std::move(ins));
    auto [it, added] = by_line_.emplace(line_, index);
    if (!added || !first_on_line) it->second = kAmbiguous;
  }

  void close_function() {
    in_body_ = false;
    Function& f = functions_.back();
    f.end = static_cast<std::uint32_t>(code_.size());
    for (const std::string& l : pending_labels_) f.labels[l] = kNone;  // trailing label
    pending_labels_.clear();
    for (const Function::Branch& b : f.branches) {
      const auto it = f.labels.find(b.label);
      if (it == f.labels.end()) {
        fail(fmt::format("bra to '{}', which is no label of function '{}'", b.label, function_name_), b.line);
      }
      if (it->second == kNone) {
        fail(fmt::format("bra to '{}', a label with no instruction after it", b.label), b.line);
      }
      code_[b.index].target = it->second;
    }
    reconvergence_points(f);
  }

  // GPGPU-Sim's basic blocks and the immediate post-dominator of each
  // (Cooper, Harvey and Kennedy's iterative algorithm on the reversed graph,
  // rooted at the exit block).
  void reconvergence_points(const Function& f) {
    if (f.begin == f.end) return;
    std::vector<bool> leader(f.end - f.begin, false);
    leader[0] = true;
    for (const auto& [label, index] : f.labels) {
      if (index != kNone) leader[index - f.begin] = true;
    }
    for (std::uint32_t i = f.begin; i + 1 < f.end; ++i) {
      const FlowInstruction& in = code_[i];
      using K = FlowInstruction::Kind;
      if (in.kind == K::branch || in.kind == K::exit || (in.kind == K::call && in.guarded)) {
        leader[i + 1 - f.begin] = true;
      }
    }
    std::vector<std::uint32_t> first;            // first instruction of each block
    std::vector<std::uint32_t> block(f.end - f.begin);
    for (std::uint32_t i = f.begin; i < f.end; ++i) {
      if (leader[i - f.begin]) first.push_back(i);
      block[i - f.begin] = static_cast<std::uint32_t>(first.size() - 1);
    }
    const auto blocks = static_cast<std::uint32_t>(first.size());
    const std::uint32_t exit = blocks;  // the exit block
    std::vector<std::vector<std::uint32_t>> succ(blocks + 1), pred(blocks + 1);
    for (std::uint32_t b = 0; b < blocks; ++b) {
      const std::uint32_t last = b + 1 < blocks ? first[b + 1] - 1 : f.end - 1;
      const FlowInstruction& in = code_[last];
      const std::uint32_t next = b + 1 < blocks ? b + 1 : exit;
      using K = FlowInstruction::Kind;
      if (in.kind == K::exit) {
        succ[b].push_back(exit);
        if (in.guarded) succ[b].push_back(next);
      } else if (in.kind == K::branch) {
        succ[b].push_back(block[in.target - f.begin]);
        if (in.guarded) succ[b].push_back(next);
      } else {
        succ[b].push_back(next);
      }
      for (std::uint32_t s : succ[b]) pred[s].push_back(b);
    }
    // Post-order of a depth-first walk from the exit along reversed edges.
    std::vector<std::uint32_t> order;
    std::vector<std::uint32_t> number(blocks + 1, kNone);
    std::vector<std::pair<std::uint32_t, std::size_t>> walk{{exit, 0}};
    std::vector<bool> seen(blocks + 1, false);
    seen[exit] = true;
    while (!walk.empty()) {
      auto& [node, k] = walk.back();
      if (k < pred[node].size()) {
        const std::uint32_t p = pred[node][k++];
        if (!seen[p]) {
          seen[p] = true;
          walk.emplace_back(p, 0);
        }
        continue;
      }
      number[node] = static_cast<std::uint32_t>(order.size());
      order.push_back(node);
      walk.pop_back();
    }
    std::vector<std::uint32_t> ipdom(blocks + 1, kNone);
    ipdom[exit] = exit;
    auto intersect = [&](std::uint32_t a, std::uint32_t b) {
      while (a != b) {
        while (number[a] < number[b]) a = ipdom[a];
        while (number[b] < number[a]) b = ipdom[b];
      }
      return a;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const std::uint32_t n = *it;
        if (n == exit) continue;
        std::uint32_t best = kNone;
        for (std::uint32_t s : succ[n]) {
          if (ipdom[s] == kNone) continue;
          best = best == kNone ? s : intersect(s, best);
        }
        if (best != kNone && ipdom[n] != best) {
          ipdom[n] = best;
          changed = true;
        }
      }
    }
    for (std::uint32_t b = 0; b < blocks; ++b) {
      const std::uint32_t last = b + 1 < blocks ? first[b + 1] - 1 : f.end - 1;
      FlowInstruction& in = code_[last];
      if (in.kind != FlowInstruction::Kind::branch) continue;
      // No post-dominator (a block that never reaches the exit) or the exit
      // block: the lanes meet only when the kernel ends.
      in.reconverge = ipdom[b] == kNone || ipdom[b] == exit ? kNone : first[ipdom[b]];
    }
  }

  const std::string& name_;
  std::vector<FlowInstruction>& code_;
  std::unordered_map<std::uint64_t, std::uint32_t>& by_line_;
  std::vector<Function> functions_;
  std::vector<std::string> pending_labels_;
  std::string function_name_;
  std::string comment_buffer_;
  std::string statement_;  // a statement whose ';' is still to come
  std::uint64_t statement_line_ = 0;  // where it begins
  std::uint64_t line_ = 0;
  bool header_ = false, in_body_ = false, in_block_comment_ = false;
  int depth_ = 0;
};

}  // namespace

PtxControlFlow PtxControlFlow::parse(const std::string& name, std::string_view text) {
  return parse_file(name, name, text);
}

PtxControlFlow PtxControlFlow::parse_file(const std::string& name, const std::string& path,
                                          std::string_view text) {
  PtxControlFlow flow;
  flow.name_ = name;
  flow.path_ = path;
  Parser(path, flow.code_, flow.by_line_).run(detail::skip_byte_order_mark(text));
  return flow;
}

PtxControlFlow PtxControlFlow::load(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string text = read_text_file(path);
  if (detail::skip_byte_order_mark(text).find_first_not_of(" \t\r\n") == std::string::npos) {
    throw ToolError(fmt::format("{}: the PTX file is empty", path));
  }
  return parse_file(slash == std::string::npos ? path : path.substr(slash + 1), path, text);
}

std::uint32_t PtxControlFlow::index_of_line(std::uint64_t line) const {
  const auto it = by_line_.find(line);
  return it == by_line_.end() || it->second == kAmbiguous ? kNone : it->second;
}

std::uint32_t PtxControlFlow::next(std::uint32_t index) const {
  if (index + 1 >= code_.size() || code_[index + 1].function != code_[index].function) return kNone;
  return index + 1;
}

}  // namespace gpuwcet::tools
