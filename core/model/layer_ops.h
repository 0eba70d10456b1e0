#pragma once
// The parts of a transformer layer besides attention, on the CPU with Eigen in float32: linear
// layers, LayerNorm and RMSNorm, the activations, RoPE. x is (N, d) row-major throughout.

#include <cstddef>
#include <vector>

#include "core/common/matrix.h"
#include "core/model/model_config.h"
#include "core/model/weights.h"

namespace attnviz::model {

// Whether every value is finite: the exponent bits tested as integers, so the loop vectorises
// (a pass over a matrix costs far less than the product that made it).
bool all_finite(const float* values, std::size_t count);
// The first row of `m` holding a value that is not finite (NaN, ±inf), or -1.
int first_non_finite_row(const Matrix& m);

// y = x·W (+ b): (N, in) → (N, out), whichever way W is stored.
void apply_linear(const Matrix& x, const Linear& w, Matrix& y);
// The same for rows [first, first + count) of x only.
void apply_linear_rows(const Matrix& x, int first, int count, const Linear& w, Matrix& y);

// (x − mean) / √(var + eps) · weight + bias per row (biased variance), or
// x / √(mean(x²) + eps) · weight for RMSNorm (norm.bias null).
void layer_norm(const Matrix& x, const Norm& norm, double eps, Matrix& y);
void rms_norm(const Matrix& x, const Norm& norm, double eps, Matrix& y);

void gelu_tanh(Matrix& x);  // GPT-2's "gelu_new": 0.5x(1 + tanh(√(2/π)(x + 0.044715x³)))
void gelu_erf(Matrix& x);   // BERT's: 0.5x(1 + erf(x/√2))
// SwiGLU's gate: gate ← silu(gate) ⊙ up
void silu_times(Matrix& gate, const Matrix& up);

// RoPE in Hugging Face's layout: in each head, dimension i pairs with i + d/2 and the pair at
// position p turns by p·ω_i. cos and sin: (N, d/2) from rope_tables.
void rope_tables(const RopeSettings& rope, int positions, Matrix& cos, Matrix& sin);
void apply_rope(Matrix& x, int heads, int head_dim, const Matrix& cos, const Matrix& sin);

// The inverse frequencies ω_i of a RopeSettings, i < dims/2 (θ^(−2i/d), scaled).
std::vector<double> rope_frequencies(const RopeSettings& rope);

}  // namespace attnviz::model
