// Each `gpuwcet` subcommand registers itself on the application.
#pragma once

#include <iostream>
#include <string_view>

#include <CLI/CLI.hpp>

namespace gpuwcet::cli {

// An option given to a run that does not use it is said to be ignored, not
// dropped silently: "note: OPTION is for USED_BY; RUN ignores it".
inline void note_ignored(std::string_view option, std::string_view used_by, std::string_view run) {
  std::cerr << "note: " << option << " is for " << used_by << "; " << run << " ignores it\n";
}

// `exit_code` receives the command's exit status once it has run.
void add_makespan_command(CLI::App& app, int& exit_code);
void add_profile_commands(CLI::App& app, int& exit_code);  // compile, inspect
void add_block_commands(CLI::App& app, int& exit_code);    // phases, block-wcet, simulate

}  // namespace gpuwcet::cli
