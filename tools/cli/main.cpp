// gpuwcet: worst-case execution time bounds for GPU kernels, from the shell.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "gpuwcet.h"

namespace {

std::vector<std::string> command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* c : app.get_subcommands({})) names.push_back(c->get_name());
  return names;
}

// Exit code `code`, unless what was printed could not be written (a full
// disk): then 2 with a message, as for a file that cannot be written, so
// that a script does not read an empty result as success.
int after_output(int code) {
  std::cout.flush();
  if (std::cout) return code;
  std::cerr << "gpuwcet: error: cannot write the output to standard output\n";
  return 2;
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
  const std::vector<std::string> names = command_names(app);
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    std::cerr << "gpuwcet: error: unknown command '" << argv[1] << "' (commands: ";
    for (std::size_t k = 0; k < names.size(); ++k) std::cerr << (k ? ", " : "") << names[k];
    std::cerr << ")\nRun 'gpuwcet --help' or 'gpuwcet <command> --help'.\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here with exit code 0; a command line that
    // cannot be read fails like every other error: a message, exit code 2.
    if (e.get_exit_code() == 0) return after_output(app.exit(e));
    // Named like the commands' own errors ("gpuwcet inspect: error: ...")
    // when the parser had reached a command.
    std::string who = "gpuwcet";
    for (const CLI::App* command : app.get_subcommands()) who += " " + command->get_name();
    std::cerr << who << ": error: " << e.what()
              << "\nRun 'gpuwcet --help' or 'gpuwcet <command> --help'.\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "gpuwcet: error: out of memory: the input needs more memory than this "
                 "machine gives (a very large trace or search)\n";
    return 2;
  } catch (const std::exception& e) {
    // Each command reports its own errors (ToolError); anything else that
    // escapes is a defect of the tools, still reported as a failed run
    // rather than an abort.
    std::cerr << "gpuwcet: error: " << e.what() << '\n';
    return 2;
  }
  return after_output(exit_code);
}
