// Q, K, V of the lesson model against an independent float64 loop and hand calculations.

#include <gtest/gtest.h>

#include "core/lesson/projections.h"
#include "tests/attention/random_problem.h"
#include "tests/attention/reference_attention.h"
#include "tests/lesson/lesson_support.h"

namespace attnviz {
namespace {

void expect_near(const Matrix& actual, const std::vector<std::vector<double>>& expected, double tolerance,
                 const char* what) {
  ASSERT_EQ(static_cast<std::size_t>(actual.rows), expected.size()) << what;
  for (int r = 0; r < actual.rows; ++r) {
    ASSERT_EQ(static_cast<std::size_t>(actual.cols), expected[static_cast<std::size_t>(r)].size()) << what;
    for (int c = 0; c < actual.cols; ++c)
      EXPECT_NEAR(actual.at(r, c), expected[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)], tolerance)
          << what << " (" << r << ", " << c << ")";
  }
}

TEST(LessonProjections, MatchFloat64LoopOnRandomProblems) {
  testing::TestRandom random(11);
  for (int trial = 0; trial < 40; ++trial) {
    testing::ProblemShape shape;
    shape.n = random.between(1, 12);
    shape.cross = random.coin();
    shape.m = random.between(1, 12);
    shape.d_model = random.between(1, 8);
    shape.kv_heads = random.between(1, 3);
    shape.heads = shape.kv_heads * random.between(1, 3);
    shape.d_k = random.between(1, 5);
    shape.d_v = random.between(1, 5);
    const Problem p = testing::random_problem(random, shape);
    SCOPED_TRACE("trial " + std::to_string(trial));

    const lesson::Projections all = lesson::compute_projections(p);
    expect_near(all.q, testing::product(p.x, p.wq, 0, p.wq.cols), 1e-5, "Q");
    expect_near(all.k, testing::product(p.xs, p.wk, 0, p.wk.cols), 1e-5, "K");
    expect_near(all.v, testing::product(p.xs, p.wv, 0, p.wv.cols), 1e-5, "V");

    for (int h = 0; h < p.num_heads; ++h) {
      const int g = h / (p.num_heads / p.num_kv_heads);
      const lesson::HeadProjections head = lesson::head_projections(p, all, h);
      expect_near(head.q, testing::product(p.x, p.wq, h * p.d_k, p.d_k), 1e-5, "Q_h");
      expect_near(head.k, testing::product(p.xs, p.wk, g * p.d_k, p.d_k), 1e-5, "K_g");
      expect_near(head.v, testing::product(p.xs, p.wv, g * p.d_v, p.d_v), 1e-5, "V_g");
    }
  }
}

// By hand from the fixture's X and W_Q: x[어제]·W_Q and x[배]·W_Q (the Korean tutorial's Q has
// slips here; see tests/fixtures/README.md).
TEST(LessonProjections, KoreanQueryRowsMatchHandCalculation) {
  const Problem p = testing::fixture_problem(testing::read_fixture("korean-full.json"));
  const lesson::Projections all = lesson::compute_projections(p);
  const float first[] = {0.19f, 0.15f, 0.19f, 0.17f};  // 0.1·0.5 + 0.2·0.2 + 0.1·0.1 + 0.3·0.3 = 0.19, ...
  const float bae[] = {0.36f, 0.25f, 0.23f, 0.26f};    // 0.5·0.5 + 0.3·0.2 + 0.2·0.1 + 0.1·0.3 = 0.36, ...
  for (int d = 0; d < 4; ++d) {
    EXPECT_NEAR(all.q.at(0, d), first[d], 1e-6) << d;
    EXPECT_NEAR(all.q.at(2, d), bae[d], 1e-6) << d;
  }
}

TEST(LessonProjections, ColumnBlocksAndConcatenation) {
  Matrix m(2, 4);
  for (int k = 0; k < 8; ++k) m.data[static_cast<std::size_t>(k)] = static_cast<float>(k);
  const Matrix left = lesson::column_block(m, 0, 2);
  const Matrix right = lesson::column_block(m, 2, 2);
  EXPECT_EQ(right.at(1, 0), 6.0f);
  EXPECT_EQ(lesson::concatenate_columns({&left, &right}), m);
  EXPECT_THROW((void)lesson::column_block(m, 3, 2), std::out_of_range);
}

}  // namespace
}  // namespace attnviz
