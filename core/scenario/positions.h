#pragma once
// Where positions enter attention (docs/design.md "Positions"): the sinusoidal table added to
// the embeddings, RoPE's rotation of each head's q and k, ALiBi's bias on the scaled scores.
// Every path (the Eigen and Vulkan backends, the tiled kernels, decoding, the lesson) takes
// its tables from here, so they all rotate and bias by identical float32 numbers: angles, sines
// and cosines are computed in float64 and rounded once.

#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include "core/common/matrix.h"
#include "core/scenario/scenario.h"

namespace attnviz {

struct Problem;

const char* to_string(PositionalKind kind);  // "none", "sinusoidal", "rope", "alibi"
std::optional<PositionalKind> positional_kind_from_string(std::string_view name);

// The sinusoidal table of Vaswani et al. 2017 for positions first … first + count − 1:
//   PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)).
// With an odd d_model the last column 2i = d_model − 1 is a sine whose cosine partner would
// be column d_model, which does not exist: it stays a sine.
Matrix sinusoidal_table(int first_position, int count, int d_model);

// RoPE's frequencies: θ^(−2i/d_k) for the pairs i = 0 … d_k/2 − 1 (d_k even).
std::vector<double> rope_frequencies(int d_k, double theta);

// RoPE's table for positions first … first + count − 1: row r holds cos(pos·f_i) for the d_k/2
// pairs, then sin(pos·f_i) (pos = first + r). d_k must be even.
Matrix rope_table(int first_position, int count, int d_k, double theta);

// Hugging Face Llama's rotate-half, in place on one row of d_k values: the pair (x_i, x_{i+h})
// (h = d_k/2) turns by the angle of pair i:
//   x_i' = x_i·cos − x_{i+h}·sin,   x_{i+h}' = x_{i+h}·cos + x_i·sin.
// `table_row` is a row of rope_table.
void rope_rotate(float* row, const float* table_row, int d_k);

// ALiBi's slope of query head h of H (Press et al. 2022): 2^(−8(h+1)/H) when H is a power of two;
// otherwise the H' = 2^floor(log2 H) slopes of H', then every other slope of 2H' (the first,
// third, …) for the H − H' heads left.
double alibi_slope(int head, int heads);

// ALiBi's bias of query i and key j: −slope·|i − j| (with a causal mask every visible j ≤ i, so
// this is −slope·(i − j)). Added to the scaled scores.
inline float alibi_bias(float slope, int i, int j) { return -slope * static_cast<float>(std::abs(i - j)); }

// Per query head, the slope the kernels bias by: ALiBi's, or 0 (no bias) for any other kind.
std::vector<float> head_slopes(const Problem& problem);

// The RoPE table the problem's q and k rows are rotated by: row r for query row r and key row
// r, at position position_offset + r; max(N, M) rows. Empty unless positional is RoPE.
Matrix problem_rope_table(const Problem& problem);

// The scaled score the softmax sees: scale · raw + ALiBi's bias (0 without ALiBi).
inline float scaled_score(float raw, float scale, float slope, int i, int j) {
  return scale * raw + alibi_bias(slope, i, j);
}

}  // namespace attnviz
