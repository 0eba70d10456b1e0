// One query's row over every key (query_row.h) against the dense Eigen path's row: every mask
// kind and head layout, cross-attention, positions, scores as well as weights, and the keys it
// ranks first.

#include <gtest/gtest.h>

#include <cmath>

#include "core/attention/mask.h"
#include "core/cpu/cpu_backend.h"
#include "core/overview/query_row.h"
#include "core/scenario/positions.h"
#include "tests/tiled/tiled_cases.h"

namespace attnviz::testing {
namespace {

using overview::Quantity;
using overview::QueryRow;

constexpr double kWeightAbs = 2e-6;
constexpr double kScoreAbs = 1e-5;

void expect_row_matches_dense(const Problem& p, const Result& dense, int head, int query, Quantity quantity,
                              const std::string& name) {
  const auto runner = overview::make_cpu_overview();
  const QueryRow row = overview::query_row(*runner, p, head, query, quantity);
  ASSERT_EQ(row.keys(), p.m()) << name;
  const Mask mask(p.mask, p.n(), p.m(), p.num_heads);
  const Matrix& weights = dense.heads[static_cast<std::size_t>(head)].weights;
  const Matrix& scores = dense.heads[static_cast<std::size_t>(head)].scores;
  const float slope = head_slopes(p)[static_cast<std::size_t>(head)];
  for (int j = 0; j < p.m(); ++j) {
    const bool hidden = !mask.visible(head, query, j);
    ASSERT_EQ(row.hidden[static_cast<std::size_t>(j)] != 0, hidden) << name << " key " << j;
    const float got = row.values[static_cast<std::size_t>(j)];
    if (quantity == Quantity::Weights) {
      EXPECT_NEAR(got, weights.at(query, j), kWeightAbs) << name << " key " << j;
    } else if (!hidden) {
      const float raw = scores.at(query, j);
      const double want = quantity == Quantity::RawScores ? raw : scaled_score(raw, p.scale, slope, query, j);
      EXPECT_NEAR(got, want, kScoreAbs * (1.0 + std::abs(want))) << name << " key " << j;
    }
  }
}

TEST(QueryRow, EveryMaskAndHeadLayoutMatchesTheDenseRow) {
  for (const TiledCase& c : tiled_cases()) {
    TestRandom random(13);
    const Problem p = random_problem(random, c.shape);
    const Result dense = make_cpu_backend()->compute(p);
    for (int h = 0; h < p.num_heads; ++h) {
      for (const int query : {0, p.n() / 2, p.n() - 1}) {
        expect_row_matches_dense(p, dense, h, query, Quantity::Weights, c.name + " head " + std::to_string(h));
      }
    }
    expect_row_matches_dense(p, dense, p.num_heads - 1, p.n() - 1, Quantity::RawScores, c.name + " raw");
  }
}

// Several tiles of keys, RoPE and ALiBi at a position offset, GQA.
TEST(QueryRow, PositionsAndManyTilesMatchTheDenseRow) {
  ProblemShape shape;
  shape.n = shape.m = 1300;
  shape.d_model = 8;
  shape.d_k = 6;
  shape.d_v = 2;
  shape.heads = 4;
  shape.kv_heads = 2;
  shape.mask = expression_mask(mask_of(false), "k <= q && (k < 4 || q - k <= 600)");
  for (const PositionalKind kind : {PositionalKind::None, PositionalKind::Rope, PositionalKind::Alibi}) {
    TestRandom random(21);
    Problem p = random_problem(random, shape);
    p.positional = kind;
    p.position_offset = 500;
    p.rope_theta = 700.0;
    const Result dense = make_cpu_backend()->compute(p);
    const std::string name = to_string(kind);
    expect_row_matches_dense(p, dense, 3, 1299, Quantity::Weights, name);
    expect_row_matches_dense(p, dense, 1, 640, Quantity::Weights, name);
    expect_row_matches_dense(p, dense, 2, 1000, Quantity::ScaledScores, name + " scaled");
  }
}

TEST(QueryRow, TopKeysAreTheLargestVisibleWeightsInOrder) {
  QueryRow row;
  row.values = {0.1f, 0.4f, 0.0f, 0.4f, 0.05f, 0.05f};
  row.hidden = {0, 0, 1, 0, 0, 0};
  EXPECT_EQ(row.top_keys(3), (std::vector<int>{1, 3, 0}));         // equal weights: the earlier key first
  EXPECT_EQ(row.top_keys(10), (std::vector<int>{1, 3, 0, 4, 5}));  // never a hidden key
  EXPECT_TRUE(row.top_keys(0).empty());
  EXPECT_EQ(row.visible_count(), 5);
  const auto runner = overview::make_cpu_overview();
  TestRandom random(3);
  ProblemShape shape;
  shape.n = shape.m = 40;
  shape.mask = mask_of(true);
  const Problem p = random_problem(random, shape);
  const QueryRow first = overview::query_row(*runner, p, 0, 0);
  EXPECT_EQ(first.top_keys(5), (std::vector<int>{0})) << "the first token sees only itself";
  EXPECT_FLOAT_EQ(first.values[0], 1.0f);
}

TEST(QueryRow, AQueryOrHeadOutsideTheProblemIsRefused) {
  TestRandom random(4);
  ProblemShape shape;
  shape.n = shape.m = 10;
  const Problem p = random_problem(random, shape);
  const auto runner = overview::make_cpu_overview();
  EXPECT_THROW(overview::query_row(*runner, p, 0, 10), std::invalid_argument);
  EXPECT_THROW(overview::query_row(*runner, p, 0, -1), std::invalid_argument);
  EXPECT_THROW(overview::query_row(*runner, p, 5, 0), std::invalid_argument);
}

}  // namespace
}  // namespace attnviz::testing
