#pragma once
// The problems the tiled algorithm is held to on both backends (tests/tiled for the CPU,
// tests/gpu for Vulkan): every mask kind, MHA / GQA / MQA, cross-attention in both directions,
// rows that see nothing, and tile sizes that divide N, that do not, of 1, and beyond N.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/attention/result.h"
#include "core/scenario/problem.h"
#include "tests/attention/random_problem.h"

namespace attnviz::testing {

struct TiledCase {
  std::string name;
  ProblemShape shape;
};

inline MaskSetting mask_of(bool causal, std::optional<int> window = std::nullopt, std::vector<int> global = {}) {
  MaskSetting mask;
  mask.causal = causal;
  mask.window = window;
  mask.global = std::move(global);
  return mask;
}

inline MaskSetting expression_mask(MaskSetting fields, std::string expression, std::vector<int> documents = {}) {
  fields.expression = std::move(expression);
  fields.documents = std::move(documents);
  return fields;
}

// Masks of every kind: none, causal, symmetric and causal windows, Longformer globals with and
// without causal, globals at both edges; expressions (docs/design.md "Mask expressions"):
// sinks, strided, documents, one that depends on the head, one ANDed with a window.
inline std::vector<std::pair<std::string, MaskSetting>> every_mask_kind() {
  return {{"none", mask_of(false)},
          {"causal", mask_of(true)},
          {"window2", mask_of(false, 2)},
          {"window0", mask_of(false, 0)},
          {"sliding3", mask_of(true, 3)},
          {"longformer", mask_of(false, 1, {0, 7})},
          {"longformer-causal", mask_of(true, 2, {0, 5})},
          {"globals-at-the-ends", mask_of(false, 0, {0, 12})},
          {"sinks-expression", expression_mask(mask_of(false), "k <= q && (k < 2 || q - k <= 3)")},
          {"strided-expression", expression_mask(mask_of(false), "k <= q && (q - k < 3 || (q - k) % 3 == 0)")},
          {"documents-expression", expression_mask(mask_of(false), "doc(q) == doc(k)", {0, 4, 9})},
          {"head-expression", expression_mask(mask_of(false), "abs(q - k) <= h + 1 || k == 0")},
          {"window-and-expression", expression_mask(mask_of(false, 2), "(q + k) % 2 == 0 && k != 3")}};
}

// n queries over 3 keys (cross-attention) with a window of 1: rows 4.. are more than 1 away
// from every key, so they see nothing.
inline ProblemShape rows_past_the_keys(int n) {
  ProblemShape shape;
  shape.n = n;
  shape.m = 3;
  shape.cross = true;
  shape.mask = mask_of(false, 1);
  return shape;
}

// Shapes: 13 queries (a prime, so most block sizes do not divide it), MHA, GQA, MQA, and
// cross-attention with more and with fewer keys than queries.
inline std::vector<TiledCase> tiled_cases() {
  std::vector<TiledCase> cases;
  ProblemShape base;
  base.n = 13;
  base.m = 13;
  base.d_model = 6;
  base.d_k = 5;
  base.d_v = 3;
  base.scale = 0.6f;
  struct Heads {
    const char* name;
    int heads, kv_heads;
  };
  for (const Heads& h : {Heads{"mha", 2, 2}, Heads{"gqa", 4, 2}, Heads{"mqa", 3, 1}}) {
    for (const auto& [mask_name, mask] : every_mask_kind()) {
      ProblemShape s = base;
      s.heads = h.heads;
      s.kv_heads = h.kv_heads;
      s.mask = mask;
      cases.push_back({std::string(h.name) + "-" + mask_name, s});
    }
  }
  for (const int m : {5, 21}) {
    for (const auto& [mask_name, mask] : every_mask_kind()) {
      ProblemShape s = base;
      s.cross = true;
      s.m = m;
      s.heads = 2;
      s.kv_heads = 1;
      s.with_wo = true;
      s.mask = mask;
      cases.push_back({"cross" + std::to_string(m) + "-" + mask_name, s});
    }
  }
  return cases;
}

// (Br, Bc): dividing 13 neither, 1 × 1, a single tile, larger than N, and mixed.
inline std::vector<std::pair<int, int>> block_sizes() {
  return {{1, 1}, {4, 4}, {3, 5}, {13, 13}, {16, 32}, {5, 2}, {2, 8}};
}

inline double max_abs_difference(const Matrix& a, const Matrix& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  if (a.rows != b.rows || a.cols != b.cols) return INFINITY;
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(static_cast<double>(a.data[i]) - static_cast<double>(b.data[i]));
    worst = std::isnan(d) ? INFINITY : std::max(worst, d);
  }
  return worst;
}

}  // namespace attnviz::testing
