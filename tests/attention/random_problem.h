#pragma once
// Seeded random Problems for parity tests: values from a fixed LCG so failures reproduce.

#include <cstdint>

#include "core/scenario/problem.h"

namespace attnviz::testing {

class TestRandom {
 public:
  explicit TestRandom(std::uint64_t seed) : state_(seed * 2862933555777941757ULL + 3037000493ULL) {}
  std::uint32_t next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state_ >> 33);
  }
  int between(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint32_t>(hi - lo + 1)); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() % 1000000u) / 1000000.0f; }
  bool coin() { return (next() & 1u) != 0; }

 private:
  std::uint64_t state_;
};

inline Matrix random_matrix(TestRandom& random, int rows, int cols, float amplitude) {
  Matrix m(rows, cols);
  for (float& v : m.data) v = random.uniform(-amplitude, amplitude);
  return m;
}

struct ProblemShape {
  int n = 5, m = 5, d_model = 4, heads = 2, kv_heads = 1, d_k = 3, d_v = 2;
  bool cross = false;
  bool with_wo = false;
  int d_out = 3;
  float scale = 0.5f;
  MaskSetting mask;
};

inline Problem random_problem(TestRandom& random, const ProblemShape& shape) {
  Problem p;
  for (int i = 0; i < shape.n; ++i) p.tokens.push_back("q" + std::to_string(i));
  p.cross_attention = shape.cross;
  const int m = shape.cross ? shape.m : shape.n;
  for (int j = 0; j < m; ++j)
    p.source_tokens.push_back(shape.cross ? "k" + std::to_string(j) : p.tokens[static_cast<std::size_t>(j)]);
  p.x = random_matrix(random, shape.n, shape.d_model, 1.0f);
  p.xs = shape.cross ? random_matrix(random, m, shape.d_model, 1.0f) : p.x;
  p.num_heads = shape.heads;
  p.num_kv_heads = shape.kv_heads;
  p.d_k = shape.d_k;
  p.d_v = shape.d_v;
  p.wq = random_matrix(random, shape.d_model, shape.heads * shape.d_k, 1.0f);
  p.wk = random_matrix(random, shape.d_model, shape.kv_heads * shape.d_k, 1.0f);
  p.wv = random_matrix(random, shape.d_model, shape.kv_heads * shape.d_v, 1.0f);
  if (shape.with_wo) p.wo = random_matrix(random, shape.heads * shape.d_v, shape.d_out, 1.0f);
  p.scale = shape.scale;
  p.mask = shape.mask;
  return p;
}

}  // namespace attnviz::testing
