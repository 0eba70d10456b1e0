// The Positions page, the Mistakes page and the compare view's positions axis: the numbers
// each shows against the backends' Result and the definitions (core/scenario/positions.h),
// the mistaken computations against what makes them mistakes (columns that sum to 1, rows that
// do not; renormalising after masking giving exactly the right weights).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/cpu/cpu_backend.h"
#include "core/lesson/mistakes.h"
#include "core/lesson/steps.h"
#include "core/lesson/variants.h"
#include "core/scenario/positions.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz {
namespace {

using lesson::Mistake;
using lesson::StepKind;

Scenario scenario(PositionalKind kind) {
  Scenario s;
  s.sentence = "the cat sat on the mat";
  s.d_model = 8;
  s.num_heads = 2;
  s.num_kv_heads = 1;
  s.d_k = 4;
  s.d_v = 3;
  s.mask.causal = true;
  s.positional = kind;
  return s;
}

struct Computed {
  Problem problem;
  Result result;
  explicit Computed(const Scenario& s)
      : problem(build_problem(s, "test")), result(make_cpu_backend()->compute(problem)) {}
};

const lesson::ShownMatrix& matrix_named(const lesson::StepPage& page, const std::string& name) {
  for (const lesson::ShownMatrix& m : page.matrices)
    if (m.name == name) return m;
  throw std::runtime_error(page.title + " has no matrix " + name);
}

TEST(PositionsPage, RopeShowsQAndKBeforeAndAfterTheRotationAndAPairTurning) {
  Scenario s = scenario(PositionalKind::Rope);
  s.position_offset = 3;
  const Computed c(s);
  const lesson::StepModel model(c.problem, c.result);
  const lesson::StepPage page = model.page(StepKind::Positions, {.head = 1, .query = 4, .key = 2});
  EXPECT_EQ(page.title, "3. Positions: RoPE turns q and k");
  const lesson::HeadProjections hp = model.head(1);
  EXPECT_EQ(*matrix_named(page, "Q\u2081").values, hp.q_unrotated);
  EXPECT_EQ(*matrix_named(page, "Q\u2081 after RoPE").values, hp.q);
  // The rotated q row is the unrotated one turned at position 3 + 4.
  std::vector<float> row(hp.q_unrotated.row(4), hp.q_unrotated.row(4) + 4);
  rope_rotate(row.data(), rope_table(7, 1, 4, 10000.0).row(0), 4);
  EXPECT_EQ(row, std::vector<float>(hp.q.row(4), hp.q.row(4) + 4));
  // The scores are the rotated q·k.
  double dot = 0.0;
  for (int d = 0; d < 4; ++d) dot += double(hp.q.at(4, d)) * hp.k.at(2, d);
  EXPECT_NEAR(c.result.heads[1].scores.at(4, 2), dot, 1e-5);
  ASSERT_TRUE(page.turning.has_value());
  EXPECT_EQ(page.turning->x.size(), static_cast<std::size_t>(c.problem.n()));
  EXPECT_NEAR(page.turning->x[4], hp.q.at(4, 0), 1e-5) << "the followed word's arrow is its rotated pair";
  EXPECT_NEAR(page.turning->y[4], hp.q.at(4, 2), 1e-5);
  EXPECT_NEAR(page.turning->key_x, hp.k.at(2, 0), 1e-6);
  EXPECT_EQ(page.table.rows.size(), 2u) << "one row per pair";
  // The Projections page shows Q before the rotation.
  EXPECT_EQ(*matrix_named(model.page(StepKind::Projections, {.head = 1, .query = 4}), "Q\u2081").values,
            hp.q_unrotated);
}

TEST(PositionsPage, SinusoidalShowsTheTableAndTheSum) {
  const Computed c(scenario(PositionalKind::Sinusoidal));
  const lesson::StepModel model(c.problem, c.result);
  const lesson::StepPage page = model.page(StepKind::Positions, {.head = 0, .query = 2});
  const Matrix& pe = *matrix_named(page, "PE").values;
  EXPECT_EQ(pe, sinusoidal_table(0, c.problem.n(), 8));
  EXPECT_EQ(*matrix_named(page, "X + PE").values, c.problem.x);
  for (std::size_t i = 0; i < pe.size(); ++i)
    EXPECT_FLOAT_EQ(c.problem.x.data[i], c.problem.x_tokens->data[i] + pe.data[i]);
  ASSERT_TRUE(page.turning.has_value());
  EXPECT_FLOAT_EQ(static_cast<float>(page.turning->x[2]), static_cast<float>(std::sin(2.0)));
  // Page 1 shows the embeddings alone.
  EXPECT_EQ(*matrix_named(model.page(StepKind::Embeddings, {.head = 0, .query = 2}), "X").values, *c.problem.x_tokens);
}

TEST(PositionsPage, AlibiShowsItsBiasAndEverySlope) {
  Scenario s = scenario(PositionalKind::Alibi);
  s.num_heads = 6;
  s.num_kv_heads = 6;
  const Computed c(s);
  const lesson::StepModel model(c.problem, c.result);
  const lesson::StepPage page = model.page(StepKind::Positions, {.head = 4, .query = 5});
  EXPECT_EQ(page.slopes, (std::vector<double>{0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 0.5, 0.125}));
  const Matrix& bias = *matrix_named(page, "bias of head 4").values;
  EXPECT_FLOAT_EQ(bias.at(5, 1), -2.0f);
  EXPECT_FLOAT_EQ(bias.at(1, 5), -2.0f);
  const Matrix& scaled = *matrix_named(page, "S'\u2084 with the bias").values;
  EXPECT_FLOAT_EQ(scaled.at(5, 1), c.problem.scale * c.result.heads[4].scores.at(5, 1) - 2.0f);
}

TEST(PositionsPage, NoneSaysSoAndShowsQAndK) {
  const Computed c(scenario(PositionalKind::None));
  const lesson::StepPage page =
      lesson::StepModel(c.problem, c.result).page(StepKind::Positions, {.head = 0, .query = 0});
  EXPECT_NE(page.title.find("none"), std::string::npos);
  EXPECT_EQ(page.matrices.size(), 2u);
  EXPECT_FALSE(page.turning.has_value());
}

TEST(Mistakes, SoftmaxOverColumnsMakesColumnsSumToOneAndNotRows) {
  Scenario s = scenario(PositionalKind::None);
  s.mask.causal = false;
  const Computed c(s);
  const lesson::MistakeDemo demo = lesson::demonstrate(c.problem, c.result, 0, Mistake::SoftmaxOverColumns);
  for (const double sum : demo.mistaken_col_sums) EXPECT_NEAR(sum, 1.0, 1e-12);
  for (const double sum : demo.correct_row_sums) EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_TRUE(std::any_of(demo.mistaken_row_sums.begin(), demo.mistaken_row_sums.end(),
                          [](double sum) { return std::fabs(sum - 1.0) > 0.01; }));
  for (std::size_t i = 0; i < demo.correct.size(); ++i)
    EXPECT_NEAR(demo.correct.data[i], c.result.heads[0].weights.data[i], 1e-6);
}

TEST(Mistakes, MaskingAfterTheSoftmaxLeavesRowsShortOfOneUnlessRenormalised) {
  const Computed c(scenario(PositionalKind::None));  // causal
  const lesson::MistakeDemo after = lesson::demonstrate(c.problem, c.result, 1, Mistake::MaskAfterSoftmax);
  EXPECT_FALSE(after.mask_substituted);
  EXPECT_NEAR(after.mistaken_row_sums.back(), 1.0, 1e-12) << "the last row hides nothing";
  for (std::size_t i = 0; i + 1 < after.mistaken_row_sums.size(); ++i)
    EXPECT_LT(after.mistaken_row_sums[i], 1.0 - 1e-6) << i;
  EXPECT_GT(after.largest_difference, 1e-3);
  const lesson::MistakeDemo fixed = lesson::demonstrate(c.problem, c.result, 1, Mistake::MaskAfterSoftmaxRenormalised);
  EXPECT_LT(fixed.largest_difference, 1e-15) << "renormalising gives exactly the weights of masking first";
  for (const float d : fixed.difference.data) EXPECT_LT(std::fabs(d), 1e-15f);
  for (std::size_t i = 0; i < fixed.correct.size(); ++i)
    EXPECT_NEAR(fixed.mistaken.data[i], c.result.heads[1].weights.data[i], 1e-6);
}

TEST(Mistakes, NoScalingSaturatesAndTheMaskingMistakesBorrowACausalMaskWhenThereIsNone) {
  Scenario s = scenario(PositionalKind::None);
  s.mask.causal = false;
  s.d_k = 64;  // large d_k: unscaled scores spread far
  const Computed c(s);
  const lesson::MistakeDemo demo = lesson::demonstrate(c.problem, c.result, 0, Mistake::NoScaling);
  const auto largest = [](const Matrix& m, int row) { return *std::max_element(m.row(row), m.row(row) + m.cols); };
  EXPECT_GT(largest(demo.mistaken, 0), largest(demo.correct, 0)) << "the unscaled softmax is sharper";
  const lesson::StepPage page = lesson::StepModel(c.problem, c.result)
                                    .page(StepKind::Mistakes, {.head = 0, .query = 0, .mistake = Mistake::NoScaling});
  EXPECT_TRUE(page.links_to_scaling);
  EXPECT_TRUE(lesson::demonstrate(c.problem, c.result, 0, Mistake::MaskAfterSoftmax).mask_substituted);
}

TEST(Mistakes, ThePageShowsTheMistakeBesideTheRightWay) {
  const Computed c(scenario(PositionalKind::Alibi));
  const lesson::StepModel model(c.problem, c.result);
  lesson::PageFocus focus{.head = 0, .query = 3};
  focus.mistake = Mistake::MaskAfterSoftmaxRenormalised;
  const lesson::StepPage page = model.page(StepKind::Mistakes, focus);
  EXPECT_EQ(page.number, 11);
  EXPECT_EQ(page.mistake, Mistake::MaskAfterSoftmaxRenormalised);
  EXPECT_EQ(page.matrices.size(), 3u);
  EXPECT_EQ(*matrix_named(page, "right").values, lesson::demonstrate(c.problem, c.result, 0, focus.mistake).correct);
  EXPECT_TRUE(std::any_of(page.trace_after.begin(), page.trace_after.end(), [](const std::string& line) {
    return line.find("0 up to float64 rounding") != std::string::npos;
  }));
}

// The Korean example's weights are nearly uniform: the wrong axis gave the same picture as the
// right one. The mistake is then shown on the head's scores made sharper, and said so; both
// sides are the softmaxes of those sharper scores (float64 here, from the head's raw scores).
TEST(Mistakes, OnNearlyUniformWeightsTheMistakeIsShownOnSharperScores) {
  const Computed c(load_scenario("preset:korean-restaurant").scenario);
  const lesson::MistakeDemo demo = lesson::demonstrate(c.problem, c.result, 0, Mistake::SoftmaxOverColumns);
  ASSERT_GT(demo.sharpness, 1.0) << "the head's own weights hide the mistake";
  EXPECT_GE(demo.largest_difference, 0.25) << "a quarter of the colour scale";
  const Matrix& raw = c.result.heads[0].scores;
  for (int i = 0; i < raw.rows; ++i) {
    double largest = -1e300;
    for (int j = 0; j < raw.cols; ++j) largest = std::max(largest, demo.sharpness * c.problem.scale * raw.at(i, j));
    double sum = 0.0;
    for (int j = 0; j < raw.cols; ++j) sum += std::exp(demo.sharpness * c.problem.scale * raw.at(i, j) - largest);
    for (int j = 0; j < raw.cols; ++j) {
      EXPECT_NEAR(demo.correct.at(i, j), std::exp(demo.sharpness * c.problem.scale * raw.at(i, j) - largest) / sum,
                  1e-6);
    }
  }
  const lesson::StepPage page =
      lesson::StepModel(c.problem, c.result)
          .page(StepKind::Mistakes, {.head = 0, .query = 0, .mistake = Mistake::SoftmaxOverColumns});
  EXPECT_NE(page.formula.find("a sharper head"), std::string::npos) << page.formula;
  const lesson::MistakeDemo fixed = lesson::demonstrate(c.problem, c.result, 0, Mistake::MaskAfterSoftmaxRenormalised);
  EXPECT_EQ(fixed.sharpness, 1.0) << "renormalising is shown on the head's own scores: nothing changes";
}

TEST(PositionsAxis, CompareFourKindsOverTheSameWeights) {
  const Computed c(scenario(PositionalKind::None));
  const lesson::Comparison four = lesson::derive_comparison(scenario(PositionalKind::None), c.problem,
                                                            {.axis = lesson::CompareAxis::Positions, .count = 4});
  ASSERT_EQ(four.variants.size(), 4u);
  EXPECT_EQ(four.variants[2].label, "RoPE");
  EXPECT_EQ(four.variants[3].scenario.positional, PositionalKind::Alibi);
  EXPECT_EQ(four.variants[1].scenario.wq, four.variants[3].scenario.wq);
  Scenario odd = scenario(PositionalKind::Sinusoidal);
  odd.d_k = 3;
  const Computed odd_c(odd);
  const lesson::Comparison three =
      lesson::derive_comparison(odd, odd_c.problem, {.axis = lesson::CompareAxis::Positions, .count = 4});
  EXPECT_EQ(three.variants.size(), 3u);
  EXPECT_NE(three.note.find("d_k = 3 is odd"), std::string::npos);
  // Frozen embeddings are the tokens' own: the sinusoidal table is a setting, not part of X.
  EXPECT_EQ(*three.variants[0].scenario.embeddings, *odd_c.problem.x_tokens);
  EXPECT_EQ(lesson::compare_axis_from_string("positions"), lesson::CompareAxis::Positions);
}

TEST(QueryTraceDropout, TheContextUsesTheWeightsDropoutLeft) {
  Scenario s = scenario(PositionalKind::Rope);
  s.dropout = DropoutSetting{0.4, 5};
  const Computed c(s);
  const lesson::StepModel model(c.problem, c.result);
  for (int q = 0; q < c.problem.n(); ++q) {
    const lesson::QueryTrace trace = model.trace(1, q);
    ASSERT_TRUE(trace.dropout);
    for (int d = 0; d < c.problem.d_v; ++d)
      EXPECT_NEAR(trace.context[static_cast<std::size_t>(d)], c.result.heads[1].context.at(q, d), 1e-5);
    for (int j = 0; j < c.problem.m(); ++j)
      EXPECT_EQ(trace.kept[static_cast<std::size_t>(j)], c.result.heads[1].kept.at(q, j) ? 1 : 0);
  }
  const lesson::StepPage softmax = model.page(StepKind::Softmax, {.head = 1, .query = 5});
  EXPECT_EQ(matrix_named(softmax, "A\u2081 after dropout").dropped.get(), &c.result.heads[1].kept);
}

}  // namespace
}  // namespace attnviz
