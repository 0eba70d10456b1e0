#pragma once
// Long texts for the overview: the Problem of a sentence beyond the materialised path's 4,096
// tokens (to kMaxOverviewTokens), which only the overview computes: it never holds the
// H × N × M scores and weights the dense path keeps.

#include <string>

#include "core/scenario/problem.h"
#include "core/scenario/scenario.h"

namespace attnviz::overview {

// Limits for a Problem only the overview computes: up to kMaxOverviewTokens tokens, and no
// bound on H × N × M.
ProblemLimits overview_limits();

// build_problem with overview_limits(); errors name `origin` as build_problem's do.
Problem build_overview_problem(const Scenario& scenario, const std::string& origin);

// A text file made a scenario's sentence (with_sentence) and not longer than the overview takes.
// Throws InputError(path, "", ...) for one with more than kMaxOverviewTokens tokens, saying how
// many bytes its first kMaxOverviewTokens tokens take and how to keep just them; any other
// problem of the text (not UTF-8) is build_problem's to report.
void require_overview_length(const Scenario& scenario, const std::string& path);

}  // namespace attnviz::overview
