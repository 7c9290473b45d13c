// Each `gpuwcet` subcommand registers itself on the application.
#pragma once

#include <CLI/CLI.hpp>

namespace gpuwcet::cli {

// `exit_code` receives the command's exit status once it has run.
void add_makespan_command(CLI::App& app, int& exit_code);
void add_profile_commands(CLI::App& app, int& exit_code);  // compile, inspect
void add_block_commands(CLI::App& app, int& exit_code);    // phases, block-wcet, simulate

}  // namespace gpuwcet::cli
