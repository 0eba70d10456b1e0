#pragma once
// An independent float64 attention, written from docs/design.md with plain loops: the reference
// the Eigen (and Vulkan) paths are checked against. It shares no code with core/ beyond the
// Problem struct, so a bug in core's mask or softmax cannot hide in both.

#include <cmath>
#include <vector>

#include "core/scenario/problem.h"

namespace attnviz::testing {

struct ReferenceHead {
  std::vector<std::vector<double>> scores, weights, context;
};

struct ReferenceResult {
  std::vector<std::vector<int>> mask;
  std::vector<ReferenceHead> heads;
  std::vector<std::vector<double>> output;
};

inline bool reference_visible(const MaskSetting& mask, int i, int j) {
  bool global = false;
  for (int g : mask.global) global = global || g == i || g == j;
  const bool in_window = !mask.window || std::abs(i - j) <= *mask.window || global;
  return in_window && (!mask.causal || j <= i);
}

// (rows × inner) · (inner × cols) from a column slice [col0, col0 + cols) of b.
inline std::vector<std::vector<double>> product(const Matrix& a, const Matrix& b, int col0, int cols) {
  std::vector<std::vector<double>> out(static_cast<std::size_t>(a.rows),
                                       std::vector<double>(static_cast<std::size_t>(cols)));
  for (int r = 0; r < a.rows; ++r)
    for (int c = 0; c < cols; ++c) {
      double sum = 0.0;
      for (int k = 0; k < a.cols; ++k) sum += static_cast<double>(a.at(r, k)) * static_cast<double>(b.at(k, col0 + c));
      out[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = sum;
    }
  return out;
}

inline ReferenceResult reference_attention(const Problem& p) {
  const int n = p.x.rows, m = p.xs.rows;
  ReferenceResult result;
  result.mask.assign(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(m)));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      result.mask[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = reference_visible(p.mask, i, j);

  std::vector<std::vector<double>> concat(static_cast<std::size_t>(n));
  for (int h = 0; h < p.num_heads; ++h) {
    const int g = h / (p.num_heads / p.num_kv_heads);
    const auto q = product(p.x, p.wq, h * p.d_k, p.d_k);
    const auto k = product(p.xs, p.wk, g * p.d_k, p.d_k);
    const auto v = product(p.xs, p.wv, g * p.d_v, p.d_v);
    ReferenceHead head;
    head.scores.assign(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(m)));
    head.weights = head.scores;
    head.context.assign(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(p.d_v)));
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      double row_max = -INFINITY;
      for (int j = 0; j < m; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        double s = 0.0;
        for (int d = 0; d < p.d_k; ++d) s += q[ui][static_cast<std::size_t>(d)] * k[uj][static_cast<std::size_t>(d)];
        head.scores[ui][uj] = s;
        if (result.mask[ui][uj]) row_max = std::fmax(row_max, static_cast<double>(p.scale) * s);
      }
      double sum = 0.0;
      for (int j = 0; j < m; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        head.weights[ui][uj] =
            result.mask[ui][uj] ? std::exp(static_cast<double>(p.scale) * head.scores[ui][uj] - row_max) : 0.0;
        sum += head.weights[ui][uj];
      }
      for (int j = 0; j < m; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        if (sum > 0.0) head.weights[ui][uj] /= sum;
        for (int d = 0; d < p.d_v; ++d)
          head.context[ui][static_cast<std::size_t>(d)] += head.weights[ui][uj] * v[uj][static_cast<std::size_t>(d)];
      }
      concat[ui].insert(concat[ui].end(), head.context[ui].begin(), head.context[ui].end());
    }
    result.heads.push_back(std::move(head));
  }
  if (!p.wo) {
    result.output = concat;
    return result;
  }
  result.output.assign(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(p.wo->cols)));
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < p.wo->cols; ++c)
      for (int k = 0; k < p.wo->rows; ++k)
        result.output[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)] +=
            concat[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)] * static_cast<double>(p.wo->at(k, c));
  return result;
}

}  // namespace attnviz::testing
