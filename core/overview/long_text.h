#pragma once
// Long texts for the overview: a text file read as a scenario's sentence, and the Problem of a
// sentence beyond the materialised path's 4,096 tokens (to kMaxOverviewTokens), which only the
// overview computes: it never holds the H × N × M scores and weights the dense path keeps.

#include <optional>
#include <string>
#include <vector>

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

// How many tokens a sentence has (its listed tokens, else `text` tokenized with `mode`),
// counted up to kMaxOverviewTokens + 1: a longer text, or one that is not UTF-8, gives that
// (building its problem says which).
int count_tokens(const std::string& text, TokenizerMode mode, const std::optional<std::vector<std::string>>& listed);

// Past the materialised path's 4,096 tokens (queries or keys) and within the overview's: a
// text only the overview shows.
bool only_the_overview_shows(const Scenario& scenario);

}  // namespace attnviz::overview
