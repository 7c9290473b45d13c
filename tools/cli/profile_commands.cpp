// gpuwcet compile / gpuwcet inspect: compiled timing profiles
// (docs/profile-format.md).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/json_output.hpp"
#include "gpuwcet_tools/profile_writer.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::cli {

namespace {

struct CompileOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool emit_c = false;
  std::string symbol = "gpuwcet_profile";
};

struct InspectOptions {
  std::string input;
  bool json = false;
};

int run_compile(const CompileOptions& o) {
  using namespace gpuwcet::tools;
  try {
    // Before the manifests, whose traces may take long to analyse.
    if (o.emit_c) require_c_identifier(o.symbol);
    std::vector<KernelEntry> kernels;
    for (const std::string& in : o.inputs) {
      auto more = load_manifest(in);
      for (const KernelEntry& k : more) {
        for (const std::string& n : k.notes) std::cerr << "note: " << n << '\n';
      }
      kernels.insert(kernels.end(), more.begin(), more.end());
    }
    const std::vector<std::uint8_t> blob = write_profile(kernels);
    if (o.emit_c) {
      // The command line in the comment lets a reader regenerate the file.
      std::string command = "gpuwcet compile";
      for (const std::string& in : o.inputs) command += " " + in;
      command += " --emit-c --symbol " + o.symbol + " -o " + o.output;
      write_text_file(o.output, emit_c(blob, o.symbol, command));
    } else {
      // A binary profile in a file named as C source is almost surely a
      // forgotten --emit-c; written anyway, as asked.
      const std::string ext = std::filesystem::path(o.output).extension().string();
      if (ext == ".c" || ext == ".h" || ext == ".inc") {
        std::cerr << fmt::format("note: {}: a binary profile; --emit-c writes C source\n", o.output);
      }
      write_binary_file(o.output, blob);
    }
    std::cout << fmt::format("{}: {} kernel(s), {} bytes\n", o.output, kernels.size(),
                             blob.size());
    return 0;
  } catch (const ToolError& e) {
    std::cerr << "gpuwcet compile: error: " << e.what() << '\n';
    return 2;
  }
}

int run_inspect(const InspectOptions& o) {
  using namespace gpuwcet::tools;
  try {
    const std::vector<std::uint8_t> blob = read_binary_file(o.input);
    const nlohmann::json j = inspect_json(blob);
    if (const auto trailing = j["trailing_bytes"].get<std::uint64_t>(); trailing != 0) {
      std::cerr << fmt::format("note: {}: {} byte(s) after the profile's {} are ignored, as "
                               "gpuwcet_profile_open ignores them\n",
                               o.input, trailing, j["size"].get<std::uint64_t>());
    }
    std::cout << (o.json ? json_text(j) + '\n' : inspect_text(blob));
    return 0;
  } catch (const ToolError& e) {
    std::cerr << "gpuwcet inspect: error: " << o.input << ": " << e.what() << '\n';
    return 2;
  }
}

}  // namespace

void add_profile_commands(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<CompileOptions>();
  CLI::App* compile = app.add_subcommand(
      "compile",
      "Compile kernel timing data into a binary profile for the target\n"
      "(docs/profile-format.md): per kernel its block size, resources and\n"
      "per-warp, per-section phase summaries or a makespan model.");
  compile->add_option("inputs", c->inputs, "TOML manifests with [[kernel]] entries")
      ->required()
      ->check(CLI::ExistingFile);
  compile->add_option("-o,--output", c->output, "output file (.gwp, or .c with --emit-c)")
      ->required();
  compile->add_flag("--emit-c", c->emit_c, "write a C source file with a const array");
  CLI::Option* symbol = compile->add_option(
      "--symbol", c->symbol, "name of the array with --emit-c, a C identifier (default gpuwcet_profile)");
  compile->callback([c, symbol, &exit_code]() {
    if (symbol->count() > 0 && !c->emit_c) note_ignored("--symbol", "--emit-c", "the .gwp output");
    exit_code = run_compile(*c);
  });

  auto i = std::make_shared<InspectOptions>();
  CLI::App* inspect = app.add_subcommand(
      "inspect", "Validate a compiled profile and print it back (text, or --json).");
  inspect->add_option("profile", i->input, "a .gwp file")->required()->check(CLI::ExistingFile);
  inspect->add_flag("--json", i->json, "print one JSON object");
  inspect->callback([i, &exit_code]() { exit_code = run_inspect(*i); });
}

}  // namespace gpuwcet::cli
