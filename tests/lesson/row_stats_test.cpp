// The scaling lesson's numbers: row entropy and max weight, on hand-made rows and on the
// Korean example with and without 1/√d_k.

#include <gtest/gtest.h>

#include <cmath>

#include "core/cpu/cpu_backend.h"
#include "core/lesson/row_stats.h"
#include "tests/lesson/lesson_support.h"

namespace attnviz {
namespace {

MaskMatrix all_visible(int rows, int cols) {
  return MaskMatrix{rows, cols, std::vector<std::uint8_t>(static_cast<std::size_t>(rows * cols), 1)};
}

TEST(RowStats, HandMadeRows) {
  Matrix w(4, 4, 0.0f);
  for (int j = 0; j < 4; ++j) w.at(0, j) = 0.25f;  // uniform over 4: 2 bits
  w.at(1, 2) = 1.0f;                               // one-hot: 0 bits
  w.at(2, 0) = 0.5f;                               // two halves: 1 bit
  w.at(2, 1) = 0.5f;
  MaskMatrix mask = all_visible(4, 4);
  for (int j = 0; j < 4; ++j) mask.visible[static_cast<std::size_t>(12 + j)] = 0;  // row 3 sees nothing

  const std::vector<lesson::RowStats> stats = lesson::row_statistics(w, mask);
  EXPECT_DOUBLE_EQ(stats[0].entropy_bits, 2.0);
  EXPECT_DOUBLE_EQ(stats[0].uniform_entropy_bits, 2.0);
  EXPECT_DOUBLE_EQ(stats[0].max_weight, 0.25);
  EXPECT_DOUBLE_EQ(stats[1].entropy_bits, 0.0);
  EXPECT_DOUBLE_EQ(stats[1].max_weight, 1.0);
  EXPECT_DOUBLE_EQ(stats[2].entropy_bits, 1.0);
  EXPECT_EQ(stats[3].visible_keys, 0);

  const lesson::RowStatsSummary summary = lesson::summarize(stats);
  EXPECT_EQ(summary.rows, 3);  // the row that sees nothing is left out
  EXPECT_DOUBLE_EQ(summary.mean_entropy_bits, 1.0);
  EXPECT_DOUBLE_EQ(summary.mean_max_weight, (0.25 + 1.0 + 0.5) / 3.0);
}

TEST(RowStats, SoftmaxAtScaleByHand) {
  Matrix scores(1, 2);
  scores.at(0, 0) = 0.0f;
  scores.at(0, 1) = std::log(3.0f);  // exp: 1 and 3 → 0.25, 0.75
  const Matrix w = lesson::softmax_at_scale(scores, all_visible(1, 2), 1.0);
  EXPECT_NEAR(w.at(0, 0), 0.25, 1e-7);
  EXPECT_NEAR(w.at(0, 1), 0.75, 1e-7);
  const Matrix flat = lesson::softmax_at_scale(scores, all_visible(1, 2), 0.0);
  EXPECT_NEAR(flat.at(0, 0), 0.5, 1e-7);
}

// Forgetting 1/√d_k (scale 1 instead of 1/2) sharpens every row: less entropy, larger max.
TEST(RowStats, NoScalingSaturatesTheKoreanSoftmax) {
  const Problem problem = testing::fixture_problem(testing::read_fixture("korean-full.json"));
  const Result result = make_cpu_backend()->compute(problem);
  const Matrix& scores = result.heads[0].scores;
  const std::vector<lesson::ScaleCase> cases = lesson::scaling_contrast(scores, result.mask, 4, problem.scale);
  ASSERT_EQ(cases.size(), 2u);  // the current scale is 1/√d_k: no third case
  EXPECT_EQ(cases[0].label, "1/\u221ad_k = 0.500");
  EXPECT_DOUBLE_EQ(cases[0].scale, 0.5);
  EXPECT_DOUBLE_EQ(cases[1].scale, 1.0);
  EXPECT_LT(cases[1].summary.mean_entropy_bits, cases[0].summary.mean_entropy_bits);
  EXPECT_GT(cases[1].summary.mean_max_weight, cases[0].summary.mean_max_weight);
  EXPECT_DOUBLE_EQ(cases[0].summary.mean_uniform_entropy_bits, 3.0);  // 8 keys

  // The 1/√d_k case equals the statistics of the Result's own weights.
  const lesson::RowStatsSummary own = lesson::summarize(lesson::row_statistics(result.heads[0].weights, result.mask));
  EXPECT_NEAR(own.mean_entropy_bits, cases[0].summary.mean_entropy_bits, 1e-6);
  EXPECT_NEAR(own.mean_max_weight, cases[0].summary.mean_max_weight, 1e-6);

  // A temperature of 10 adds a third case, sharper still.
  const std::vector<lesson::ScaleCase> hot = lesson::scaling_contrast(scores, result.mask, 4, 10.0);
  ASSERT_EQ(hot.size(), 3u);
  EXPECT_EQ(hot[2].label, "T = 0.1 (scale 10)") << "the Model panel's wording: a temperature, scale 1/T";
  EXPECT_LT(hot[2].summary.mean_entropy_bits, hot[1].summary.mean_entropy_bits);
}

// The lesson's text says what the data shows: the Korean scores are small (no saturation),
// forty times larger they sharpen, three hundred times larger they saturate, and d_k = 1 has
// nothing to scale.
TEST(RowStats, ScalingVerdictIsHonestAboutTheData) {
  const Problem problem = testing::fixture_problem(testing::read_fixture("korean-full.json"));
  const Result result = make_cpu_backend()->compute(problem);
  const Matrix& scores = result.heads[0].scores;
  const std::string flat = lesson::scaling_verdict(lesson::scaling_contrast(scores, result.mask, 4, 0.5), 4);
  EXPECT_EQ(flat.rfind("Here the scores are small", 0), 0u) << flat;
  EXPECT_EQ(flat.find("saturates"), std::string::npos) << flat;

  Matrix large = scores;
  for (float& v : large.data) v *= 300.0f;
  const std::string hot = lesson::scaling_verdict(lesson::scaling_contrast(large, result.mask, 4, 0.5), 4);
  EXPECT_EQ(hot.rfind("Without 1/\u221ad_k the softmax saturates", 0), 0u) << hot;

  Matrix medium = scores;
  for (float& v : medium.data) v *= 40.0f;
  const std::string sharper = lesson::scaling_verdict(lesson::scaling_contrast(medium, result.mask, 4, 0.5), 4);
  EXPECT_EQ(sharper.rfind("Without 1/\u221ad_k every row gets sharper", 0), 0u) << sharper;

  EXPECT_EQ(lesson::scaling_verdict(lesson::scaling_contrast(scores, result.mask, 1, 1.0), 1),
            "With d_k = 1, 1/\u221ad_k is 1: scaling changes nothing here.");
}

}  // namespace
}  // namespace attnviz
