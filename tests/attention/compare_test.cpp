#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/attention/compare.h"

namespace attnviz {
namespace {

Result one_head_result(std::vector<float> scores, std::vector<float> weights) {
  Result r;
  r.heads.push_back(HeadResult{Matrix(1, 2), Matrix(1, 2), Matrix(1, 1), {}, {}});
  r.heads[0].scores.data = std::move(scores);
  r.heads[0].weights.data = std::move(weights);
  r.output = Matrix(1, 1);
  return r;
}

TEST(Compare, ReportsLargestAbsoluteAndRelativeDifferenceAndWhere) {
  const Result a = one_head_result({1.0f, 4.5f}, {0.25f, 0.75f});
  const Result b = one_head_result({1.0f, 4.0f}, {0.25f, 0.75f});
  const std::vector<MatrixDifference> diffs = compare_results(a, b);
  ASSERT_EQ(diffs.size(), 5u);
  EXPECT_EQ(diffs[0].name, "mask");
  EXPECT_EQ(diffs[1].name, "head0.scores");
  EXPECT_DOUBLE_EQ(diffs[1].max_abs, 0.5);
  EXPECT_DOUBLE_EQ(diffs[1].max_rel, 0.5 / 4.0);
  EXPECT_DOUBLE_EQ(diffs[1].largest, 4.0);
  EXPECT_EQ(diffs[1].row, 0);
  EXPECT_EQ(diffs[1].col, 1);
  EXPECT_EQ(diffs[2].name, "head0.weights");
  EXPECT_EQ(diffs[2].max_abs, 0.0);
  EXPECT_EQ(diffs[4].name, "output");
  EXPECT_EQ(diffs[4].max_rel, 0.0);  // all-zero reference: no division by zero
}

TEST(Compare, NanOrInfinityOnOneSideIsAnInfiniteDifference) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<MatrixDifference> with_nan =
      compare_results(one_head_result({1.0f, 2.0f}, {nan, 1.0f}), one_head_result({1.0f, 2.0f}, {0.0f, 1.0f}));
  EXPECT_TRUE(std::isinf(with_nan[2].max_abs));
  EXPECT_FALSE(with_nan[2].agrees());
  EXPECT_FALSE(results_agree(with_nan));
  const std::vector<MatrixDifference> both_nan =
      compare_results(one_head_result({nan, 2.0f}, {0.0f, 1.0f}), one_head_result({nan, 2.0f}, {0.0f, 1.0f}));
  EXPECT_TRUE(std::isinf(both_nan[1].max_abs)) << "NaN never agrees, not even with NaN";
  const std::vector<MatrixDifference> same_inf =
      compare_results(one_head_result({inf, 2.0f}, {0.0f, 1.0f}), one_head_result({inf, 2.0f}, {0.0f, 1.0f}));
  EXPECT_EQ(same_inf[1].max_abs, 0.0);
}

TEST(Compare, AgreementIsAbsoluteUpToOneAndRelativeBeyond) {
  MatrixDifference small{"w", 0.9e-5, 0.0, 0.5};
  EXPECT_TRUE(small.agrees());
  small.max_abs = 1.1e-5;
  EXPECT_FALSE(small.agrees());
  MatrixDifference large{"s", 3.0e-4, 0.0, 40.0};  // 40 · 1e-5 = 4e-4
  EXPECT_TRUE(large.agrees());
  large.max_abs = 5.0e-4;
  EXPECT_FALSE(large.agrees());
}

TEST(Compare, DifferentMasksShowInTheMaskEntry) {
  Result a = one_head_result({1.0f, 2.0f}, {0.0f, 1.0f});
  Result b = a;
  a.mask = MaskMatrix{1, 2, {1, 1}};
  b.mask = MaskMatrix{1, 2, {0, 1}};
  const std::vector<MatrixDifference> diffs = compare_results(a, b);
  EXPECT_EQ(diffs[0].max_abs, 1.0);
  EXPECT_EQ(diffs[0].col, 0);
  EXPECT_FALSE(results_agree(diffs));
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
