// Compiled timing profiles on the host: manifest, blob, C source, inspection.
#include "gpuwcet_tools/profile_writer.hpp"

#include <filesystem>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/profile.hpp"
#include "gpuwcet_tools/block_analysis.hpp"
#include "gpuwcet_tools/makespan_problem.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::tools {

namespace {

std::string where(const std::string& path, const toml::node& n) {
  return fmt::format("{}:{}", path, n.source().begin.line);
}

std::uint64_t integer(const std::string& path, const toml::node& n, const std::string& what,
                      std::uint64_t max) {
  const auto v = n.value<std::int64_t>();
  if (!n.is_integer() || !v || *v < 0 || static_cast<std::uint64_t>(*v) > max) {
    throw ToolError(fmt::format("{}: '{}' must be an integer from 0 to {}", where(path, n), what,
                                max));
  }
  return static_cast<std::uint64_t>(*v);
}

void put16(std::vector<std::uint8_t>& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
}
void put32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put64(std::vector<std::uint8_t>& b, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void set32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// "manifest:line: kernel 'name'", the start of a message about `k`.
std::string kernel_context(const KernelEntry& k) {
  return k.where.empty() ? fmt::format("kernel '{}'", k.name)
                         : fmt::format("{}: kernel '{}'", k.where, k.name);
}

// The makespan model as the makespan analysis checks it: classes, unit
// counts, the kernel string's symbols. Without this the core's check of
// the finished blob refuses a bad model with no word of which or why.
void check_makespan_model(const KernelEntry& k, std::uint64_t block_warps) {
  MakespanProblem p;
  p.kernel = k.kernel_string;
  p.warps = k.makespan_warps != 0 ? k.makespan_warps : block_warps;
  p.warp_size = k.warp_size;
  p.units = k.units;
  try {
    (void)validate_model(p);
  } catch (const ToolError& e) {
    throw ToolError(fmt::format("{}: makespan model: {}", kernel_context(k), e.what()));
  }
}

std::vector<std::uint8_t> kernel_record(const KernelEntry& k) {
  const auto fail = [&](const std::string& what) {
    throw ToolError(fmt::format("{}: {}", kernel_context(k), what));
  };
  if (k.name.empty() || k.name.size() >= kProfileNameSize) fail("name must have 1 to 31 characters");
  for (const char c : k.name) {
    if (c < 0x21 || c > 0x7E) fail("name must be printable ASCII without spaces");
  }
  if (k.block_threads == 0) fail("block_threads must be at least 1");
  if (k.warp_size == 0) fail("warp_size must be at least 1");
  const std::uint64_t warps = ceil_div(k.block_threads, k.warp_size);
  if (warps > kProfileMaxWarps) fail(fmt::format("more than {} warps per block", kProfileMaxWarps));
  if (k.sections.size() > kProfileMaxSections) fail("too many sections");
  for (std::size_t s = 0; s < k.sections.size(); ++s) {
    if (k.sections[s].size() != warps) {
      fail(fmt::format("section {} lists {} warps, the block has {}", s, k.sections[s].size(),
                       warps));
    }
  }
  if (k.sections.empty() && k.kernel_string.empty()) {
    fail("give 'sections' or a makespan model ('kernel_string' and 'units')");
  }
  if (k.kernel_string.size() > kProfileMaxKernelString) fail("kernel_string too long");
  if (!k.kernel_string.empty() && k.units.empty()) fail("kernel_string needs 'units'");
  if (k.units.size() > kMaxUnitClasses) fail("more than 8 unit classes");
  if (!k.kernel_string.empty()) check_makespan_model(k, warps);
  std::vector<std::uint8_t> r;
  for (std::size_t i = 0; i < kProfileNameSize; ++i) {
    r.push_back(i < k.name.size() ? static_cast<std::uint8_t>(k.name[i]) : 0);
  }
  const bool makespan = !k.kernel_string.empty();
  put32(r, k.block_threads);
  put32(r, k.warp_size);
  put32(r, k.registers_per_thread);
  put32(r, k.shared_memory_per_block);
  put32(r, static_cast<std::uint32_t>(warps));
  put32(r, static_cast<std::uint32_t>(k.sections.size()));
  put32(r, makespan ? (k.makespan_warps != 0 ? k.makespan_warps
                                             : static_cast<std::uint32_t>(warps))
                    : 0);
  put32(r, static_cast<std::uint32_t>(k.kernel_string.size()));
  put32(r, makespan ? static_cast<std::uint32_t>(k.units.size()) : 0);
  for (std::size_t c = 0; c < kMaxUnitClasses; ++c) {
    const bool used = makespan && c < k.units.size();
    r.push_back(used ? static_cast<std::uint8_t>(k.units[c].first) : 0);
    r.push_back(0);
    r.push_back(0);
    r.push_back(0);
    put32(r, used ? k.units[c].second : 0);
  }
  for (const auto& section : k.sections) {
    for (const auto& [length, demand] : section) {
      put64(r, length);
      put64(r, demand);
    }
  }
  r.insert(r.end(), k.kernel_string.begin(), k.kernel_string.end());
  while (r.size() % 4 != 0) r.push_back(0);
  return r;
}

std::string status_text(Status st) { return status_message(st); }

}  // namespace

namespace {

// A kernel whose sections come from the analysis of a traced block.
struct TraceInput {
  std::string trace;          // relative to the manifest
  std::string preset;         // built-in hardware (default orin-sm)
  std::string hardware_file;  // or a hardware file, relative to the manifest
  std::uint32_t memory_latency = 0;  // 0: the hardware's own / 200 for a preset
  std::string block;          // "worst" (default) or an index
  std::string block_dim;      // launch shape for PTX memory costs, "X[,Y[,Z]]"; empty: unknown
  std::string where;          // manifest position of 'trace', else of another of these keys
};

// The (length, demand) pair the profile keeps of a warp's section summary.
std::pair<std::uint64_t, std::uint64_t> length_and_demand(const SectionSummary& s) {
  std::uint64_t demand = s.issues;
  for (std::uint64_t h : s.held) {
    if (!checked_add(demand, h, demand)) throw ToolError("a warp's demand exceeds 64 bits");
  }
  return {s.length, demand};
}

std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> sections_from_trace(
    const std::string& manifest, const TraceInput& in) {
  const std::filesystem::path dir = std::filesystem::path(manifest).parent_path();
  auto relative = [&](const std::string& p) { return (dir / p).lexically_normal().string(); };
  if (!in.preset.empty() && !in.hardware_file.empty()) {
    throw ToolError("give 'hardware' or 'hardware_file', not both");
  }
  std::optional<std::uint32_t> latency;
  if (in.memory_latency != 0) latency = in.memory_latency;
  const HardwareConfig hw = in.hardware_file.empty()
                                ? hardware_preset(in.preset.empty() ? "orin-sm" : in.preset,
                                                  latency.value_or(200))
                                : load_hardware_file(relative(in.hardware_file), latency);
  TraceReadOptions options;
  if (!in.block_dim.empty()) {
    const auto shape = parse_block_shape(in.block_dim);
    if (!shape) {
      throw ToolError(fmt::format("bad 'block_dim' '{}' (expected X, X,Y or X,Y,Z, at most "
                                  "1024 threads)",
                                  in.block_dim));
    }
    options.block_shape = *shape;
  }
  const TraceFile trace = read_trace(relative(in.trace), TraceFormat::automatic, hw, options);
  BlockChoice choice;
  try {
    choice = parse_block_choice(in.block, trace.blocks.size());
  } catch (const ToolError& e) {
    throw ToolError(fmt::format("{}: {}", trace.path, e.what()));
  }
  const BlockAnalysis a = analyse_chosen_block(hw.hw, trace, choice, hw.barriers_drain);
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> out(
      a.warps.front().sections.size());
  for (const WarpAnalysis& w : a.warps) {
    for (std::size_t s = 0; s < out.size(); ++s) out[s].push_back(length_and_demand(w.sections[s]));
  }
  return out;
}

}  // namespace

std::vector<KernelEntry> load_manifest(const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw ToolError(fmt::format("{}:{}:{}: {}", path, b.line, b.column, e.description()));
  }
  for (const auto& [key, node] : doc) {
    if (key.str() != "kernel" && key.str() != "format_version") {
      throw ToolError(fmt::format("{}: unknown key '{}'", where(path, node), key.str()));
    }
  }
  if (const toml::node* v = doc.get("format_version")) {
    if (integer(path, *v, "format_version", 0xFFFF) != kProfileFormatVersion) {
      throw ToolError(fmt::format("{}: this gpuwcet writes format_version {}", where(path, *v),
                                  kProfileFormatVersion));
    }
  }
  const toml::array* list = doc["kernel"].as_array();
  if (list == nullptr || list->empty()) {
    throw ToolError(fmt::format("{}: no [[kernel]] entries", path));
  }
  std::vector<KernelEntry> out;
  for (const toml::node& kn : *list) {
    const toml::table* t = kn.as_table();
    if (t == nullptr) throw ToolError(fmt::format("{}: 'kernel' must be [[kernel]] tables", where(path, kn)));
    KernelEntry k;
    k.where = where(path, kn);
    TraceInput from_trace;
    for (const auto& [key, n] : *t) {
      const std::string name(key.str());
      if (name == "name") {
        if (!n.is_string()) throw ToolError(fmt::format("{}: 'name' must be a string", where(path, n)));
        k.name = *n.value<std::string>();
      } else if (name == "block_threads") {
        k.block_threads = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "warp_size") {
        k.warp_size = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "registers_per_thread") {
        k.registers_per_thread = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "shared_memory_per_block") {
        k.shared_memory_per_block = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "makespan_warps") {
        k.makespan_warps = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "kernel_string") {
        if (!n.is_string()) throw ToolError(fmt::format("{}: 'kernel_string' must be a string", where(path, n)));
        k.kernel_string = *n.value<std::string>();
      } else if (name == "units") {
        const toml::table* u = n.as_table();
        if (u == nullptr) throw ToolError(fmt::format("{}: 'units' must be a table like {{ L = 16, C = 32 }}", where(path, n)));
        for (const auto& [sym, un] : *u) {
          if (sym.str().size() != 1) {
            throw ToolError(fmt::format("{}: unit class '{}' must be one letter A-Z", where(path, un), sym.str()));
          }
          k.units.emplace_back(sym.str()[0], static_cast<std::uint32_t>(integer(path, un, "units", 0xFFFFFFFFu)));
        }
      } else if (name == "sections") {
        const toml::array* ss = n.as_array();
        if (ss == nullptr) throw ToolError(fmt::format("{}: 'sections' must be an array of sections", where(path, n)));
        for (const toml::node& sn : *ss) {
          const toml::array* warps = sn.as_array();
          if (warps == nullptr) throw ToolError(fmt::format("{}: a section is an array of [length, demand] pairs, one per warp", where(path, sn)));
          std::vector<std::pair<std::uint64_t, std::uint64_t>> section;
          for (const toml::node& wn : *warps) {
            const toml::array* pair = wn.as_array();
            if (pair == nullptr || pair->size() != 2) {
              throw ToolError(fmt::format("{}: each warp is [length, demand]", where(path, wn)));
            }
            section.emplace_back(integer(path, *pair->get(0), "length", 0x7FFFFFFFFFFFFFFFull),
                                 integer(path, *pair->get(1), "demand", 0x7FFFFFFFFFFFFFFFull));
          }
          k.sections.push_back(std::move(section));
        }
      } else if (name == "trace" || name == "hardware" || name == "hardware_file" ||
                 name == "block" || name == "block_dim") {
        if (!n.is_string()) throw ToolError(fmt::format("{}: '{}' must be a string", where(path, n), name));
        (name == "trace"           ? from_trace.trace
         : name == "hardware"      ? from_trace.preset
         : name == "hardware_file" ? from_trace.hardware_file
         : name == "block"         ? from_trace.block
                                   : from_trace.block_dim) = *n.value<std::string>();
        if (name == "trace" || from_trace.where.empty()) from_trace.where = where(path, n);
      } else if (name == "memory_latency") {
        from_trace.memory_latency = static_cast<std::uint32_t>(integer(path, n, name, kMaxUnitCycles));
        if (from_trace.where.empty()) from_trace.where = where(path, n);
      } else {
        throw ToolError(fmt::format("{}: unknown key '{}'", where(path, n), name));
      }
    }
    if (k.name.empty()) throw ToolError(fmt::format("{}: a kernel needs a 'name'", where(path, kn)));
    if (!from_trace.trace.empty()) {
      if (!k.sections.empty()) {
        throw ToolError(fmt::format("{}: kernel '{}' gives both 'sections' and 'trace'",
                                    from_trace.where, k.name));
      }
      try {
        k.sections = sections_from_trace(path, from_trace);
      } catch (const ToolError& e) {
        throw ToolError(fmt::format("{}: kernel '{}': {}", from_trace.where, k.name, e.what()));
      }
    } else if (!from_trace.where.empty()) {
      throw ToolError(fmt::format("{}: kernel '{}': 'hardware', 'hardware_file', 'memory_latency', "
                                  "'block' and 'block_dim' need a 'trace'",
                                  from_trace.where, k.name));
    }
    if (k.block_threads == 0) {
      throw ToolError(fmt::format("{}: kernel '{}' needs 'block_threads' >= 1", where(path, kn), k.name));
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<std::uint8_t> write_profile(const std::vector<KernelEntry>& kernels) {
  if (kernels.size() > kProfileMaxKernels) throw ToolError("too many kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    for (std::size_t j = i + 1; j < kernels.size(); ++j) {
      if (kernels[i].name == kernels[j].name) {
        throw ToolError(fmt::format("{} is listed twice", kernel_context(kernels[j])));
      }
    }
  }
  std::vector<std::vector<std::uint8_t>> records;
  for (const KernelEntry& k : kernels) records.push_back(kernel_record(k));
  std::vector<std::uint8_t> b{'G', 'W', 'P', 'F'};
  put16(b, kProfileFormatVersion);
  put16(b, static_cast<std::uint16_t>(kProfileHeaderSize));
  put32(b, 0);  // total size, set below
  put32(b, static_cast<std::uint32_t>(kernels.size()));
  for (int i = 0; i < 4; ++i) put32(b, 0);  // flags and reserved
  std::uint64_t at = kProfileHeaderSize + kProfileDirEntrySize * records.size();
  for (const auto& r : records) {
    put32(b, static_cast<std::uint32_t>(at));
    put32(b, static_cast<std::uint32_t>(r.size()));
    at += r.size();
  }
  for (const auto& r : records) b.insert(b.end(), r.begin(), r.end());
  const std::uint64_t total = b.size() + kProfileTrailerSize;
  if (total > 0xFFFFFFFFu) throw ToolError("the profile would exceed 4 GiB");
  set32(b, 8, static_cast<std::uint32_t>(total));
  put32(b, crc32(gsl::span<const std::uint8_t>(b.data(), b.size())));
  // The writer's own check: what we write, the core must accept.
  Profile p;
  const Status st = open_profile(gsl::span<const std::uint8_t>(b.data(), b.size()), p);
  if (st != Status::ok) {
    throw ToolError(fmt::format("the profile does not validate: {}", status_text(st)));
  }
  for (std::uint32_t i = 0; i < p.kernel_count(); ++i) {
    BlockTiming t;
    const Status ts = block_timing(p.kernel(i), t);
    if (ts != Status::ok) {
      throw ToolError(fmt::format("{}: {}", kernel_context(kernels[i]), status_text(ts)));
    }
  }
  return b;
}

namespace {

// The command as text inside a C block comment. A C compiler's source
// character set is only sure to hold printable ASCII, so other bytes become
// '?'; "*/" would end the comment (and "/*" draws -Wcomment), so the two
// characters are kept apart. Paths may hold any of these.
std::string comment_text(const std::string& s) {
  std::string out;
  for (const char c : s) {
    const bool printable = c >= 0x20 && c <= 0x7E;
    if (!out.empty() && ((out.back() == '*' && c == '/') || (out.back() == '/' && c == '*'))) {
      out += ' ';
    }
    out += printable ? c : '?';
  }
  return out;
}

bool c_keyword(const std::string& s) {
  static const char* const kKeywords[] = {
      "auto",     "break",    "case",     "char",       "const",    "continue", "default",
      "do",       "double",   "else",     "enum",       "extern",   "float",    "for",
      "goto",     "if",       "inline",   "int",        "long",     "register", "restrict",
      "return",   "short",    "signed",   "sizeof",     "static",   "struct",   "switch",
      "typedef",  "union",    "unsigned", "void",       "volatile", "while",    "_Bool",
      "_Complex", "_Imaginary"};
  for (const char* k : kKeywords) {
    if (s == k) return true;
  }
  return false;
}

}  // namespace

void require_c_identifier(const std::string& symbol) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  bool ok = !symbol.empty() && letter(symbol[0]) && !c_keyword(symbol);
  for (const char c : symbol) ok = ok && (letter(c) || (c >= '0' && c <= '9'));
  if (!ok) {
    throw ToolError(fmt::format("symbol '{}' is not a C identifier (letters, digits and '_', not "
                                "starting with a digit, not a keyword)",
                                symbol));
  }
}

std::string emit_c(const std::vector<std::uint8_t>& blob, const std::string& symbol,
                   const std::string& command) {
  require_c_identifier(symbol);
  std::ostringstream o;
  o << "/* Compiled timing profile (docs/profile-format.md). Generated, do not edit:\n"
    << " *   " << comment_text(command) << "\n */\n"
    << "const unsigned char " << symbol << "[" << blob.size() << "] = {";
  for (std::size_t i = 0; i < blob.size(); ++i) {
    o << (i % 12 == 0 ? "\n  " : " ") << fmt::format("0x{:02x},", blob[i]);
  }
  o << "\n};\nconst unsigned int " << symbol << "_size = " << blob.size() << "u;\n";
  return o.str();
}

namespace {

Profile open_or_throw(const std::vector<std::uint8_t>& blob) {
  Profile p;
  const Status st = open_profile(gsl::span<const std::uint8_t>(blob.data(), blob.size()), p);
  if (st != Status::ok) throw ToolError(fmt::format("not a valid profile: {}", status_text(st)));
  return p;
}

}  // namespace

nlohmann::json inspect_json(const std::vector<std::uint8_t>& blob) {
  const Profile p = open_or_throw(blob);
  nlohmann::json j;
  j["format_version"] = kProfileFormatVersion;
  j["size"] = blob.size();
  j["kernels"] = nlohmann::json::array();
  for (std::uint32_t i = 0; i < p.kernel_count(); ++i) {
    const ProfileKernel k = p.kernel(i);
    BlockTiming t;
    if (block_timing(k, t) != Status::ok) throw ToolError("block bound overflows");
    nlohmann::json kj;
    kj["name"] = std::string(k.name());
    kj["block_threads"] = k.block_threads();
    kj["warp_size"] = k.warp_size();
    kj["registers_per_thread"] = k.registers_per_thread();
    kj["shared_memory_per_block"] = k.shared_memory_per_block();
    kj["warp_count"] = k.warp_count();
    nlohmann::json sections = nlohmann::json::array();
    for (std::uint32_t s = 0; s < k.section_count(); ++s) {
      nlohmann::json ws = nlohmann::json::array();
      for (std::uint32_t w = 0; w < k.warp_count(); ++w) {
        const PhaseSummary ph = k.phase(s, w);
        ws.push_back({ph.length, ph.demand});
      }
      sections.push_back(ws);
    }
    kj["sections"] = sections;
    if (!k.kernel_string().empty()) {
      kj["kernel_string"] = std::string(k.kernel_string());
      kj["makespan_warps"] = k.makespan_warps();
      const SmDescription sm = k.makespan_sm();
      nlohmann::json units = nlohmann::json::object();
      for (std::size_t c = 0; c < sm.class_count; ++c) {
        units[std::string(1, sm.classes[c].symbol)] = sm.classes[c].units;
      }
      kj["units"] = units;
    }
    kj["block_bound_alone"] = t.alone_bound;
    kj["block_interference_cycles"] = t.interference_cycles;
    j["kernels"].push_back(kj);
  }
  return j;
}

std::string inspect_text(const std::vector<std::uint8_t>& blob) {
  const nlohmann::json j = inspect_json(blob);
  std::ostringstream o;
  o << fmt::format("profile format {}, {} bytes, {} kernel(s)\n", j["format_version"].get<int>(),
                   j["size"].get<std::uint64_t>(), j["kernels"].size());
  for (const auto& k : j["kernels"]) {
    o << fmt::format("kernel {}\n", k["name"].get<std::string>());
    o << fmt::format("  block               {} threads, {} warps of {}\n",
                     k["block_threads"].get<std::uint32_t>(), k["warp_count"].get<std::uint32_t>(),
                     k["warp_size"].get<std::uint32_t>());
    o << fmt::format("  resources           {} registers/thread, {} bytes shared/block\n",
                     k["registers_per_thread"].get<std::uint32_t>(),
                     k["shared_memory_per_block"].get<std::uint32_t>());
    o << fmt::format("  sections            {} ([length demand] per warp)\n", k["sections"].size());
    for (std::size_t s = 0; s < k["sections"].size(); ++s) {
      o << fmt::format("    section {}:", s);
      for (const auto& w : k["sections"][s]) {
        o << fmt::format(" [{} {}]", w[0].get<std::uint64_t>(), w[1].get<std::uint64_t>());
      }
      o << "\n";
    }
    if (k.contains("kernel_string")) {
      o << fmt::format("  makespan model      {} x {}\n", k["makespan_warps"].get<std::uint32_t>(),
                       k["kernel_string"].get<std::string>());
    }
    o << fmt::format("  block bound alone   {} cycles (B_1)\n",
                     k["block_bound_alone"].get<std::uint64_t>());
    o << fmt::format("  interference        {} cycles (E, what one block can take from another)\n", k["block_interference_cycles"].get<std::uint64_t>());
  }
  return o.str();
}

}  // namespace gpuwcet::tools
