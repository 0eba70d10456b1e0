#pragma once
// Q, K and V of a Problem. The backends never hand these out (a Result keeps only scores,
// weights and contexts), so the lesson computes them itself, the same way the Eigen path
// does: one float32 GEMM per projection, then with RoPE each head's q and k rows turned at
// their positions (core/scenario/positions.h), as the scores use them.

#include "core/common/matrix.h"
#include "core/scenario/problem.h"

namespace attnviz::lesson {

struct Projections {
  Matrix q;  // N × (H·d_k)  = X  · W_Q, turned by RoPE with RoPE
  Matrix k;  // M × (G·d_k)  = Xs · W_K, turned by RoPE with RoPE
  Matrix v;  // M × (G·d_v)  = Xs · W_V
  // With RoPE only: X·W_Q and Xs·W_K before the rotation (empty otherwise).
  Matrix q_unrotated;
  Matrix k_unrotated;
};

Projections compute_projections(const Problem& problem);

// One head's slices: Q_h (N × d_k), K_g and V_g of its key/value head g (M × d_k, M × d_v).
struct HeadProjections {
  Matrix q;
  Matrix k;
  Matrix v;
  Matrix q_unrotated;  // with RoPE only
  Matrix k_unrotated;
};

HeadProjections head_projections(const Problem& problem, const Projections& all, int head);

// Columns [first, first + count) of `matrix`.
Matrix column_block(const Matrix& matrix, int first, int count);

// [C_0 | C_1 | … ]: the heads' contexts side by side (N × H·d_v).
Matrix concatenate_columns(const std::vector<const Matrix*>& blocks);

}  // namespace attnviz::lesson
