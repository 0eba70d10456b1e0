// The CPU tiled algorithm (core/tiled) against the materialised Eigen path: the same context
// within 1e-5 for every mask kind, GQA / MQA, cross-attention and tile sizes that do and do
// not divide N; and its trace against what the online softmax says each tile must do.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/attention/mask.h"
#include "core/cpu/cpu_backend.h"
#include "core/tiled/tile_grid.h"
#include "core/tiled/tiled_attention.h"
#include "tests/tiled/tiled_cases.h"

namespace attnviz {
namespace {

using testing::max_abs_difference;
using testing::TestRandom;

constexpr double kTolerance = 1e-5;

// RoPE'd q and k, ALiBi's bias inside the tiles and dropout on each tile's P (after l summed
// it) give the dense path's context: MHA / GQA / MQA, cross-attention, a position offset.
TEST(TiledCpu, AgreesWithTheMaterialisedPathUnderPositionsAndDropout) {
  TestRandom random(29);
  const auto cpu = make_cpu_backend();
  const auto tiled = tiled::make_cpu_tiled();
  std::vector<testing::TiledCase> cases = testing::tiled_cases();
  for (std::size_t i = 0; i < cases.size(); i += 5) {
    testing::TiledCase c = cases[i];
    c.shape.d_k = 4;  // even: RoPE turns pairs
    for (const PositionalKind kind : {PositionalKind::Rope, PositionalKind::Alibi}) {
      for (const bool dropout : {false, true}) {
        Problem problem = testing::random_problem(random, c.shape);
        problem.positional = kind;
        problem.position_offset = static_cast<int>(i);
        if (dropout) problem.dropout = DropoutSetting{0.3, 1234 + i};
        const Result dense = cpu->compute(problem);
        const tiled::TiledResult result = tiled->run(problem, {3, 4, std::nullopt});
        SCOPED_TRACE(c.name + (kind == PositionalKind::Rope ? " rope" : " alibi") + (dropout ? " dropout" : ""));
        for (std::size_t h = 0; h < dense.heads.size(); ++h) {
          EXPECT_LE(max_abs_difference(result.heads[h].context, dense.heads[h].context), kTolerance) << "head " << h;
        }
      }
    }
  }
}

TEST(TiledCpu, AgreesWithTheMaterialisedPathForEveryMaskHeadSharingAndBlockSize) {
  TestRandom random(13);
  const auto cpu = make_cpu_backend();
  const auto tiled = tiled::make_cpu_tiled();
  for (const testing::TiledCase& c : testing::tiled_cases()) {
    const Problem problem = testing::random_problem(random, c.shape);
    const Result dense = cpu->compute(problem);
    for (const auto& [br, bc] : testing::block_sizes()) {
      SCOPED_TRACE(c.name + " Br=" + std::to_string(br) + " Bc=" + std::to_string(bc));
      const tiled::TiledResult result = tiled->run(problem, {br, bc, std::nullopt});
      ASSERT_EQ(result.heads.size(), dense.heads.size());
      for (std::size_t h = 0; h < dense.heads.size(); ++h) {
        EXPECT_LE(max_abs_difference(result.heads[h].context, dense.heads[h].context), kTolerance) << "head " << h;
      }
      EXPECT_LE(max_abs_difference(result.output, dense.output), kTolerance);
    }
  }
}

TEST(TiledCpu, RowsThatSeeNoKeyGiveZeroNeverNaN) {
  // 9 queries over 3 keys with a window of 1: rows 4..8 are more than 1 away from every key.
  TestRandom random(3);
  const Problem problem = testing::random_problem(random, testing::rows_past_the_keys(9));
  for (const auto& [br, bc] : testing::block_sizes()) {
    const tiled::TiledResult result = tiled::make_cpu_tiled()->run(problem, {br, bc, 0});
    for (const tiled::TiledHead& head : result.heads) {
      for (int i = 0; i < problem.n(); ++i) {
        for (int c = 0; c < problem.d_v; ++c) {
          if (i >= 4) {
            EXPECT_EQ(head.context.at(i, c), 0.0f) << "row " << i;
          } else {
            EXPECT_TRUE(std::isfinite(head.context.at(i, c))) << "row " << i;
          }
        }
        EXPECT_EQ(head.l[static_cast<std::size_t>(i)] == 0.0f, i >= 4) << "row " << i;
      }
    }
  }
}

// m of a row after a tile: the largest scaled visible score in the tiles visited so far, and l
// the sum of their exponentials against it, recomputed here from the dense path's scores.
void expect_trace_follows_the_scores(const Problem& problem, const HeadResult& dense, const tiled::TiledTrace& trace) {
  const Mask mask(problem.mask, problem.n(), problem.m(), problem.num_heads);
  const int h = trace.head;  // a mask expression using h: the traced head's mask
  const tiled::TileGrid grid(problem.n(), problem.m(), trace.block_q, trace.block_k);
  ASSERT_EQ(static_cast<int>(trace.tiles.size()), grid.tile_count());
  for (int qb = 0; qb < grid.query_blocks(); ++qb) {
    for (int kb = 0; kb < grid.key_blocks(); ++kb) {
      const tiled::TileVisit& tile = trace.tiles[static_cast<std::size_t>(grid.tile_index(qb, kb))];
      EXPECT_EQ(tile.qb, qb);
      EXPECT_EQ(tile.kb, kb);
      EXPECT_EQ(tile.skipped,
                !mask.block_visible(h, grid.row_begin(qb), grid.row_end(qb), grid.col_begin(kb), grid.col_end(kb)));
      for (int i = grid.row_begin(qb); i < grid.row_end(qb); ++i) {
        const auto r = static_cast<std::size_t>(i - grid.row_begin(qb));
        double m = -std::numeric_limits<double>::infinity();
        for (int j = 0; j < grid.col_end(kb); ++j) {
          if (mask.visible(h, i, j)) m = std::max(m, static_cast<double>(problem.scale) * dense.scores.at(i, j));
        }
        double l = 0.0;
        for (int j = 0; j < grid.col_end(kb); ++j) {
          if (mask.visible(h, i, j)) l += std::exp(static_cast<double>(problem.scale) * dense.scores.at(i, j) - m);
        }
        if (std::isinf(m)) {
          EXPECT_EQ(tile.m_after[r], -std::numeric_limits<float>::infinity());
        } else {
          EXPECT_NEAR(tile.m_after[r], m, 1e-5);
        }
        EXPECT_NEAR(tile.l_after[r], l, 1e-5 * std::max(1.0, l));
        const float expected_rescale =
            std::isinf(tile.m_after[r]) ? 1.0f : std::exp(tile.m_before[r] - tile.m_after[r]);
        EXPECT_FLOAT_EQ(tile.rescale[r], expected_rescale);
        // O after the tile, divided by l, is the context of the keys seen so far: after the
        // last tile, the row's context.
        if (kb + 1 == grid.key_blocks() && tile.l_after[r] > 0.0f) {
          for (int c = 0; c < problem.d_v; ++c) {
            EXPECT_NEAR(tile.o_after.at(static_cast<int>(r), c) / tile.l_after[r], dense.context.at(i, c), kTolerance);
          }
        }
      }
    }
  }
}

TEST(TiledCpu, TraceRecordsEveryTileInVisitOrderWithTheRunningMaxAndSum) {
  TestRandom random(5);
  const auto tiled = tiled::make_cpu_tiled();
  for (const testing::TiledCase& c : testing::tiled_cases()) {
    const Problem problem = testing::random_problem(random, c.shape);
    const Result dense = make_cpu_backend()->compute(problem);
    for (const auto& [br, bc] : {std::pair{4, 3}, std::pair{1, 5}, std::pair{13, 2}}) {
      SCOPED_TRACE(c.name + " Br=" + std::to_string(br) + " Bc=" + std::to_string(bc));
      const int head = problem.num_heads - 1;
      const tiled::TiledResult result = tiled->run(problem, {br, bc, head});
      ASSERT_TRUE(result.trace.has_value());
      EXPECT_EQ(result.trace->head, head);
      EXPECT_EQ(result.trace->kv_head, problem.kv_head_of(head));
      EXPECT_LE(max_abs_difference(result.trace->context, dense.heads[static_cast<std::size_t>(head)].context),
                kTolerance);
      expect_trace_follows_the_scores(problem, dense.heads[static_cast<std::size_t>(head)], *result.trace);
    }
  }
}

TEST(TiledCpu, HiddenTilesAreSkippedSoAPoisonedKeyTheyHideChangesNothing) {
  // A NaN in key 12's embedding: under a causal mask, only row 12 sees it. Tiles of rows
  // above it that hold column 12 are hidden and must be skipped, not multiplied by 0.
  TestRandom random(11);
  testing::ProblemShape shape;
  shape.n = 13;
  shape.mask = testing::mask_of(true);
  Problem problem = testing::random_problem(random, shape);
  problem.x.at(12, 0) = std::numeric_limits<float>::quiet_NaN();
  problem.xs = problem.x;
  const tiled::TiledResult result = tiled::make_cpu_tiled()->run(problem, {4, 4, std::nullopt});
  for (const tiled::TiledHead& head : result.heads) {
    for (int i = 0; i < 12; ++i) {
      for (int c = 0; c < problem.d_v; ++c) EXPECT_TRUE(std::isfinite(head.context.at(i, c))) << "row " << i;
    }
  }
}

TEST(TiledCpu, RefusesBlockSizesBelowOneAndHeadsThatDoNotExist) {
  TestRandom random(1);
  const Problem problem = testing::random_problem(random, {});
  const auto tiled = tiled::make_cpu_tiled();
  EXPECT_THROW(tiled->run(problem, {0, 4, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(tiled->run(problem, {4, -1, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(tiled->run(problem, {4, 4, problem.num_heads}), std::invalid_argument);
  EXPECT_THROW(tiled->run(problem, {4, 4, -1}), std::invalid_argument);
}

TEST(TileGrid, CoversTheMatrixWithEdgeTilesHoldingWhatIsLeft) {
  const tiled::TileGrid grid(13, 7, 4, 3);
  EXPECT_EQ(grid.query_blocks(), 4);
  EXPECT_EQ(grid.key_blocks(), 3);
  EXPECT_EQ(grid.row_end(3), 13);
  EXPECT_EQ(grid.col_end(2), 7);
  EXPECT_EQ(grid.tile_index(2, 1), 7);
  const tiled::TileGrid wide(3, 3, 8, 8);
  EXPECT_EQ(wide.tile_count(), 1);
  EXPECT_EQ(wide.block_rows(), 3);
}

}  // namespace
}  // namespace attnviz
