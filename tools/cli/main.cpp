// gpuwcet: worst-case execution time bounds for GPU kernels, from the shell.
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "gpuwcet.h"

namespace {

bool is_command(CLI::App& app, const std::string& name) {
  for (const CLI::App* c : app.get_subcommands({})) {
    if (c->get_name() == name) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "gpuwcet computes safe worst-case execution time bounds for GPU kernels.\n"
      "Run 'gpuwcet <command> --help' for the options of a command."};
  app.set_version_flag("--version", std::string("gpuwcet ") + gpuwcet_version_string());
  app.require_subcommand(1);
  int exit_code = 0;
  gpuwcet::cli::add_makespan_command(app, exit_code);
  gpuwcet::cli::add_profile_commands(app, exit_code);
  gpuwcet::cli::add_block_commands(app, exit_code);
  // No option or file of these commands means anything empty: an empty
  // value ('--mem-latency ""', '--hw=') would otherwise read as "not given"
  // and quietly take the default.
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    if (arg.empty() || (arg.rfind("--", 0) == 0 && eq != std::string::npos && eq + 1 == arg.size())) {
      std::cerr << "gpuwcet: error: empty argument"
                << (arg.empty() && i > 1 ? std::string(" after '") + argv[i - 1] + "'" : " '" + arg + "'")
                << ": give a value\n";
      return 2;
    }
  }
  // A first word that names no command: say so, with the commands, rather
  // than the parser's "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-' && !is_command(app, argv[1])) {
    std::string names;
    for (const CLI::App* c : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + c->get_name();
    std::cerr << "gpuwcet: error: unknown command '" << argv[1] << "' (commands: " << names
              << ")\nRun 'gpuwcet --help' or 'gpuwcet <command> --help'.\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here with exit code 0; a command line that
    // cannot be read fails like every other error: a message, exit code 2.
    if (e.get_exit_code() == 0) {
      const int rc = app.exit(e);
      std::cout.flush();
      if (!std::cout) {
        std::cerr << "gpuwcet: error: cannot write the output to standard output\n";
        return 2;
      }
      return rc;
    }
    std::cerr << "gpuwcet: error: " << e.what() << "\nRun 'gpuwcet --help' or 'gpuwcet <command> --help'.\n";
    return 2;
  } catch (const std::exception& e) {
    // Each command reports its own errors (ToolError); anything else that
    // escapes is a defect of the tools, still reported as a failed run
    // rather than an abort.
    std::cerr << "gpuwcet: error: " << e.what() << '\n';
    return 2;
  }
  // Output that could not be written (a full disk) fails the run, as a file
  // that cannot be written does: a script must not read an empty result as
  // success.
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "gpuwcet: error: cannot write the output to standard output\n";
    return 2;
  }
  return exit_code;
}
