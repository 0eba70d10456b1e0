// Generated embeddings and weights: golden values from an independent Python implementation of
// the recipe in docs/design.md ("Generated values"), and the properties docs/design.md promises.

#include <gtest/gtest.h>

#include <cmath>

#include "core/scenario/generate.h"

namespace attnviz {
namespace {

TEST(Generate, EmbeddingMatchesTheDocumentedRecipe) {
  // python3: FNV-1a-64("attnviz-embedding" + le64(seed) + le64(d_model) + utf8(token)) seeds
  // SplitMix64; each value = sum of 12 (next() >> 40) · 2^-24 − 6, rounded to float32.
  EXPECT_EQ(generate_embedding("배", 1, 4),
            (std::vector<float>{-1.4695203304290771f, 0.2961711287498474f, 0.6192805171012878f, 1.0958911180496216f}));
  EXPECT_EQ(generate_embedding("dessert", 42, 3),
            (std::vector<float>{0.06779748201370239f, -0.35796213150024414f, 0.10245788097381592f}));
}

TEST(Generate, WeightMatchesTheDocumentedRecipe) {
  const Matrix w = generate_weight(7, "wq", 4, 2);
  ASSERT_EQ(w.rows, 4);
  ASSERT_EQ(w.cols, 2);
  EXPECT_EQ(w.data, (std::vector<float>{0.03187420964241028f, 0.5352328419685364f, -0.7884294986724854f,
                                        -0.11767664551734924f, -0.10939070582389832f, 0.34399136900901794f,
                                        -0.8103539347648621f, 0.016999661922454834f}));
}

TEST(Generate, SameWordSameVectorInTwoSentences) {
  const Matrix a = generate_embeddings({"I", "ate", "chicken"}, 5, 16);
  const Matrix b = generate_embeddings({"chicken", "is", "good"}, 5, 16);
  EXPECT_TRUE(std::equal(a.row(2), a.row(2) + 16, b.row(0)));
  EXPECT_FALSE(std::equal(a.row(0), a.row(0) + 16, b.row(1)));
}

TEST(Generate, DifferentSeedsGiveDifferentValues) {
  EXPECT_NE(generate_embedding("chicken", 1, 8), generate_embedding("chicken", 2, 8));
  EXPECT_NE(generate_weight(1, "wq", 8, 8).data, generate_weight(2, "wq", 8, 8).data);
  EXPECT_NE(generate_weight(1, "wq", 8, 8).data, generate_weight(1, "wk", 8, 8).data);
}

TEST(Generate, WeightsHaveVarianceOneOverRows) {
  const Matrix w = generate_weight(3, "wv", 64, 256);
  double sum = 0.0, sum_sq = 0.0;
  for (const float v : w.data) sum += v, sum_sq += static_cast<double>(v) * v;
  const double n = static_cast<double>(w.size());
  const double mean = sum / n;
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(sum_sq / n - mean * mean, 1.0 / 64.0, 0.1 / 64.0);
}

}  // namespace
}  // namespace attnviz
