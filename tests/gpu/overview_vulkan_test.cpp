// The Vulkan overview (core/overview/overview_vulkan.cpp, shaders/overview_*.comp) against the
// dense Eigen path pooled by the definition and against the CPU overview, on lavapipe with the
// validation layer: every mask kind and head layout, all quantities and poolings, key tiles
// staged in shared memory and read from texel buffers, passes split over many dispatches (a
// pixel column carried from one to the next), windows, known statistics, a stop request.

#include <gtest/gtest.h>

#include "core/cpu/cpu_backend.h"
#include "core/overview/overview.h"
#include "core/overview/overview_vulkan.h"
#include "core/overview/query_row.h"
#include "core/scenario/positions.h"
#include "tests/overview/dense_pooling.h"
#include "tests/tiled/tiled_cases.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using overview::CellWindow;
using overview::OverviewRequest;
using overview::Pooling;
using overview::Quantity;

constexpr double kWeightAbs = 2e-6;
constexpr double kRelative = 2e-5;
constexpr double kScoreAbs = 1e-5;

void expect_matches_dense(const Problem& p, const Result& dense, overview::OverviewRunner& runner,
                          const OverviewRequest& request, const std::string& name) {
  const overview::Overview got = runner.run(p, request);
  ASSERT_FALSE(got.heads.empty());
  for (const overview::PooledImage& image : got.heads) {
    const testing::DensePooled want =
        testing::pool_dense(dense, p, image.head, got.grid, request.quantity, request.pooling);
    testing::expect_image_near(
        want, image, got.grid, request.quantity == Quantity::Weights ? kWeightAbs : kScoreAbs, kRelative,
        name + " head " + std::to_string(image.head) + " " + overview::quantity_name(request.quantity) + " " +
            overview::pooling_name(request.pooling));
  }
}

// Key tiles staged in shared memory (GPUs) and read from the texel buffers (CPU devices).
class OverviewVulkan : public ::testing::TestWithParam<bool> {};

TEST_P(OverviewVulkan, EveryMaskAndHeadLayoutMatchesTheDensePath) {
  const auto context = testing::validated_context();
  const auto runner = overview::make_vulkan_overview(context, {GetParam(), std::nullopt});
  const Quantity quantities[] = {Quantity::Weights, Quantity::RawScores, Quantity::ScaledScores};
  int index = 0;
  for (const testing::TiledCase& c : testing::tiled_cases()) {
    testing::TestRandom random(11);
    const Problem p = testing::random_problem(random, c.shape);
    OverviewRequest request;
    request.max_pixel_rows = 4;
    request.max_pixel_cols = 5;
    request.quantity = quantities[index % 3];  // each case one quantity and pooling, every pair often
    request.pooling = (index / 3) % 2 == 0 ? Pooling::Max : Pooling::Mean;
    ++index;
    expect_matches_dense(p, make_cpu_backend()->compute(p), *runner, request, c.name);
    if (::testing::Test::HasFailure()) break;
  }
  testing::expect_no_validation_messages(*context);
}

Problem long_problem(MaskSetting mask, int heads = 2, int kv_heads = 1) {
  testing::ProblemShape shape;
  shape.n = shape.m = 300;
  shape.d_model = 8;
  shape.d_k = 6;
  shape.d_v = 2;
  shape.heads = heads;
  shape.kv_heads = kv_heads;
  shape.scale = 0.9f;
  shape.mask = std::move(mask);
  testing::TestRandom random(5);
  return testing::random_problem(random, shape);
}

TEST_P(OverviewVulkan, PassesSplitOverManyDispatchesLoseNothing) {
  const auto context = testing::validated_context();
  // 64 keys per dispatch: pass 1 in five dispatches, pass 2's 70-key pixel columns carried
  // across dispatch ends.
  const auto runner = overview::make_vulkan_overview(context, {GetParam(), 64});
  for (const auto& [name, mask] : testing::every_mask_kind()) {
    const Problem p = long_problem(mask);
    const Result dense = make_cpu_backend()->compute(p);
    OverviewRequest request;
    request.max_pixel_rows = 3;  // 100-row blocks: several workgroups of 64 rows per pixel row
    request.max_pixel_cols = 4;  // 75-key columns
    request.pooling = name == "causal" ? Pooling::Mean : Pooling::Max;
    expect_matches_dense(p, dense, *runner, request, "split-" + name);
    request.quantity = Quantity::ScaledScores;
    request.max_pixel_rows = 40;
    request.max_pixel_cols = 7;
    expect_matches_dense(p, dense, *runner, request, "split-scores-" + name);
  }
  testing::expect_no_validation_messages(*context);
}

// RoPE's pass over the projected rows (the window's queries, the keys from k_first) and ALiBi's
// bias in both score passes, with keys split over dispatches and a window that starts inside.
TEST_P(OverviewVulkan, PositionsEnterAsInTheDensePath) {
  const auto context = testing::validated_context();
  const auto runner = overview::make_vulkan_overview(context, {GetParam(), 64});
  for (const PositionalKind kind : {PositionalKind::Rope, PositionalKind::Alibi}) {
    for (const MaskSetting& mask : {MaskSetting{}, testing::mask_of(true, 40, {7})}) {
      Problem p = long_problem(mask, 4, 2);
      p.positional = kind;
      p.position_offset = 77;
      p.rope_theta = 200.0;
      const Result dense = make_cpu_backend()->compute(p);
      const std::string label = std::string(to_string(kind)) + (mask.causal ? " causal" : "");
      OverviewRequest request;
      request.max_pixel_rows = 6;
      request.max_pixel_cols = 5;
      expect_matches_dense(p, dense, *runner, request, label);
      request.quantity = Quantity::ScaledScores;
      request.pooling = Pooling::Mean;
      expect_matches_dense(p, dense, *runner, request, label);
      request.window = CellWindow{70, 250, 90, 300};  // pass 2's keys start at 90: K from k_first
      request.quantity = Quantity::RawScores;
      request.pooling = Pooling::Max;
      expect_matches_dense(p, dense, *runner, request, label + " window");
    }
  }
  testing::expect_no_validation_messages(*context);
}

// 65,536 rows × d_k 256 are 65,536 workgroups of projection, one past the least a device
// offers per axis: the projections and RoPE run on rows of workgroups. Here the axis holds 8
// (the score passes need 5), the projections 10 and RoPE 15.
TEST(OverviewVulkanLimits, ProjectionsAndRopeRunOnRowsOfWorkgroups) {
  vk::ContextOptions options;
  options.max_workgroup_count = 8;
  const auto context = testing::validated_context(options);
  const auto runner = overview::make_vulkan_overview(context, {std::nullopt, 64});
  Problem p = long_problem(testing::mask_of(true), 2, 2);
  p.positional = PositionalKind::Rope;
  const Result dense = make_cpu_backend()->compute(p);
  OverviewRequest request;
  request.max_pixel_rows = request.max_pixel_cols = 10;
  expect_matches_dense(p, dense, *runner, request, "rows of workgroups");
  request.quantity = Quantity::RawScores;
  expect_matches_dense(p, dense, *runner, request, "rows of workgroups");
  testing::expect_no_validation_messages(*context);
}

TEST(OverviewVulkanAndCpu, AgreeOnAWindowAndReuseKnownStatistics) {
  const auto context = testing::validated_context();
  const auto vulkan = overview::make_vulkan_overview(context);
  const auto cpu = overview::make_cpu_overview();
  const Problem p = long_problem(testing::mask_of(true, 100, {250}), 3, 3);
  OverviewRequest whole;
  whole.max_pixel_rows = whole.max_pixel_cols = 32;
  whole.pooling = Pooling::Mean;
  const overview::Overview first = vulkan->run(p, whole);
  ASSERT_NE(first.stats, nullptr);
  const overview::Overview on_cpu = cpu->run(p, whole);
  for (std::size_t h = 0; h < 3; ++h) {
    for (std::size_t i = 0; i < first.heads[h].values.size(); ++i) {
      EXPECT_NEAR(first.heads[h].values[i], on_cpu.heads[h].values[i], kWeightAbs) << "head " << h << " pixel " << i;
    }
    EXPECT_EQ(first.heads[h].hidden, on_cpu.heads[h].hidden);
  }

  OverviewRequest zoom;
  zoom.window = CellWindow{120, 260, 30, 290};
  zoom.max_pixel_rows = 140;  // exact rows, 2-key columns
  zoom.max_pixel_cols = 130;
  zoom.heads = {1};
  zoom.known_stats = first.stats;
  const overview::Overview reused = vulkan->run(p, zoom);
  EXPECT_EQ(reused.stats_macs, 0);
  zoom.known_stats.reset();
  const overview::Overview fresh = cpu->run(p, zoom);
  ASSERT_EQ(reused.heads.size(), 1u);
  for (std::size_t i = 0; i < fresh.heads[0].values.size(); ++i) {
    EXPECT_NEAR(reused.heads[0].values[i], fresh.heads[0].values[i], kWeightAbs) << "pixel " << i;
  }
  testing::expect_no_validation_messages(*context);
}

// One query's row over every key (query_row.h): a pixel per key, 1,300 of them, as on the CPU.
TEST_P(OverviewVulkan, AQueryRowIsTheCpusRow) {
  const auto context = testing::validated_context();
  const auto runner = overview::make_vulkan_overview(context, {GetParam(), std::nullopt});
  const auto cpu = overview::make_cpu_overview();
  testing::ProblemShape shape;
  shape.n = shape.m = 1300;
  shape.d_model = 8;
  shape.d_k = 6;
  shape.heads = 2;
  shape.mask = testing::expression_mask(testing::mask_of(false), "k <= q && (k < 4 || q - k <= 600)");
  testing::TestRandom random(17);
  Problem p = testing::random_problem(random, shape);
  p.positional = PositionalKind::Alibi;
  for (const int query : {0, 650, 1299}) {
    const overview::QueryRow got = overview::query_row(*runner, p, 1, query);
    const overview::QueryRow want = overview::query_row(*cpu, p, 1, query);
    ASSERT_EQ(got.hidden, want.hidden) << "query " << query;
    for (std::size_t j = 0; j < want.values.size(); ++j) {
      ASSERT_NEAR(got.values[j], want.values[j], kWeightAbs) << "query " << query << " key " << j;
    }
  }
}

TEST(OverviewVulkanStop, AStopRequestEndsTheRunBetweenDispatches) {
  const auto context = testing::validated_context();
  const auto runner = overview::make_vulkan_overview(context, {std::nullopt, 64});
  const Problem p = long_problem(MaskSetting{});
  overview::Progress progress;
  progress.request_stop();
  EXPECT_THROW(runner->run(p, {}, &progress), overview::Cancelled);
  EXPECT_LT(progress.fraction(), 0.5);
  testing::expect_no_validation_messages(*context);
}

INSTANTIATE_TEST_SUITE_P(SharedOrTexel, OverviewVulkan, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) { return param.param ? "Shared" : "Texel"; });

}  // namespace
}  // namespace attnviz
