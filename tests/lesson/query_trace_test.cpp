// The followed query's numbers: equal to the core's Result, and to the fixtures' independent
// float64 values (the Korean tutorial's "배", query 2).

#include <gtest/gtest.h>

#include <cmath>

#include "core/cpu/cpu_backend.h"
#include "core/lesson/steps.h"
#include "tests/attention/random_problem.h"
#include "tests/lesson/lesson_support.h"

namespace attnviz {
namespace {

constexpr int kBae = 2;  // "배"

TEST(QueryTrace, KoreanBaeRowMatchesFixture) {
  const nlohmann::json fixture = testing::read_fixture("korean-full.json");
  const Problem problem = testing::fixture_problem(fixture);
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::StepModel model(problem, result);
  const lesson::QueryTrace trace = model.trace(0, kBae);
  const nlohmann::json& head = fixture["expected"]["heads"][0];

  const std::vector<double> scores = testing::json_row(head["scores"], kBae);
  const std::vector<double> weights = testing::json_row(head["weights"], kBae);
  const std::vector<double> context = testing::json_row(head["context"], kBae);
  ASSERT_EQ(trace.scores.size(), 8u);
  // Independently: the exponentials and their sum from the fixture's float64 scores.
  double max_scaled = -INFINITY;
  for (double s : scores) max_scaled = std::fmax(max_scaled, s / 2.0);  // √d_k = √4 = 2
  double sum = 0.0;
  for (double s : scores) sum += std::exp(s / 2.0 - max_scaled);
  EXPECT_NEAR(trace.row_max, max_scaled, 1e-6);
  EXPECT_NEAR(trace.exponential_sum, sum, 1e-5);
  EXPECT_EQ(trace.visible_count(), 8);
  for (std::size_t j = 0; j < 8; ++j) {
    EXPECT_NEAR(trace.scores[j], scores[j], 1e-6) << j;
    EXPECT_NEAR(trace.scaled[j], scores[j] / 2.0, 1e-6) << j;
    EXPECT_NEAR(trace.exponentials[j], std::exp(scores[j] / 2.0 - max_scaled), 1e-6) << j;
    EXPECT_NEAR(trace.weights[j], weights[j], 1e-6) << j;
  }
  for (std::size_t d = 0; d < 4; ++d) EXPECT_NEAR(trace.context[d], context[d], 1e-6) << d;
  // 배's highest score is with itself: 0.3247 (column 2).
  EXPECT_NEAR(trace.scores[2], 0.3247, 1e-6);
}

TEST(QueryTrace, CausalFirstRowSeesOnlyItself) {
  const nlohmann::json fixture = testing::read_fixture("korean-causal.json");
  const Problem problem = testing::fixture_problem(fixture);
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::QueryTrace first = lesson::StepModel(problem, result).trace(0, 0);
  EXPECT_EQ(first.visible_count(), 1);
  EXPECT_DOUBLE_EQ(first.exponentials[0], 1.0);  // exp(max − max)
  EXPECT_DOUBLE_EQ(first.weights[0], 1.0);
  for (std::size_t j = 1; j < 8; ++j) {
    EXPECT_TRUE(std::isinf(first.masked[j]) && first.masked[j] < 0) << j;
    EXPECT_EQ(first.weights[j], 0.0) << j;
  }
  // Its context is v[어제] itself: the fixture's first context row.
  const std::vector<double> context = testing::json_row(fixture["expected"]["heads"][0]["context"], 0);
  for (std::size_t d = 0; d < 4; ++d) EXPECT_NEAR(first.context[d], context[d], 1e-6);
}

TEST(QueryTrace, EqualsTheResultOnRandomProblems) {
  testing::TestRandom random(5);
  for (int trial = 0; trial < 30; ++trial) {
    testing::ProblemShape shape;
    shape.n = random.between(1, 10);
    shape.cross = random.coin();
    shape.m = random.between(1, 10);
    shape.kv_heads = random.between(1, 2);
    shape.heads = shape.kv_heads * random.between(1, 2);
    shape.mask.causal = random.coin();
    if (random.coin()) shape.mask.window = random.between(0, 3);
    const Problem problem = testing::random_problem(random, shape);
    const Result result = make_cpu_backend()->compute(problem);
    const lesson::StepModel model(problem, result);
    SCOPED_TRACE("trial " + std::to_string(trial));
    for (int h = 0; h < problem.num_heads; ++h)
      for (int i = 0; i < problem.n(); ++i) {
        const lesson::QueryTrace trace = model.trace(h, i);
        const HeadResult& head = result.heads[static_cast<std::size_t>(h)];
        for (int j = 0; j < problem.m(); ++j) {
          EXPECT_EQ(trace.scores[static_cast<std::size_t>(j)], head.scores.at(i, j));
          EXPECT_NEAR(trace.weights[static_cast<std::size_t>(j)], head.weights.at(i, j), 1e-6);
        }
        for (int d = 0; d < problem.d_v; ++d)
          EXPECT_NEAR(trace.context[static_cast<std::size_t>(d)], head.context.at(i, d), 1e-5);
        EXPECT_EQ(trace.fully_masked(),
                  std::find(result.masked_rows.begin(), result.masked_rows.end(), i) != result.masked_rows.end());
      }
  }
}

TEST(QueryTrace, FullyMaskedRowHasZeroWeightsAndNoNaN) {
  testing::TestRandom random(3);
  testing::ProblemShape shape;
  shape.cross = true;
  shape.n = 4;
  shape.m = 2;
  shape.heads = 1;
  shape.kv_heads = 1;
  shape.mask.window = 0;  // rows 2 and 3 have no key within distance 0
  const Problem problem = testing::random_problem(random, shape);
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::QueryTrace trace = lesson::StepModel(problem, result).trace(0, 3);
  EXPECT_TRUE(trace.fully_masked());
  for (double w : trace.weights) EXPECT_EQ(w, 0.0);
  for (double c : trace.context) EXPECT_EQ(c, 0.0);
}

// The arithmetic check, term by term, against values worked out by hand from the fixture.
TEST(DotProduct, KoreanCellTermByTerm) {
  const nlohmann::json fixture = testing::read_fixture("korean-full.json");
  const Problem problem = testing::fixture_problem(fixture);
  const Result result = make_cpu_backend()->compute(problem);
  const lesson::StepModel model(problem, result);
  const lesson::DotProductTerms terms = model.dot_product(0, kBae, 0);  // 배 against 어제
  // q[배] = x[배]·W_Q = (0.5·0.5 + 0.3·0.2 + 0.2·0.1 + 0.1·0.3, ...) = (0.36, 0.25, 0.23, 0.26)
  // k[어제] = x[어제]·W_K = (0.1·0.4 + 0.2·0.1 + 0.1·0.2 + 0.3·0.3, ...) = (0.17, 0.18, 0.13, 0.26)
  const double q[] = {0.36, 0.25, 0.23, 0.26};
  const double k[] = {0.17, 0.18, 0.13, 0.26};
  double total = 0.0;
  ASSERT_EQ(terms.products.size(), 4u);
  for (std::size_t d = 0; d < 4; ++d) {
    EXPECT_NEAR(terms.q[d], q[d], 1e-6);
    EXPECT_NEAR(terms.k[d], k[d], 1e-6);
    EXPECT_NEAR(terms.products[d], q[d] * k[d], 1e-6);
    total += q[d] * k[d];
  }
  EXPECT_NEAR(terms.total, total, 1e-6);
  EXPECT_NEAR(total, 0.2037, 1e-12);  // 0.0612 + 0.045 + 0.0299 + 0.0676
  EXPECT_NEAR(terms.total, fixture["expected"]["heads"][0]["scores"][2][0].get<double>(), 1e-6);
  EXPECT_NEAR(terms.total, terms.result_score, 1e-6);
  EXPECT_EQ(lesson::dot_product_text(terms, "배", "어제", 2),
            "q[배]·k[어제] = 0.36×0.17 + 0.25×0.18 + 0.23×0.13 + 0.26×0.26 = 0.20");
  EXPECT_EQ(
      lesson::dot_product_lines(terms, "배", "어제", 2, 2),
      (std::vector<std::string>{"q[배]·k[어제] =", "  0.36×0.17 + 0.25×0.18", "+ 0.23×0.13 + 0.26×0.26", "= 0.20"}));
  EXPECT_EQ(lesson::dot_product_lines(terms, "배", "어제", 2, 3).size(), 4u);  // 3 + 1 terms
}

TEST(DotProduct, NegativeFactorsAreParenthesised) {
  lesson::DotProductTerms terms;
  terms.q = {1.0, -0.5};
  terms.k = {-2.0, 0.25};
  terms.products = {-2.0, -0.125};
  terms.total = -2.125;
  EXPECT_EQ(lesson::dot_product_text(terms, "a", "b", 3),
            "q[a]·k[b] = 1.000×(\u22122.000) + (\u22120.500)×0.250 = \u22122.125");
}

}  // namespace
}  // namespace attnviz
