#pragma once
// Seeded random Problems for the Vulkan parity tests (a fixed LCG, so failures reproduce on
// every platform), and the comparison against the Eigen path.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/attention/compare.h"
#include "core/scenario/problem.h"

namespace attnviz::testing {

class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
  std::uint32_t next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state_ >> 33);
  }
  int between(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint32_t>(hi - lo + 1)); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() % 1000001u) / 1000000.0f; }
  bool chance(int percent) { return static_cast<int>(next() % 100u) < percent; }

 private:
  std::uint64_t state_;
};

struct Shape {
  int n = 4, m = 4, d_model = 4, heads = 1, kv_heads = 1, d_k = 4, d_v = 4;
  bool cross = false;
  int d_out = 0;  // > 0: with W_O of d_out columns
  float scale = 0.5f;
  MaskSetting mask;
};

inline Matrix random_matrix(Lcg& random, int rows, int cols, float amplitude) {
  Matrix m(rows, cols);
  for (float& v : m.data) v = random.uniform(-amplitude, amplitude);
  return m;
}

inline Problem make_problem(Lcg& random, const Shape& s, float amplitude = 1.0f) {
  Problem p;
  for (int i = 0; i < s.n; ++i) p.tokens.push_back("q" + std::to_string(i));
  const int m = s.cross ? s.m : s.n;
  for (int j = 0; j < m; ++j)
    p.source_tokens.push_back(s.cross ? "k" + std::to_string(j) : p.tokens[static_cast<std::size_t>(j)]);
  p.cross_attention = s.cross;
  p.x = random_matrix(random, s.n, s.d_model, amplitude);
  p.xs = s.cross ? random_matrix(random, m, s.d_model, amplitude) : p.x;
  p.num_heads = s.heads;
  p.num_kv_heads = s.kv_heads;
  p.d_k = s.d_k;
  p.d_v = s.d_v;
  p.wq = random_matrix(random, s.d_model, s.heads * s.d_k, amplitude);
  p.wk = random_matrix(random, s.d_model, s.kv_heads * s.d_k, amplitude);
  p.wv = random_matrix(random, s.d_model, s.kv_heads * s.d_v, amplitude);
  if (s.d_out > 0) p.wo = random_matrix(random, s.heads * s.d_v, s.d_out, amplitude);
  p.scale = s.scale;
  p.mask = s.mask;
  return p;
}

inline std::string describe(const Shape& s) {
  std::string text = "N=" + std::to_string(s.n) + " M=" + std::to_string(s.cross ? s.m : s.n) +
                     " d_model=" + std::to_string(s.d_model) + " H=" + std::to_string(s.heads) +
                     " G=" + std::to_string(s.kv_heads) + " d_k=" + std::to_string(s.d_k) +
                     " d_v=" + std::to_string(s.d_v) + " d_out=" + std::to_string(s.d_out) +
                     " scale=" + std::to_string(s.scale) + (s.mask.causal ? " causal" : "");
  if (s.mask.window) text += " window=" + std::to_string(*s.mask.window);
  for (int g : s.mask.global) text += " g" + std::to_string(g);
  return text;
}

// Weights within max_abs; scores, contexts and output within `relative`, absolute up to 1 and
// relative to the matrix's largest entry beyond (MatrixDifference::agrees: summation orders
// and FMA differ between Eigen and the shaders).
inline void expect_close(const Result& vulkan, const Result& cpu, double weights_abs, double relative,
                         const std::string& what) {
  EXPECT_EQ(vulkan.mask, cpu.mask) << what;
  EXPECT_EQ(vulkan.masked_rows, cpu.masked_rows) << what;
  for (const MatrixDifference& d : compare_results(vulkan, cpu)) {
    const bool weights = d.name.find("weights") != std::string::npos;
    if (weights) {
      EXPECT_LE(d.max_abs, weights_abs) << what << ": " << d.name << " at (" << d.row << ", " << d.col << ")";
    } else {
      EXPECT_TRUE(d.agrees(relative)) << what << ": " << d.name << " max_abs " << d.max_abs << ", largest " << d.largest
                                      << " at (" << d.row << ", " << d.col << ")";
    }
  }
}

}  // namespace attnviz::testing
