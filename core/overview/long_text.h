#pragma once
// Long texts for the overview: a text file read as a scenario's sentence, and the Problem of a
// sentence beyond the materialised path's 4,096 tokens (to kMaxOverviewTokens), which only the
// overview computes: it never holds the H × N × M scores and weights the dense path keeps.

#include <optional>
#include <string>
#include <vector>

#include "core/overview/overview.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario.h"

namespace attnviz::overview {

// The largest text file taken (a 65,536-token text is well under 1 MiB).
inline constexpr std::size_t kMaxTextFileBytes = std::size_t{64} << 20;

// The whole file as text. Throws InputError(path, "", problem) when it is missing, a folder,
// unreadable, larger than kMaxTextFileBytes or empty. (UTF-8 is checked by the tokenizer, which
// names the byte offset of a bad byte.)
std::string read_text_file(const std::string& path);

// `scenario` with `text` as its sentence: explicit tokens and embeddings are dropped (they
// belonged to the old sentence; embeddings are generated per token from the seed), and global
// token indices past the new sentence's end are kept for build_problem to report.
Scenario with_sentence(Scenario scenario, std::string text);

// Limits for a Problem only the overview computes: up to kMaxOverviewTokens tokens, and no
// bound on H × N × M.
ProblemLimits overview_limits();

// build_problem with overview_limits(); errors name `origin` as build_problem's do.
Problem build_overview_problem(const Scenario& scenario, const std::string& origin);

// Does the materialised path (ProblemLimits{}) take this many query and key tokens?
bool fits_materialised(int n, int m);

// A sentence's tokens as the window lists them: its listed tokens, else its text tokenized, up
// to a limit (kMaxOverviewTokens unless asked); or why the text cannot be split (too many
// tokens, not UTF-8).
struct TextTokens {
  std::vector<std::string> tokens;
  std::string error;             // "" when fine
  std::size_t error_offset = 0;  // byte offset of the problem in the text
  bool explicit_tokens = false;  // the scenario lists its tokens; the text is a caption
  bool too_long = false;         // the error is that it has more than `limit`
  int limit = kMaxOverviewTokens;
  // The count up to limit + 1: a text that cannot be split gives that (building its problem
  // says why).
  [[nodiscard]] int count() const;
};
TextTokens text_tokens(std::string_view text, TokenizerMode mode, const std::optional<std::vector<std::string>>& listed,
                       int limit = kMaxOverviewTokens);

// The part of `text` the overview takes: the whole text, or for one with more than
// tokens.limit tokens (`tokens.too_long`, tokens being text_tokens of this text) the bytes
// before the first token past the limit, which hold exactly tokens.limit tokens.
std::string_view overview_part(std::string_view text, const TextTokens& tokens);

// "head -c BYTES 'PATH' > first-part.txt": the shell command that keeps the first tokens.limit
// tokens of `text` (the file at `path`), tokens being text_tokens of it with `too_long` set.
std::string keep_first_tokens_command(std::string_view text, const TextTokens& tokens, const std::string& path);

// A text file made a scenario's sentence (with_sentence) and not longer than the overview takes.
// Throws InputError(path, "", ...) for one with more than kMaxOverviewTokens tokens, saying how
// many bytes its first kMaxOverviewTokens tokens take and how to keep just them; any other
// problem of the text (not UTF-8) is build_problem's to report.
void require_overview_length(const Scenario& scenario, const std::string& path);

// A scenario's query tokens and, with cross-attention, its source's (the keys).
struct ScenarioTokens {
  TextTokens queries;
  std::optional<TextTokens> source;

  [[nodiscard]] int query_count() const { return queries.count(); }
  [[nodiscard]] int key_count() const { return source ? source->count() : queries.count(); }
  // Past the materialised path's 4,096 tokens (queries or keys) and within the overview's: a
  // text only the overview shows.
  [[nodiscard]] bool only_the_overview_shows() const;
};
ScenarioTokens scenario_tokens(const Scenario& scenario);

// scenario_tokens(scenario).only_the_overview_shows().
bool only_the_overview_shows(const Scenario& scenario);

}  // namespace attnviz::overview
