#include "app/cli/text_input.h"

#include <filesystem>

#include "core/common/error.h"
#include "core/overview/long_text.h"
#include "core/overview/overview.h"
#include "core/scenario/scenario_json.h"
#include "core/text/tokenizer.h"

namespace attnviz::cli {

std::string text_file_help(std::size_t column) {
  const std::string option = "  --text-file FILE";
  const std::string pad(column > option.size() ? column - option.size() : 1, ' ');
  const std::string indent(column, ' ');
  return option + pad + "the sentence is this UTF-8 text file's content; past 4096\n" + indent +
         "tokens only export --overview computes it (up to 65536)\n";
}

CommandScenario load_command_scenario(const ParsedArgs& parsed, std::ostream& err) {
  const std::optional<std::string> scenario_path = parsed.get("--scenario");
  const std::optional<std::string> text_path = parsed.get("--text-file");
  if (!scenario_path && !text_path) {
    throw InputError("<command line>", "--scenario", "is required (a file or preset:NAME), or --text-file FILE");
  }
  CommandScenario loaded;
  if (scenario_path) {
    LoadedScenario file = load_scenario(*scenario_path);
    for (const std::string& warning : file.warnings) err << "attnviz: warning: " << warning << "\n";
    loaded.scenario = std::move(file.scenario);
    loaded.origin = *scenario_path;
  }
  if (text_path) {
    if (text_path->empty()) throw InputError("<command line>", "--text-file", "needs a file name");
    loaded.scenario = overview::with_sentence(std::move(loaded.scenario), overview::read_text_file(*text_path));
    overview::require_overview_length(loaded.scenario, *text_path);
    // Named by its file, as File ▸ Open text… names it in the window: figures take it as their
    // title (a scenario's own title described its own sentence: "8 tokens" over 6,000).
    loaded.scenario.title = std::filesystem::path(*text_path).filename().string();
    loaded.origin = *text_path;
    loaded.from_text_file = true;
  }
  return loaded;
}

Problem build_command_problem(const CommandScenario& loaded) {
  if (loaded.from_text_file) {
    // Count first (up to the overview's limit), so that a long text gets advice, not only a limit.
    std::size_t count = 0;
    try {
      count = tokenize(loaded.scenario.sentence, loaded.scenario.tokenizer, overview::kMaxOverviewTokens).size();
    } catch (const TokenizerError&) {
      count = 0;  // build_problem reports it with the byte offset
    }
    const ProblemLimits dense;
    if (count > static_cast<std::size_t>(dense.max_tokens)) {
      throw InputError(loaded.origin, "--text-file",
                       "has " + std::to_string(count) + " tokens; this command holds every N × N matrix and takes at most " +
                           std::to_string(dense.max_tokens) + ": use attnviz export --overview PIXELS for a pooled map of up to " +
                           std::to_string(overview::kMaxOverviewTokens) + " tokens");
    }
  }
  return build_problem(loaded.scenario, loaded.origin);
}

}  // namespace attnviz::cli
