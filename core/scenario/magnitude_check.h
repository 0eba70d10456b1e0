#pragma once
// Finite inputs can still overflow float32 on the way (embeddings of 1e30, a scale of
// 3e38): the scores would become ±inf and the weights NaN. docs/design.md promises finite
// results, so such a Problem is refused up front, naming the largest culprit.

#include <string>

#include "core/scenario/problem.h"

namespace attnviz {

// Throws InputError(origin, pointer, problem) when Cauchy–Schwarz bounds on Q, K, V, the
// scaled scores or the output exceed float32's range.
void check_magnitudes(const Problem& problem, const std::string& origin);

}  // namespace attnviz
