#include "core/scenario/scenario_tokens.h"

#include "core/scenario/problem.h"

namespace attnviz {

Scenario with_sentence(Scenario scenario, std::string text) {
  scenario.sentence = std::move(text);
  scenario.tokens.reset();
  scenario.embeddings.reset();
  return scenario;
}

bool fits_materialised(int n, int m) {
  const ProblemLimits dense;
  return n <= dense.max_tokens && m <= dense.max_tokens;
}

bool ScenarioTokens::only_the_overview_shows() const {
  const int n = query_count();
  const int m = key_count();
  return !fits_materialised(n, m) && n <= kMaxSentenceTokens && m <= kMaxSentenceTokens;
}

ScenarioTokens scenario_tokens(const Scenario& scenario) {
  ScenarioTokens out;
  out.queries = text_tokens(scenario.sentence, scenario.tokenizer, scenario.tokens);
  if (scenario.source)
    out.source = text_tokens(scenario.source->sentence, scenario.source->tokenizer, scenario.source->tokens);
  return out;
}

bool only_the_overview_shows(const Scenario& scenario) { return scenario_tokens(scenario).only_the_overview_shows(); }

}  // namespace attnviz
