#pragma once
// The textbook triple-loop attention, single-threaded, as a baseline for the benchmark (not a
// reference for tests: the tests use float64 fixtures and the Eigen path).

#include <cmath>
#include <limits>

#include "core/attention/mask.h"
#include "core/attention/result.h"
#include "core/scenario/problem.h"

namespace attnviz::bench {

inline Matrix naive_product(const Matrix& a, const Matrix& b, int b_col0, int b_cols) {
  Matrix out(a.rows, b_cols);
  for (int i = 0; i < a.rows; ++i) {
    for (int j = 0; j < b_cols; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < a.cols; ++k) sum += a.at(i, k) * b.at(k, b_col0 + j);
      out.at(i, j) = sum;
    }
  }
  return out;
}

inline Result naive_attention(const Problem& p) {
  Result r;
  r.backend = "naive";
  r.mask = build_mask(p.mask, p.n(), p.m());
  r.masked_rows = fully_masked_rows(r.mask);
  r.output = Matrix(p.n(), p.num_heads * p.d_v);
  for (int h = 0; h < p.num_heads; ++h) {
    const int g = p.kv_head_of(h);
    const Matrix q = naive_product(p.x, p.wq, h * p.d_k, p.d_k);
    const Matrix k = naive_product(p.xs, p.wk, g * p.d_k, p.d_k);
    const Matrix v = naive_product(p.xs, p.wv, g * p.d_v, p.d_v);
    HeadResult head{Matrix(p.n(), p.m()), Matrix(p.n(), p.m()), Matrix(p.n(), p.d_v), {}, {}};
    for (int i = 0; i < p.n(); ++i) {
      float row_max = -std::numeric_limits<float>::infinity();
      for (int j = 0; j < p.m(); ++j) {
        float s = 0.0f;
        for (int c = 0; c < p.d_k; ++c) s += q.at(i, c) * k.at(j, c);
        head.scores.at(i, j) = s;
        if (r.mask.at(i, j)) row_max = std::max(row_max, p.scale * s);
      }
      float sum = 0.0f;
      for (int j = 0; j < p.m(); ++j) {
        const float e = r.mask.at(i, j) ? std::exp(p.scale * head.scores.at(i, j) - row_max) : 0.0f;
        head.weights.at(i, j) = e;
        sum += e;
      }
      for (int j = 0; j < p.m(); ++j) head.weights.at(i, j) = sum > 0.0f ? head.weights.at(i, j) / sum : 0.0f;
      for (int j = 0; j < p.m(); ++j) {
        const float w = head.weights.at(i, j);
        for (int c = 0; c < p.d_v; ++c) head.context.at(i, c) += w * v.at(j, c);
      }
      for (int c = 0; c < p.d_v; ++c) r.output.at(i, h * p.d_v + c) = head.context.at(i, c);
    }
    r.heads.push_back(std::move(head));
  }
  return r;
}

}  // namespace attnviz::bench
