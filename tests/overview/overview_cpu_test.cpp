// The CPU overview against the dense Eigen path pooled by the definition (dense_pooling.h):
// every mask kind, MHA / GQA / MQA, cross-attention, max and mean of weights, raw and scaled
// scores, windows, exact cells, several tiles and chunks per pass, known row statistics, the
// stop flag, and bad requests.

#include <gtest/gtest.h>

#include <thread>

#include "core/cpu/cpu_backend.h"
#include "core/overview/overview.h"
#include "core/scenario/positions.h"
#include "tests/overview/dense_pooling.h"
#include "tests/tiled/tiled_cases.h"

namespace attnviz::testing {
namespace {

using overview::CellWindow;
using overview::OverviewRequest;
using overview::Pooling;
using overview::Quantity;

constexpr double kWeightAbs = 2e-6;  // float32 exp, m and l against the dense softmax
constexpr double kRelative = 2e-5;
constexpr double kScoreAbs = 1e-5;

const Quantity kQuantities[] = {Quantity::Weights, Quantity::RawScores, Quantity::ScaledScores};
const Pooling kPoolings[] = {Pooling::Max, Pooling::Mean};

void expect_matches_dense(const Problem& p, const Result& dense, const OverviewRequest& request,
                          const std::string& name) {
  const overview::Overview got = overview::make_cpu_overview()->run(p, request);
  ASSERT_EQ(got.heads.size(), request.heads.empty() ? static_cast<std::size_t>(p.num_heads) : request.heads.size());
  for (const overview::PooledImage& image : got.heads) {
    const DensePooled want = pool_dense(dense, p, image.head, got.grid, request.quantity, request.pooling);
    const double absolute = request.quantity == Quantity::Weights ? kWeightAbs : kScoreAbs;
    expect_image_near(want, image, got.grid, absolute, kRelative,
                      name + " head " + std::to_string(image.head) + " " + overview::quantity_name(request.quantity) +
                          " " + overview::pooling_name(request.pooling));
  }
}

TEST(OverviewCpu, EveryMaskAndHeadLayoutMatchesTheDensePath) {
  for (const TiledCase& c : tiled_cases()) {
    TestRandom random(11);
    const Problem p = random_problem(random, c.shape);
    const Result dense = make_cpu_backend()->compute(p);
    for (const Quantity q : kQuantities) {
      for (const Pooling pooling : kPoolings) {
        OverviewRequest request;
        request.max_pixel_rows = 4;  // blocks of 4 × 3 or 4 × 6: neither divides 13 or 21
        request.max_pixel_cols = 5;
        request.quantity = q;
        request.pooling = pooling;
        expect_matches_dense(p, dense, request, c.name);
      }
    }
  }
}

// 700 × 700 cells: several 512-key tiles in pass 1 (m grows from one tile to the next), several
// 192-row chunks per pixel row in pass 2, tiles straddling pixel columns.
Problem long_problem(MaskSetting mask, int heads = 2, int kv_heads = 1) {
  ProblemShape shape;
  shape.n = shape.m = 700;
  shape.d_model = 8;
  shape.d_k = 6;
  shape.d_v = 2;
  shape.heads = heads;
  shape.kv_heads = kv_heads;
  shape.scale = 0.9f;
  shape.mask = std::move(mask);
  TestRandom random(5);
  return random_problem(random, shape);
}

TEST(OverviewCpu, ManyTilesAndChunksMatchTheDensePath) {
  for (const auto& [name, mask] : every_mask_kind()) {
    const Problem p = long_problem(mask);
    const Result dense = make_cpu_backend()->compute(p);
    OverviewRequest request;
    request.max_pixel_rows = 3;  // 234-row blocks: more than one 192-row chunk each
    request.max_pixel_cols = 9;
    request.pooling = name.size() % 2 == 0 ? Pooling::Max : Pooling::Mean;
    expect_matches_dense(p, dense, request, "700-" + name);
    request.max_pixel_rows = 64;  // 11-row blocks, many per task
    request.max_pixel_cols = 50;
    request.quantity = Quantity::ScaledScores;
    expect_matches_dense(p, dense, request, "700x64-" + name);
  }
}

TEST(OverviewCpu, AWindowPoolsOnlyItsCellsWithWholeRowStatistics) {
  const Problem p = long_problem(mask_of(true, 300, {650}));
  OverviewRequest request;
  request.window = CellWindow{130, 611, 57, 690};
  request.max_pixel_rows = 7;
  request.max_pixel_cols = 11;
  const Result dense = make_cpu_backend()->compute(p);
  for (const Pooling pooling : kPoolings) {
    request.pooling = pooling;
    request.quantity = Quantity::Weights;
    expect_matches_dense(p, dense, request, "window");
    request.quantity = Quantity::RawScores;
    expect_matches_dense(p, dense, request, "window");
  }
}

TEST(OverviewCpu, ASmallWindowGivesTheExactCells) {
  const Problem p = long_problem(mask_of(false, 5, {3}));
  OverviewRequest request;
  request.window = CellWindow{300, 340, 290, 350};
  request.max_pixel_rows = 100;
  request.max_pixel_cols = 100;
  const Result dense = make_cpu_backend()->compute(p);
  const overview::Overview got = overview::make_cpu_overview()->run(p, request);
  ASSERT_TRUE(got.grid.exact());
  ASSERT_EQ(got.grid.rows, 40);
  ASSERT_EQ(got.grid.cols, 60);
  for (const overview::PooledImage& image : got.heads) {
    for (int r = 0; r < 40; ++r) {
      for (int c = 0; c < 60; ++c) {
        const float want = dense.heads[static_cast<std::size_t>(image.head)].weights.at(300 + r, 290 + c);
        EXPECT_NEAR(image.at(got.grid, r, c), want, kWeightAbs) << r << ", " << c;
        EXPECT_EQ(image.hidden_at(got.grid, r, c), !dense.mask.at(300 + r, 290 + c));
      }
    }
  }
}

TEST(OverviewCpu, KnownRowStatisticsGiveTheSameImageWithoutPassOne) {
  const Problem p = long_problem(mask_of(true), 3, 3);
  const auto runner = overview::make_cpu_overview();
  OverviewRequest whole;
  whole.max_pixel_rows = whole.max_pixel_cols = 16;
  const overview::Overview first = runner->run(p, whole);
  ASSERT_NE(first.stats, nullptr);
  EXPECT_GT(first.stats_macs, 0);

  OverviewRequest zoom;
  zoom.window = CellWindow{200, 500, 100, 400};
  zoom.max_pixel_rows = zoom.max_pixel_cols = 30;
  zoom.heads = {2, 0};
  const overview::Overview fresh = runner->run(p, zoom);
  zoom.known_stats = first.stats;
  const overview::Overview reused = runner->run(p, zoom);
  EXPECT_EQ(reused.stats_macs, 0);
  ASSERT_EQ(reused.heads.size(), 2u);
  EXPECT_EQ(reused.heads[0].head, 2);
  for (std::size_t h = 0; h < 2; ++h) {
    EXPECT_EQ(reused.heads[h].values, fresh.heads[h].values);
    EXPECT_EQ(reused.heads[h].hidden, fresh.heads[h].hidden);
  }
}

TEST(OverviewCpu, CountsTheMultiplyAddsOfTheTilesItComputes) {
  const Problem p = long_problem(MaskSetting{}, 1, 1);
  OverviewRequest request;
  const overview::Overview got = overview::make_cpu_overview()->run(p, request);
  EXPECT_EQ(got.stats_macs, 700LL * 700 * 6);
  EXPECT_EQ(got.pooling_macs, 700LL * 700 * 6);
  request.quantity = Quantity::RawScores;
  EXPECT_EQ(overview::make_cpu_overview()->run(p, request).stats_macs, 0);
}

TEST(OverviewCpu, AStopRequestEndsTheRunEarly) {
  const Problem p = long_problem(MaskSetting{}, 8, 8);
  overview::Progress progress;
  progress.request_stop();
  EXPECT_THROW(overview::make_cpu_overview()->run(p, {}, &progress), overview::Cancelled);
  EXPECT_LT(progress.fraction(), 0.5);

  // Asked from another thread once the run has started: it stops before half of the work.
  overview::Progress running;
  std::thread stopper([&] {
    while (running.fraction() == 0.0) std::this_thread::yield();
    running.request_stop();
  });
  EXPECT_THROW(overview::make_cpu_overview()->run(p, {}, &running), overview::Cancelled);
  stopper.join();
  EXPECT_LT(running.fraction(), 0.5);
}

TEST(OverviewCpu, ProgressReachesOneAtTheEnd) {
  const Problem p = long_problem(mask_of(true), 2, 1);
  overview::Progress progress;
  EXPECT_FALSE(progress.started()) << "before the runner knows its work";
  overview::make_cpu_overview()->run(p, {}, &progress);
  EXPECT_TRUE(progress.started());
  EXPECT_DOUBLE_EQ(progress.fraction(), 1.0);
}

// RoPE turns the projected rows at their positions, ALiBi biases each tile's scores: over
// several tiles and chunks, GQA and cross-attention, masks, a window, at a position offset.
TEST(OverviewCpu, PositionsEnterAsInTheDensePath) {
  for (const PositionalKind kind : {PositionalKind::Rope, PositionalKind::Alibi}) {
    for (const auto& [name, mask] : every_mask_kind()) {
      Problem p = long_problem(mask, 4, 2);
      p.positional = kind;
      p.position_offset = 1000;
      p.rope_theta = 500.0;  // angles that change visibly over 700 positions
      const Result dense = make_cpu_backend()->compute(p);
      OverviewRequest request;
      request.max_pixel_rows = 9;
      request.max_pixel_cols = 7;
      request.quantity = name.size() % 2 == 0 ? Quantity::Weights : Quantity::ScaledScores;
      request.pooling = name.size() % 3 == 0 ? Pooling::Mean : Pooling::Max;
      const std::string label = std::string(to_string(kind)) + "-" + name;
      expect_matches_dense(p, dense, request, label);
      request.window = CellWindow{130, 611, 57, 690};
      request.quantity = Quantity::Weights;
      expect_matches_dense(p, dense, request, label + " window");
      request.quantity = Quantity::RawScores;  // Q'·K'ᵀ: RoPE's, without ALiBi's bias
      expect_matches_dense(p, dense, request, label + " window raw");
    }
  }
}

TEST(OverviewCpu, RopeOnCrossAttentionTurnsKeysAtTheSourcesPositions) {
  ProblemShape shape;
  shape.n = 530;
  shape.m = 610;
  shape.cross = true;
  shape.d_model = 8;
  shape.d_k = 4;
  shape.d_v = 2;
  shape.heads = 2;
  shape.kv_heads = 2;
  TestRandom random(8);
  Problem p = random_problem(random, shape);
  p.positional = PositionalKind::Rope;
  p.rope_theta = 100.0;
  OverviewRequest request;
  request.max_pixel_rows = request.max_pixel_cols = 6;
  expect_matches_dense(p, make_cpu_backend()->compute(p), request, "rope cross");
}

// Dropout's kept set is not drawn by the overview's kernels: refused by name, never drawn as if
// absent.
TEST(OverviewCpu, DropoutIsRefusedByName) {
  Problem dropout = long_problem(MaskSetting{}, 2, 1);
  dropout.dropout = DropoutSetting{0.1, 3};
  try {
    (void)overview::make_cpu_overview()->run(dropout, {});
    ADD_FAILURE() << "dropout was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"dropout\""), std::string::npos) << e.what();
  }
}

TEST(OverviewCpu, BadRequestsSayWhatIsWrong) {
  const Problem p = long_problem(MaskSetting{}, 2, 1);
  const auto runner = overview::make_cpu_overview();
  OverviewRequest outside;
  outside.window = CellWindow{0, 701, 0, 10};
  EXPECT_THROW(runner->run(p, outside), std::invalid_argument);
  OverviewRequest empty;
  empty.window = CellWindow{5, 5, 0, 10};
  EXPECT_THROW(runner->run(p, empty), std::invalid_argument);
  OverviewRequest head;
  head.heads = {2};
  try {
    runner->run(p, head);
    ADD_FAILURE() << "head 2 of 2 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("head 2 does not exist"), std::string::npos) << e.what();
  }
  OverviewRequest pixels;
  pixels.max_pixel_cols = 0;
  EXPECT_THROW(runner->run(p, pixels), std::invalid_argument);
}

TEST(OverviewCpu, RefusesMoreTokensThanItTakes) {
  ProblemShape shape;
  shape.n = shape.m = overview::kMaxOverviewTokens + 1;
  shape.d_model = shape.d_k = shape.d_v = 1;
  shape.heads = shape.kv_heads = 1;
  TestRandom random(1);
  const Problem p = random_problem(random, shape);
  try {
    overview::make_cpu_overview()->run(p, {});
    ADD_FAILURE() << "65,537 tokens were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("at most 65536 tokens"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace attnviz::testing
