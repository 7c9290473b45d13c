// Compiled timing profiles on the host: the blob and its inspection (the
// manifest: profile_manifest.cpp; C source: profile_c_source.cpp).
#include "gpuwcet_tools/profile_writer.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/profile.hpp"
#include "gpuwcet_tools/makespan_problem.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

namespace {

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

// kernel_context at the line of 'block_bound_alone' when the manifest gave it.
std::string alone_context(const KernelEntry& k) {
  return k.block_bound_alone_where.empty()
             ? kernel_context(k)
             : fmt::format("{}: kernel '{}'", k.block_bound_alone_where, k.name);
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

// A kernel's record, with `alone` as its alone bound (0: none).
std::vector<std::uint8_t> kernel_record(const KernelEntry& k, std::uint64_t alone) {
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
  if (!k.kernel_string.empty() && k.makespan_warps != 0 && k.makespan_warps < warps) {
    // The model must cover every warp of the block (docs/profile-format.md).
    fail(fmt::format("makespan_warps {} is below the block's {} warps ({} threads of warps of {})",
                     k.makespan_warps, warps, k.block_threads, k.warp_size));
  }
  if (!k.kernel_string.empty()) check_makespan_model(k, warps);
  if (k.block_bound_alone != 0 && k.sections.empty()) {
    throw ToolError(fmt::format("{}: 'block_bound_alone' needs 'sections'", alone_context(k)));
  }
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
  put64(r, alone);
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

// The blob of `kernels` (in name order), record i with alone bound alone[i].
std::vector<std::uint8_t> assemble(const std::vector<KernelEntry>& kernels,
                                   const std::vector<std::uint64_t>& alone) {
  std::vector<std::vector<std::uint8_t>> records;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    records.push_back(kernel_record(kernels[i], alone[i]));
  }
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
  return b;
}

// The writer's own check: what we write, the core must accept, and give
// every kernel a block timing. Returns the timings, in the blob's order.
std::vector<BlockTiming> accepted_timing(const std::vector<std::uint8_t>& b,
                                         const std::vector<KernelEntry>& kernels) {
  Profile p;
  const Status st = open_profile(gsl::span<const std::uint8_t>(b.data(), b.size()), p);
  if (st != Status::ok) {
    throw ToolError(fmt::format("the profile does not validate: {}", status_text(st)));
  }
  std::vector<BlockTiming> out(p.kernel_count());
  for (std::uint32_t i = 0; i < p.kernel_count(); ++i) {
    const Status ts = block_timing(p.kernel(i), out[i]);
    if (ts != Status::ok) {
      throw ToolError(fmt::format("{}: {}", kernel_context(kernels[i]), status_text(ts)));
    }
  }
  return out;
}

}  // namespace

std::vector<std::uint8_t> write_profile(const std::vector<KernelEntry>& listed) {
  if (listed.size() > kProfileMaxKernels) throw ToolError("too many kernels");
  // The format stores kernels in increasing name order (bytewise), whatever
  // the manifest's order: the reader then proves the names unique in one
  // pass and finds a kernel by binary search. Indices follow the names.
  std::vector<KernelEntry> kernels = listed;
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const KernelEntry& a, const KernelEntry& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < kernels.size(); ++i) {
    if (kernels[i - 1].name == kernels[i].name) {
      throw ToolError(fmt::format("{} is listed twice", kernel_context(kernels[i])));
    }
  }
  // First without alone bounds, to learn each kernel's sections' bound B_S
  // from the core; then with those below it.
  std::vector<std::uint64_t> alone(kernels.size(), 0);
  std::vector<std::uint8_t> b = assemble(kernels, alone);
  const std::vector<BlockTiming> timing = accepted_timing(b, kernels);
  bool tighter = false;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const KernelEntry& k = kernels[i];
    if (k.block_bound_alone == 0) continue;
    if (k.block_bound_alone > timing[i].co_resident_bound) {
      throw ToolError(fmt::format("{}: 'block_bound_alone' {} is above the sections' bound {}",
                                  alone_context(k), k.block_bound_alone,
                                  timing[i].co_resident_bound));
    }
    if (k.block_bound_alone < timing[i].co_resident_bound) {
      alone[i] = k.block_bound_alone;
      tighter = true;
    }
  }
  if (tighter) {
    b = assemble(kernels, alone);
    (void)accepted_timing(b, kernels);
  }
  return b;
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
  // Bytes after the profile, such as a flash image's padding, are ignored
  // as the library ignores them, and counted.
  j["size"] = p.size();
  j["trailing_bytes"] = blob.size() - p.size();
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
    kj["block_bound_co_resident"] = t.co_resident_bound;
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
      std::string units;
      for (const auto& [symbol, count] : k["units"].items()) {
        units += fmt::format("{}{}={}", units.empty() ? "" : ",", symbol, count.get<std::uint32_t>());
      }
      o << fmt::format("  makespan model      {} x {}, units {}\n",
                       k["makespan_warps"].get<std::uint32_t>(),
                       k["kernel_string"].get<std::string>(), units);
    }
    o << fmt::format("  block bound alone   {} cycles (B_1)\n",
                     k["block_bound_alone"].get<std::uint64_t>());
    o << fmt::format("  beside other blocks {} cycles (B_S, plus what the others execute)\n",
                     k["block_bound_co_resident"].get<std::uint64_t>());
    o << fmt::format("  interference        {} cycles (E, what one block can take from another)\n", k["block_interference_cycles"].get<std::uint64_t>());
  }
  return o.str();
}

}  // namespace gpuwcet::tools
