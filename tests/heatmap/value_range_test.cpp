#include "app/heatmap/value_range.h"

#include <gtest/gtest.h>

#include <limits>

namespace attnviz::heatmap {
namespace {

TEST(SymmetricRange, CentredOnZeroOverTheVisibleScaledValues) {
  Matrix m(2, 2);
  m.data = {1.0f, -4.0f, 2.0f, 0.5f};
  ValueRange r = symmetric_range(m);
  EXPECT_FLOAT_EQ(r.min, -4.0f);
  EXPECT_FLOAT_EQ(r.max, 4.0f);
  r = symmetric_range(m, 0.5f);
  EXPECT_FLOAT_EQ(r.max, 2.0f);
  MaskMatrix mask{2, 2, {1, 0, 1, 1}};  // hides the -4
  r = symmetric_range(m, 1.0f, &mask);
  EXPECT_FLOAT_EQ(r.min, -2.0f);
  EXPECT_FLOAT_EQ(r.max, 2.0f);
}

TEST(SymmetricRange, NeverEmptyAndIgnoresNonFiniteValues) {
  const Matrix zeros(3, 3);
  EXPECT_FLOAT_EQ(symmetric_range(zeros).max, 1.0f);
  Matrix odd(1, 2);
  odd.data = {std::numeric_limits<float>::infinity(), 3.0f};
  EXPECT_FLOAT_EQ(symmetric_range(odd).max, 3.0f);
}

TEST(ZeroToMax, FromZeroToTheLargestWeight) {
  Matrix w(1, 3);
  w.data = {0.2f, 0.7f, 0.1f};
  EXPECT_FLOAT_EQ(zero_to_max(w).min, 0.0f);
  EXPECT_FLOAT_EQ(zero_to_max(w).max, 0.7f);
  EXPECT_FLOAT_EQ(zero_to_max(Matrix(2, 2)).max, 1.0f);
}

// The Korean worked example's weights, 0.120 to 0.131, are one flat block on 0 to 1: the
// heatmap says so (and offers 0 to the largest weight); a causal mask's weights are not.
TEST(NearlyUniform, WeightsSpanningATinyPartOfTheirColourRange) {
  Matrix korean(2, 3);
  korean.data = {0.120f, 0.131f, 0.125f, 0.129f, 0.122f, 0.124f};
  const std::optional<ValueRange> flat = nearly_uniform(korean, nullptr, {0.0f, 1.0f});
  ASSERT_TRUE(flat.has_value());
  EXPECT_FLOAT_EQ(flat->min, 0.120f);
  EXPECT_FLOAT_EQ(flat->max, 0.131f);
  EXPECT_FALSE(nearly_uniform(korean, nullptr, {0.0f, 0.131f}).has_value()) << "stretched, they vary";

  Matrix causal(2, 2);
  causal.data = {1.0f, 0.0f, 0.4f, 0.6f};
  const MaskMatrix mask{2, 2, {1, 0, 1, 1}};
  EXPECT_FALSE(nearly_uniform(causal, &mask, {0.0f, 1.0f}).has_value());
  // Only visible cells count: the masked 0 does not make uniform weights look varied.
  Matrix half(1, 3);
  half.data = {0.5f, 0.5f, 0.0f};
  const MaskMatrix hidden{1, 3, {1, 1, 0}};
  EXPECT_TRUE(nearly_uniform(half, &hidden, {0.0f, 1.0f}).has_value());
  EXPECT_FALSE(nearly_uniform(half, nullptr, {0.0f, 1.0f}).has_value());
  // One token, or a mask that leaves each row a single key: every weight is 1, already the
  // top of the colours; there is nothing to stretch.
  Matrix ones(2, 2);
  ones.data = {1.0f, 0.0f, 0.0f, 1.0f};
  const MaskMatrix diagonal{2, 2, {1, 0, 0, 1}};
  EXPECT_FALSE(nearly_uniform(ones, &diagonal, {0.0f, 1.0f}).has_value());
  Matrix high(1, 2);
  high.data = {0.97f, 0.99f};
  EXPECT_FALSE(nearly_uniform(high, nullptr, {0.0f, 1.0f}).has_value());
}

TEST(RowMaxAbs, OfOneRowOnly) {
  Matrix m(2, 2);
  m.data = {1.0f, -3.0f, 9.0f, 0.0f};
  EXPECT_FLOAT_EQ(row_max_abs(m, 0), 3.0f);
  EXPECT_FLOAT_EQ(row_max_abs(m, 1), 9.0f);
  EXPECT_FLOAT_EQ(row_max_abs(m, 2), 0.0f);
}

}  // namespace
}  // namespace attnviz::heatmap

namespace attnviz::heatmap {
namespace {

TEST(ColormapPosition, LinearOrLogAndClamped) {
  EXPECT_FLOAT_EQ(colormap_position(0.5f, {0.0f, 1.0f}, false), 0.5f);
  EXPECT_FLOAT_EQ(colormap_position(-3.0f, {-4.0f, 4.0f}, false), 0.125f);
  EXPECT_FLOAT_EQ(colormap_position(2.0f, {0.0f, 1.0f}, false), 1.0f);
  // log10 from 1e-4 to 1: each decade a quarter of the colormap.
  EXPECT_NEAR(colormap_position(1e-2f, kLogWeights, true), 0.5f, 1e-6f);
  EXPECT_NEAR(colormap_position(1e-3f, kLogWeights, true), 0.25f, 1e-6f);
  EXPECT_FLOAT_EQ(colormap_position(0.0f, kLogWeights, true), 0.0f);  // a weight of 0 at the bottom
  EXPECT_FLOAT_EQ(colormap_position(1e-9f, kLogWeights, true), 0.0f);
  EXPECT_FLOAT_EQ(colormap_position(1.0f, kLogWeights, true), 1.0f);
}

}  // namespace
}  // namespace attnviz::heatmap
