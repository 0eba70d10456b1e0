#include "app/cli/text_input.h"

#include <filesystem>

#include "core/common/error.h"
#include "core/overview/long_text.h"
#include "core/scenario/scenario_tokens.h"
#include "core/text/text_file.h"
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

namespace {

// A text past a dense command's limit: the limit that command has, the cut that command takes,
// and the overview when it would take the whole text (a cut to 65,536 tokens would be refused
// here again).
void require_dense_length(const Scenario& scenario, const std::string& path, int max_tokens) {
  const TextTokens first = text_tokens(scenario.sentence, scenario.tokenizer, scenario.tokens, max_tokens);
  if (!first.too_long) return;
  const TextTokens all = text_tokens(scenario.sentence, scenario.tokenizer, scenario.tokens);
  const std::string overview_limit = std::to_string(overview::kMaxOverviewTokens);
  const std::string count = all.too_long ? "more than " + overview_limit : std::to_string(all.tokens.size());
  const std::string limit = std::to_string(max_tokens);
  throw InputError(
      path, "--text-file",
      "has " + count + " tokens; this command holds every N × N matrix and takes at most " + limit + " (" +
          keep_first_tokens_command(scenario.sentence, first, path) + " keeps the first " + limit + ")" +
          (all.too_long ? "; attnviz export --overview PIXELS maps up to " + overview_limit + " tokens"
                        : "; attnviz export --overview PIXELS maps all of them (up to " + overview_limit + ")"));
}

}  // namespace

CommandScenario load_command_scenario(const ParsedArgs& parsed, std::ostream& err, int max_tokens) {
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
    loaded.scenario = with_sentence(std::move(loaded.scenario), read_text_file(*text_path));
    if (max_tokens >= overview::kMaxOverviewTokens)
      overview::require_overview_length(loaded.scenario, *text_path);
    else
      require_dense_length(loaded.scenario, *text_path, max_tokens);
    // Named by its file, as File ▸ Open text… names it in the window: figures take it as their
    // title (a scenario's own title described its own sentence: "8 tokens" over 6,000).
    loaded.scenario.title = std::filesystem::path(*text_path).filename().string();
    loaded.origin = *text_path;
    loaded.from_text_file = true;
  }
  return loaded;
}

Problem build_command_problem(const CommandScenario& loaded) { return build_problem(loaded.scenario, loaded.origin); }

}  // namespace attnviz::cli
