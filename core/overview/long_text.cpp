#include "core/overview/long_text.h"

#include <limits>

#include "core/common/error.h"
#include "core/overview/overview.h"
#include "core/text/sentence_tokens.h"

namespace attnviz::overview {

ProblemLimits overview_limits() {
  ProblemLimits limits;
  limits.max_tokens = kMaxOverviewTokens;
  limits.max_attention_cells = std::numeric_limits<long long>::max();
  return limits;
}

Problem build_overview_problem(const Scenario& scenario, const std::string& origin) {
  return build_problem(scenario, origin, overview_limits());
}

void require_overview_length(const Scenario& scenario, const std::string& path) {
  const TextTokens tokens = text_tokens(scenario.sentence, scenario.tokenizer, scenario.tokens, kMaxOverviewTokens);
  if (!tokens.too_long) return;
  const std::string bytes = std::to_string(part_within_limit(scenario.sentence, tokens).size());
  throw InputError(path, "",
                   tokens.error + ": its first " + std::to_string(kMaxOverviewTokens) + " tokens are its first " +
                       bytes + " bytes (" + keep_first_tokens_command(scenario.sentence, tokens, path) +
                       " keeps them; in the window File \u25B8 Open text\u2026 offers to open just them)");
}

}  // namespace attnviz::overview
