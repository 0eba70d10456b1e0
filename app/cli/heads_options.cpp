#include "app/cli/heads_options.h"

#include <climits>

#include "core/common/error.h"

namespace attnviz::cli {

std::vector<OptionSpec> heads_option_specs(const std::vector<OptionSpec>& own) {
  std::vector<OptionSpec> specs = {{"--model"}, {"--memory-limit"}, {"--out"}, {"--help", false}};
  specs.insert(specs.end(), own.begin(), own.end());
  return specs;
}

void reject_positionals(const ParsedArgs& parsed, const std::string& command) {
  if (parsed.positionals().empty()) return;
  throw InputError("<command line>", parsed.positionals().front(),
                   "unexpected argument (see attnviz " + command + " --help)");
}

std::optional<int> target_id_option(const ParsedArgs& parsed) { return parsed.get_int("--target-id", 0, INT_MAX); }

std::optional<int> position_option(const ParsedArgs& parsed) { return parsed.get_int("--position", 0, INT_MAX); }

}  // namespace attnviz::cli
