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
  EXPECT_FLOAT_EQ(colormap_position(0.0f, kLogWeights, true), 0.0f);   // a weight of 0 at the bottom
  EXPECT_FLOAT_EQ(colormap_position(1e-9f, kLogWeights, true), 0.0f);
  EXPECT_FLOAT_EQ(colormap_position(1.0f, kLogWeights, true), 1.0f);
}

}  // namespace
}  // namespace attnviz::heatmap
