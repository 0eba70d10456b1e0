#pragma once
// Deterministic embeddings and weights: the same inputs give the same floats on every
// platform and standard library (no std::*_distribution, no libm transcendental calls whose
// last bit differs between libms). The recipe is documented in docs/design.md ("Generated values").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/matrix.h"

namespace attnviz {

// One token's embedding: d_model values ~ N(0, 1), depending only on (token, seed, d_model),
// so the same word gets the same vector in every sentence.
std::vector<float> generate_embedding(std::string_view token, std::uint64_t seed, int d_model);

// N × d_model, one generate_embedding row per token.
Matrix generate_embeddings(const std::vector<std::string>& tokens, std::uint64_t seed, int d_model);

// rows × cols ~ N(0, 1/rows) (so X·W keeps unit variance), depending only on
// (seed, name, rows, cols). Names used: "wq", "wk", "wv", "wo".
Matrix generate_weight(std::uint64_t seed, std::string_view name, int rows, int cols);

}  // namespace attnviz
