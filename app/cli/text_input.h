#pragma once
// The scenario a command computes: --scenario FILE, its sentence replaced by the text of
// --text-file when given (then --scenario may be left out: the default scenario's settings).

#include <ostream>
#include <string>

#include "app/cli/args.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario.h"

namespace attnviz::cli {

// The --help lines of --text-file, their descriptions starting at `column`.
std::string text_file_help(std::size_t column);

struct CommandScenario {
  Scenario scenario;
  std::string origin;  // the file errors name: the text file when given, else the scenario
  bool from_text_file = false;
};

// Reads --scenario and --text-file (at least one is required), writing the scenario's
// warnings to `err`. A text file with more than `max_tokens` tokens (the command's own limit:
// ProblemLimits{}.max_tokens for compute and export, kMaxOverviewTokens for export --overview)
// is refused naming that limit and the head -c command that keeps as many tokens, and, for a
// command that holds every N × N matrix, export --overview when it would take the whole text.
// Throws InputError naming the option or the file.
CommandScenario load_command_scenario(const ParsedArgs& parsed, std::ostream& err, int max_tokens);

// build_problem for the materialised path (its errors name the scenario or the text file).
Problem build_command_problem(const CommandScenario& loaded);

}  // namespace attnviz::cli
