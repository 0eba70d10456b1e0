#include "app/cli/heads_options.h"

#include <climits>

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"

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

model::ForwardResult run_keeping_stream(const model::Model& model, const tokenizers::Encoding& text,
                                        bool keep_attention) {
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(model, *backend);
  model::ForwardOptions options;
  // emplace, not `= std::vector<int>{}`: GCC 12's sanitizer build warns (wrongly) that the
  // optional's empty vector may be read uninitialised when a temporary is moved in.
  if (!keep_attention) options.layers.emplace();
  options.keep_stream = true;
  options.predict = false;
  return pass.run(text, options);
}

}  // namespace attnviz::cli
