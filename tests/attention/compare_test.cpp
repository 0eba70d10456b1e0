#include <gtest/gtest.h>

#include "core/attention/compare.h"

namespace attnviz {
namespace {

Result one_head_result(std::vector<float> scores, std::vector<float> weights) {
  Result r;
  r.heads.push_back(HeadResult{Matrix(1, 2), Matrix(1, 2), Matrix(1, 1)});
  r.heads[0].scores.data = std::move(scores);
  r.heads[0].weights.data = std::move(weights);
  r.output = Matrix(1, 1);
  return r;
}

TEST(Compare, ReportsLargestAbsoluteAndRelativeDifferenceAndWhere) {
  const Result a = one_head_result({1.0f, 4.5f}, {0.25f, 0.75f});
  const Result b = one_head_result({1.0f, 4.0f}, {0.25f, 0.75f});
  const std::vector<MatrixDifference> diffs = compare_results(a, b);
  ASSERT_EQ(diffs.size(), 4u);
  EXPECT_EQ(diffs[0].name, "head0.scores");
  EXPECT_DOUBLE_EQ(diffs[0].max_abs, 0.5);
  EXPECT_DOUBLE_EQ(diffs[0].max_rel, 0.5 / 4.0);
  EXPECT_EQ(diffs[0].row, 0);
  EXPECT_EQ(diffs[0].col, 1);
  EXPECT_EQ(diffs[1].name, "head0.weights");
  EXPECT_EQ(diffs[1].max_abs, 0.0);
  EXPECT_EQ(diffs[3].name, "output");
  EXPECT_EQ(diffs[3].max_rel, 0.0);  // all-zero reference: no division by zero
}

TEST(Compare, RefusesDifferentShapes) {
  Result a = one_head_result({1, 2}, {0, 1});
  Result b = a;
  b.heads[0].scores = Matrix(2, 1);
  EXPECT_THROW(compare_results(a, b), std::invalid_argument);
}

TEST(Compare, DifferenceIsElementwise) {
  Matrix a(1, 3), b(1, 3);
  a.data = {1.0f, 2.0f, 3.0f};
  b.data = {0.5f, 2.0f, 4.0f};
  EXPECT_EQ(difference(a, b).data, (std::vector<float>{0.5f, 0.0f, -1.0f}));
}

}  // namespace
}  // namespace attnviz
