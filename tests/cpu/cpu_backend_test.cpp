// The Eigen path against an independent float64 reference (tests/attention/reference_attention.h).

#include <gtest/gtest.h>

#include <stdexcept>

#include <cmath>

#include "core/cpu/cpu_backend.h"
#include "tests/attention/random_problem.h"
#include "tests/attention/reference_attention.h"

namespace attnviz {
namespace {

using testing::ProblemShape;
using testing::TestRandom;

double max_abs_difference(const Matrix& actual, const std::vector<std::vector<double>>& expected) {
  double worst = 0.0;
  for (int r = 0; r < actual.rows; ++r)
    for (int c = 0; c < actual.cols; ++c)
      worst = std::fmax(worst, std::fabs(static_cast<double>(actual.at(r, c)) -
                                         expected[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]));
  return worst;
}

void expect_matches_reference(const Problem& problem, double tolerance) {
  const Result result = make_cpu_backend()->compute(problem);
  const testing::ReferenceResult expected = testing::reference_attention(problem);
  ASSERT_EQ(result.heads.size(), expected.heads.size());
  for (int i = 0; i < problem.n(); ++i)
    for (int j = 0; j < problem.m(); ++j)
      ASSERT_EQ(result.mask.at(i, j), expected.mask[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] != 0);
  for (std::size_t h = 0; h < result.heads.size(); ++h) {
    EXPECT_LE(max_abs_difference(result.heads[h].scores, expected.heads[h].scores), tolerance) << "head " << h;
    EXPECT_LE(max_abs_difference(result.heads[h].weights, expected.heads[h].weights), tolerance) << "head " << h;
    EXPECT_LE(max_abs_difference(result.heads[h].context, expected.heads[h].context), tolerance) << "head " << h;
  }
  EXPECT_LE(max_abs_difference(result.output, expected.output), tolerance);
}

MaskSetting random_mask(TestRandom& random, int n) {
  MaskSetting mask;
  mask.causal = random.coin();
  if (random.coin()) mask.window = random.between(0, n);
  if (mask.window && random.coin()) {
    mask.global.push_back(0);
    if (random.coin()) mask.global.push_back(n - 1);
  }
  return mask;
}

TEST(CpuBackend, MatchesFloat64ReferenceOnRandomProblems) {
  TestRandom random(7);
  for (int trial = 0; trial < 150; ++trial) {
    ProblemShape shape;
    shape.n = random.between(1, 20);
    shape.cross = random.coin();
    shape.m = shape.cross ? random.between(1, 20) : shape.n;
    shape.d_model = random.between(1, 9);
    shape.kv_heads = random.between(1, 3);
    shape.heads = shape.kv_heads * random.between(1, 3);
    shape.d_k = random.between(1, 8);
    shape.d_v = random.between(1, 8);
    shape.with_wo = random.coin();
    shape.d_out = random.between(1, 6);
    shape.scale = random.coin() ? 1.0f / std::sqrt(static_cast<float>(shape.d_k)) : random.uniform(0.1f, 3.0f);
    shape.mask = random_mask(random, std::max(shape.n, shape.m));
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_matches_reference(testing::random_problem(random, shape), 2e-5);
  }
}

TEST(CpuBackend, SoftmaxOfHugeScoresNeitherOverflowsNorGivesNaN) {
  // Scores of ±1e4: exp(1e4) overflows float and double alike without the max subtraction.
  Problem p;
  p.tokens = p.source_tokens = {"a", "b", "c"};
  p.x = Matrix(3, 1);
  p.x.data = {1.0f, -1.0f, 0.5f};
  p.xs = p.x;
  p.wq = Matrix(1, 1, 1e4f);
  p.wk = Matrix(1, 1, 1.0f);
  p.wv = Matrix(1, 1, 1.0f);
  p.scale = 1.0f;
  const Result result = make_cpu_backend()->compute(p);
  const HeadResult& head = result.heads[0];
  EXPECT_FLOAT_EQ(head.scores.at(0, 1), -1e4f);
  for (float w : head.weights.data) EXPECT_TRUE(std::isfinite(w));
  // Row 0 (score 1e4 at key 0) puts all weight on key 0; row 1 (score 1e4 at key 1) on key 1.
  EXPECT_EQ(head.weights.at(0, 0), 1.0f);
  EXPECT_EQ(head.weights.at(1, 1), 1.0f);
  EXPECT_EQ(head.weights.at(0, 1), 0.0f);
  expect_matches_reference(p, 1e-6);
}

TEST(CpuBackend, HugeScoresUnderTheMaskDoNotLeakIntoVisibleWeights) {
  // The masked entry (0, 1) has raw score +1e4, far above the visible maximum.
  Problem p;
  p.tokens = p.source_tokens = {"a", "b"};
  p.x = Matrix(2, 1);
  p.x.data = {1.0f, 1.0f};
  p.xs = p.x;
  p.wq = Matrix(1, 1, 100.0f);
  p.wk = Matrix(1, 1, 100.0f);
  p.wv = Matrix(1, 1, 2.0f);
  p.mask.causal = true;
  const Result result = make_cpu_backend()->compute(p);
  EXPECT_EQ(result.heads[0].weights.at(0, 0), 1.0f);
  EXPECT_EQ(result.heads[0].weights.at(0, 1), 0.0f);
  EXPECT_EQ(result.heads[0].context.at(0, 0), 2.0f);
}

TEST(CpuBackend, FullyMaskedRowsGetZeroWeightsAndContext) {
  TestRandom random(3);
  ProblemShape shape;
  shape.n = 10;
  shape.m = 3;
  shape.cross = true;
  shape.mask.window = 1;
  const Result result = make_cpu_backend()->compute(testing::random_problem(random, shape));
  EXPECT_EQ(result.masked_rows, (std::vector<int>{4, 5, 6, 7, 8, 9}));
  for (const HeadResult& head : result.heads) {
    for (int i = 4; i < 10; ++i) {
      for (int j = 0; j < 3; ++j) EXPECT_EQ(head.weights.at(i, j), 0.0f);
      for (int d = 0; d < head.context.cols; ++d) EXPECT_EQ(head.context.at(i, d), 0.0f);
    }
    for (int i = 0; i < 4; ++i) {
      float sum = 0.0f;
      for (int j = 0; j < 3; ++j) sum += head.weights.at(i, j);
      EXPECT_NEAR(sum, 1.0f, 1e-6f);
    }
  }
}

TEST(CpuBackend, GroupedQueryAttentionEqualsMultiHeadWithDuplicatedKeyValueColumns) {
  TestRandom random(11);
  ProblemShape shape;
  shape.n = 9;
  shape.heads = 6;
  shape.kv_heads = 2;
  shape.d_k = 4;
  shape.d_v = 3;
  shape.mask.causal = true;
  const Problem gqa = testing::random_problem(random, shape);
  Problem mha = gqa;
  mha.num_kv_heads = gqa.num_heads;
  mha.wk = Matrix(gqa.d_model(), gqa.num_heads * gqa.d_k);
  mha.wv = Matrix(gqa.d_model(), gqa.num_heads * gqa.d_v);
  for (int h = 0; h < gqa.num_heads; ++h) {
    const int g = gqa.kv_head_of(h);
    for (int r = 0; r < gqa.d_model(); ++r) {
      for (int c = 0; c < gqa.d_k; ++c) mha.wk.at(r, h * gqa.d_k + c) = gqa.wk.at(r, g * gqa.d_k + c);
      for (int c = 0; c < gqa.d_v; ++c) mha.wv.at(r, h * gqa.d_v + c) = gqa.wv.at(r, g * gqa.d_v + c);
    }
  }
  const Result a = make_cpu_backend()->compute(gqa);
  const Result b = make_cpu_backend()->compute(mha);
  for (std::size_t h = 0; h < a.heads.size(); ++h) {
    for (std::size_t k = 0; k < a.heads[h].weights.size(); ++k)
      EXPECT_NEAR(a.heads[h].weights.data[k], b.heads[h].weights.data[k], 1e-6f);
    for (std::size_t k = 0; k < a.heads[h].context.size(); ++k)
      EXPECT_NEAR(a.heads[h].context.data[k], b.heads[h].context.data[k], 1e-6f);
  }
  // Multi-query attention (one kv head) is the G = 1 case of the same rule.
  shape.kv_heads = 1;
  expect_matches_reference(testing::random_problem(random, shape), 2e-5);
}

TEST(CpuBackend, SkippingMaskedScoresZeroesOnlyThemAndChangesNothingElse) {
  TestRandom random(5);
  ProblemShape shape;
  shape.n = 12;
  shape.mask.causal = true;
  shape.mask.window = 3;
  const Problem p = testing::random_problem(random, shape);
  const Result full = make_cpu_backend()->compute(p);
  const Result fast = make_cpu_backend()->compute(p, ComputeOptions{.scores_under_mask = false});
  for (std::size_t h = 0; h < full.heads.size(); ++h) {
    EXPECT_EQ(fast.heads[h].weights, full.heads[h].weights);
    EXPECT_EQ(fast.heads[h].context, full.heads[h].context);
    for (int i = 0; i < p.n(); ++i)
      for (int j = 0; j < p.m(); ++j)
        EXPECT_EQ(fast.heads[h].scores.at(i, j), full.mask.at(i, j) ? full.heads[h].scores.at(i, j) : 0.0f);
  }
  EXPECT_EQ(fast.output, full.output);
}

// Long sentences are computed in blocks of query rows on several threads, each block reading
// only the keys its rows see: masks whose spans cross block edges, global rows and columns
// far from the band, and cross-attention with more queries than keys.
TEST(CpuBackend, BlocksOfRowsOnThreadsMatchTheFloat64ReferenceForEveryMaskKind) {
  TestRandom random(21);
  const MaskSetting none;
  MaskSetting causal;
  causal.causal = true;
  MaskSetting band;
  band.window = 5;
  MaskSetting sliding = band;
  sliding.causal = true;
  MaskSetting longformer = band;
  longformer.global = {0, 37, 298};
  MaskSetting causal_longformer = longformer;
  causal_longformer.causal = true;
  for (const MaskSetting& mask : {none, causal, band, sliding, longformer, causal_longformer}) {
    for (const bool cross : {false, true}) {
      ProblemShape shape;
      shape.n = 300;
      shape.cross = cross;
      shape.m = 260;
      shape.d_model = 6;
      shape.heads = 4;
      shape.kv_heads = 2;
      shape.d_k = 5;
      shape.d_v = 3;
      shape.with_wo = cross;
      shape.mask = mask;
      const Problem p = testing::random_problem(random, shape);
      SCOPED_TRACE(std::string(cross ? "cross " : "self ") + (mask.causal ? "causal " : "") +
                   (mask.window ? "window " : "") + std::to_string(mask.global.size()) + " globals");
      expect_matches_reference(p, 2e-5);
      const Result full = make_cpu_backend()->compute(p);
      const Result fast = make_cpu_backend()->compute(p, ComputeOptions{.scores_under_mask = false});
      for (std::size_t h = 0; h < full.heads.size(); ++h) {
        EXPECT_EQ(fast.heads[h].weights, full.heads[h].weights);
        for (std::size_t k = 0; k < full.mask.visible.size(); ++k) {
          if (full.mask.visible[k] == 0) {
            ASSERT_EQ(fast.heads[h].scores.data[k], 0.0f) << "cell " << k;
          }
        }
      }
    }
  }
}

// The window recomputes on every edit: the same shape again reuses every host buffer, and a
// different shape after it is computed correctly into the same Result.
TEST(CpuBackend, ComputeIntoReusesTheResultsStorageForTheSameShape) {
  TestRandom random(8);
  ProblemShape shape;
  shape.n = 200;
  shape.heads = 2;
  const auto backend = make_cpu_backend();
  Result result;
  backend->compute_into(testing::random_problem(random, shape), {}, result);
  const float* scores = result.heads[1].scores.data.data();
  const float* weights = result.heads[1].weights.data.data();
  const Problem again = testing::random_problem(random, shape);
  backend->compute_into(again, {}, result);
  EXPECT_EQ(result.heads[1].scores.data.data(), scores);
  EXPECT_EQ(result.heads[1].weights.data.data(), weights);
  const Result fresh = make_cpu_backend()->compute(again);
  EXPECT_EQ(result.heads[1].weights, fresh.heads[1].weights);
  EXPECT_EQ(result.output, fresh.output);

  shape.n = 7;
  shape.heads = 3;
  const Problem smaller = testing::random_problem(random, shape);
  backend->compute_into(smaller, {}, result);
  ASSERT_EQ(result.heads.size(), 3u);
  EXPECT_EQ(result.heads[2].scores.rows, 7);
  EXPECT_EQ(result.heads[2].weights, make_cpu_backend()->compute(smaller).heads[2].weights);
}

TEST(CpuBackend, RunKeepsTheResultsOnTheHostAndNothingOnADevice) {
  TestRandom random(12);
  ProblemShape shape;
  shape.n = 40;
  shape.heads = 2;
  const auto backend = make_cpu_backend();
  EXPECT_THROW((void)backend->result(), std::logic_error);
  const Problem problem = testing::random_problem(random, shape);
  backend->run(problem);
  EXPECT_EQ(backend->device_results(), nullptr);
  EXPECT_EQ(backend->allocation_count(), 0u);
  const Result& result = backend->result();
  const Result fresh = make_cpu_backend()->compute(problem);
  EXPECT_EQ(result.heads[1].weights, fresh.heads[1].weights);
  EXPECT_EQ(result.output, fresh.output);
  EXPECT_EQ(backend->timing().stages_ms.size(), result.timing.stages_ms.size());

  // The same shape again: the same storage, the new values.
  const float* weights = result.heads[1].weights.data.data();
  const Problem again = testing::random_problem(random, shape);
  backend->run(again);
  EXPECT_EQ(backend->result().heads[1].weights.data.data(), weights);
  EXPECT_EQ(backend->result().heads[1].weights, make_cpu_backend()->compute(again).heads[1].weights);

  // compute_into fills the caller's Result, not the backend's.
  Result mine;
  backend->compute_into(problem, {}, mine);
  EXPECT_EQ(mine.output, fresh.output);
  EXPECT_THROW((void)backend->result(), std::logic_error);
}

TEST(CpuBackend, ReportsItselfAndItsTimings) {
  TestRandom random(1);
  const Result result = make_cpu_backend()->compute(testing::random_problem(random, ProblemShape{}));
  EXPECT_EQ(result.backend, "cpu");
  EXPECT_NE(result.device.find("Eigen 3."), std::string::npos);
  EXPECT_GT(result.timing.total_ms, 0.0);
  EXPECT_FALSE(result.timing.stages_ms.empty());
}

}  // namespace
}  // namespace attnviz
