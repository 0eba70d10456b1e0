#pragma once
// A scenario's sentence and its tokens: a new sentence put in, the query tokens and (with
// cross-attention) the source's key tokens counted, and whether the materialised matrices take
// that many or only the overview does.

#include <optional>
#include <string>

#include "core/scenario/scenario.h"
#include "core/text/sentence_tokens.h"

namespace attnviz {

// `scenario` with `text` as its sentence: explicit tokens and embeddings are dropped (they
// belonged to the old sentence; embeddings are generated per token from the seed), and global
// token indices past the new sentence's end are kept for build_problem to report.
Scenario with_sentence(Scenario scenario, std::string text);

// Does the materialised path (ProblemLimits{}) take this many query and key tokens?
bool fits_materialised(int n, int m);

// A scenario's query tokens and, with cross-attention, its source's (the keys).
struct ScenarioTokens {
  TextTokens queries;
  std::optional<TextTokens> source;

  [[nodiscard]] int query_count() const { return queries.count(); }
  [[nodiscard]] int key_count() const { return source ? source->count() : queries.count(); }
  // Past the materialised path's 4,096 tokens (queries or keys) and within kMaxSentenceTokens:
  // a text only the overview shows.
  [[nodiscard]] bool only_the_overview_shows() const;
};
ScenarioTokens scenario_tokens(const Scenario& scenario);

// scenario_tokens(scenario).only_the_overview_shows().
bool only_the_overview_shows(const Scenario& scenario);

}  // namespace attnviz
