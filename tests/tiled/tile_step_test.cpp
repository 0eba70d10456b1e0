// What the Tiled view shows at each tile (core/tiled/tile_step.h): O before is O after the
// previous tile of the block, O / l so far is the softmax over exactly the keys seen so far
// (recomputed here in float64 from the projections, independently of the tiled code), and
// after the block's last tile the view's "difference" against the dense result is within 1e-5.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/attention/mask.h"
#include "core/cpu/cpu_backend.h"
#include "core/tiled/tile_grid.h"
#include "core/tiled/tile_step.h"
#include "core/tiled/tiled_attention.h"
#include "tests/tiled/tiled_cases.h"

namespace attnviz {
namespace {

using testing::max_abs_difference;

constexpr double kTolerance = 1e-5;

// Row i of the context over the visible keys j < key_end, in float64 from X, W_Q, W_K, W_V.
std::vector<double> context_over_prefix(const Problem& p, int head, int i, int key_end) {
  const int g = p.kv_head_of(head);
  const auto dot_row = [](const Matrix& x, int r, const Matrix& w, int col) {
    double sum = 0.0;
    for (int k = 0; k < x.cols; ++k) sum += static_cast<double>(x.at(r, k)) * w.at(k, col);
    return sum;
  };
  const Mask mask(p.mask, p.n(), p.m());
  std::vector<double> q(static_cast<std::size_t>(p.d_k));
  for (int c = 0; c < p.d_k; ++c) q[static_cast<std::size_t>(c)] = dot_row(p.x, i, p.wq, head * p.d_k + c);
  std::vector<double> scores;
  std::vector<int> keys;
  for (int j = 0; j < key_end; ++j) {
    if (!mask.visible(i, j)) continue;
    double s = 0.0;
    for (int c = 0; c < p.d_k; ++c) s += q[static_cast<std::size_t>(c)] * dot_row(p.xs, j, p.wk, g * p.d_k + c);
    scores.push_back(s * p.scale);
    keys.push_back(j);
  }
  std::vector<double> out(static_cast<std::size_t>(p.d_v), 0.0);
  if (keys.empty()) return out;
  const double top = *std::max_element(scores.begin(), scores.end());
  double sum = 0.0;
  for (double& s : scores) sum += (s = std::exp(s - top));
  for (std::size_t k = 0; k < keys.size(); ++k) {
    for (int c = 0; c < p.d_v; ++c)
      out[static_cast<std::size_t>(c)] += scores[k] / sum * dot_row(p.xs, keys[k], p.wv, g * p.d_v + c);
  }
  return out;
}

TEST(TileStep, EachTileShowsTheBlockSoFarAndTheLastOneTheDenseContext) {
  testing::TestRandom random(7);
  const auto dense_backend = make_cpu_backend();
  const auto runner = tiled::make_cpu_tiled();
  const std::vector<std::string> wanted = {"mha-causal", "gqa-longformer", "mqa-sliding3", "cross21-window2"};
  for (const testing::TiledCase& c : testing::tiled_cases()) {
    if (std::find(wanted.begin(), wanted.end(), c.name) == wanted.end()) continue;
    const Problem problem = testing::random_problem(random, c.shape);
    const Result dense = dense_backend->compute(problem);
    for (const auto& [br, bc] : {std::pair{4, 4}, std::pair{3, 5}, std::pair{1, 1}, std::pair{16, 32}}) {
      SCOPED_TRACE(c.name + " Br=" + std::to_string(br) + " Bc=" + std::to_string(bc));
      const int head = problem.num_heads - 1;
      const tiled::TiledResult result = runner->run(problem, {br, bc, head});
      const tiled::TileGrid grid(problem.n(), problem.m(), br, bc);
      const Matrix& dense_context = dense.heads[static_cast<std::size_t>(head)].context;
      for (int t = 0; t < grid.tile_count(); ++t) {
        const tiled::TileStep step = tiled::tile_step(*result.trace, grid, t, dense_context);
        ASSERT_EQ(step.row_begin, grid.row_begin(step.qb));
        ASSERT_EQ(step.col_end, grid.col_end(step.kb));
        if (step.first_of_block) {
          EXPECT_EQ(step.o_before, Matrix(step.row_end - step.row_begin, problem.d_v));
        } else {
          EXPECT_EQ(step.o_before, tiled::tile_step(*result.trace, grid, t - 1, dense_context).o_after);
        }
        if (step.skipped) {
          EXPECT_EQ(step.o_after, step.o_before) << "a skipped tile changes nothing";
          EXPECT_EQ(step.m_after, step.m_before);
        }
        for (int r = 0; r < step.row_end - step.row_begin; ++r) {
          const std::vector<double> expected = context_over_prefix(problem, head, step.row_begin + r, step.col_end);
          for (int col = 0; col < problem.d_v; ++col) {
            EXPECT_NEAR(step.running.at(r, col), expected[static_cast<std::size_t>(col)], kTolerance)
                << "tile " << t << " row " << r;
            EXPECT_FLOAT_EQ(step.difference.at(r, col), step.running.at(r, col) - step.dense.at(r, col));
          }
        }
        if (step.last_of_block) {
          EXPECT_LE(step.max_abs_difference, kTolerance) << "tile " << t;
        }
      }
      EXPECT_LE(tiled::context_difference(*result.trace, dense_context), kTolerance);
    }
  }
}

TEST(TileStep, RefusesATileOutsideTheTraceOrAnotherGrid) {
  testing::TestRandom random(1);
  const Problem problem = testing::random_problem(random, {});
  const tiled::TiledResult result = tiled::make_cpu_tiled()->run(problem, {2, 2, 0});
  const Matrix dense(problem.n(), problem.d_v);
  EXPECT_THROW((void)tiled::tile_step(*result.trace, tiled::TileGrid(problem.n(), problem.m(), 2, 2), 9, dense),
               std::out_of_range);
  EXPECT_THROW((void)tiled::tile_step(*result.trace, tiled::TileGrid(problem.n(), problem.m(), 3, 2), 0, dense),
               std::invalid_argument);
  EXPECT_THROW((void)tiled::tile_step(*result.trace, tiled::TileGrid(problem.n(), problem.m(), 2, 2), 0, Matrix(2, 2)),
               std::invalid_argument);
}

}  // namespace
}  // namespace attnviz
