#pragma once
// The checks a Scenario must pass whether it came from a file or from the window: dimensions,
// matrix shapes, finite values, mask settings. Token-dependent checks (embedding rows, global
// indices against N) happen in build_problem once the sentence is tokenized.

#include <string>

#include "core/scenario/scenario.h"

namespace attnviz {

// The largest "position_offset" (so that offset + 4096 tokens stays far inside int and float).
inline constexpr int kMaxPositionOffset = 1'000'000;

// Throws InputError(origin, json_pointer, problem) for the first problem found.
void check_scenario(const Scenario& scenario, const std::string& origin);

// "/wq: has shape 3×3 but needs d_model × (num_heads·d_k) = 3×2" style checks, shared with
// build_problem for the token-dependent shapes.
void check_matrix_shape(const Matrix& matrix, long long rows, long long cols, const std::string& origin,
                        const std::string& pointer, const std::string& rule);

// Every value finite; the pointer of the first bad one ("/embeddings/2/1") otherwise.
void check_finite(const Matrix& matrix, const std::string& origin, const std::string& pointer);

}  // namespace attnviz
