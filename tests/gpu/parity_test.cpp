// The Vulkan backend against the Eigen path on a few hundred seeded random Problems: every
// mask kind, GQA and MQA, cross-attention, scale modes, with and without W_O, shapes that
// are not multiples of the tiles, N = 1 and M = 1, both score modes.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "tests/gpu/problem_factory.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using testing::Lcg;
using testing::Shape;

enum class MaskKind { None, Causal, Window, CausalWindow, WindowGlobals, CausalWindowGlobals };

int random_heads(Lcg& random) {
  static constexpr int choices[] = {1, 2, 3, 4, 6, 8};
  return choices[random.next() % 6];
}

// A kv head count that divides `heads`: 1 (MQA), `heads` (multi-head) or one in between (GQA).
int random_kv_heads(Lcg& random, int heads) {
  std::vector<int> divisors;
  for (int g = 1; g <= heads; ++g) {
    if (heads % g == 0) divisors.push_back(g);
  }
  return divisors[random.next() % divisors.size()];
}

Shape random_shape(Lcg& random, MaskKind kind) {
  Shape s;
  s.n = random.chance(10) ? 1 : random.between(1, 70);
  s.cross = random.chance(35);
  s.m = s.cross ? (random.chance(10) ? 1 : random.between(1, 70)) : s.n;
  s.d_model = random.between(1, 20);
  s.heads = random_heads(random);
  s.kv_heads = random_kv_heads(random, s.heads);
  s.d_k = random.between(1, 12);
  s.d_v = random.between(1, 12);
  s.d_out = random.chance(50) ? random.between(1, 10) : 0;
  const int scale_mode = random.between(0, 2);
  s.scale = scale_mode == 0   ? 1.0f / std::sqrt(static_cast<float>(s.d_k))
            : scale_mode == 1 ? 1.0f
                              : random.uniform(0.05f, 3.0f);
  const int tokens = std::max(s.n, s.m);
  s.mask.causal = kind == MaskKind::Causal || kind == MaskKind::CausalWindow || kind == MaskKind::CausalWindowGlobals;
  if (kind != MaskKind::None && kind != MaskKind::Causal) s.mask.window = random.between(0, 8);
  if (kind == MaskKind::WindowGlobals || kind == MaskKind::CausalWindowGlobals) {
    if (random.chance(50)) s.mask.global.push_back(0);
    if (random.chance(50)) s.mask.global.push_back(tokens - 1);
    const int extra = random.between(s.mask.global.empty() ? 1 : 0, 3);
    for (int e = 0; e < extra; ++e) s.mask.global.push_back(random.between(0, tokens - 1));
  }
  return s;
}

class Parity : public ::testing::TestWithParam<MaskKind> {};

TEST_P(Parity, RandomProblemsMatchTheEigenPath) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  const auto cpu = make_cpu_backend();
  Lcg random(1000 + static_cast<std::uint64_t>(GetParam()));
  for (int trial = 0; trial < 50; ++trial) {
    const Shape shape = random_shape(random, GetParam());
    const Problem problem = testing::make_problem(random, shape);
    for (const bool full_scores : {true, false}) {
      ComputeOptions options;
      options.scores_under_mask = full_scores;
      const std::string what =
          "trial " + std::to_string(trial) + ": " + testing::describe(shape) + (full_scores ? "" : " (fast mode)");
      testing::expect_close(vulkan.compute(problem, options), cpu->compute(problem, options), 1e-5, 1e-5, what);
    }
    if (::testing::Test::HasFailure()) break;  // one reproducible case is enough
  }
  testing::expect_no_validation_messages(*context);
}

std::string mask_kind_name(const ::testing::TestParamInfo<MaskKind>& kind) {
  static constexpr const char* names[] = {"None",         "Causal",        "Window",
                                          "CausalWindow", "WindowGlobals", "CausalWindowGlobals"};
  return names[static_cast<int>(kind.param)];
}

INSTANTIATE_TEST_SUITE_P(MaskKinds, Parity,
                         ::testing::Values(MaskKind::None, MaskKind::Causal, MaskKind::Window, MaskKind::CausalWindow,
                                           MaskKind::WindowGlobals, MaskKind::CausalWindowGlobals),
                         mask_kind_name);

// The variants a GPU gets (shared-memory staging in the products, 32-wide subgroups' tile
// shapes), run on lavapipe so CI checks them too.
TEST(ParityEdges, GpuTileVariantsMatchTheEigenPath) {
  const auto context = testing::validated_context();
  gpu::TileConfig tiles = gpu::choose_tile_config(*context);
  tiles.stage_in_shared = true;
  tiles.shared_k4 = 2;  // blocks smaller than most inner dimensions: several staging rounds
  tiles.gemm_y = 4;
  tiles.matmul_y = 8;
  ASSERT_LE(gpu::staged_shared_bytes(tiles), context->limits().max_shared_memory);
  gpu::VulkanAttention vulkan(context, {.tiles = tiles});
  const auto cpu = make_cpu_backend();
  Lcg random(17);
  // 20 trials: every kernel now stages (projections, scores, A·V), slow on lavapipe.
  for (int trial = 0; trial < 20; ++trial) {
    const Shape shape = random_shape(random, trial % 2 == 0 ? MaskKind::CausalWindowGlobals : MaskKind::None);
    const Problem problem = testing::make_problem(random, shape);
    testing::expect_close(vulkan.compute(problem), cpu->compute(problem), 1e-5, 1e-5, testing::describe(shape));
    if (::testing::Test::HasFailure()) break;
  }
  testing::expect_no_validation_messages(*context);
}

// The softmax sizes its workgroups for one row per subgroup from the subgroup size the
// device reports; drivers may compile with another. Pretending lavapipe's subgroups are 4
// wide (two rows per real subgroup), 32 wide (idle subgroups) or 4 wide with one row per
// workgroup (a half-empty subgroup) must not change a single weight.
TEST(ParityEdges, SoftmaxDoesNotDependOnTheAssumedSubgroupSize) {
  const auto context = testing::validated_context();
  const auto cpu = make_cpu_backend();
  struct Assumed {
    std::uint32_t subgroup_size, rows_per_workgroup;
  };
  for (const Assumed assumed : {Assumed{4, 8}, Assumed{32, 2}, Assumed{4, 1}}) {
    gpu::TileConfig tiles = gpu::choose_tile_config(*context);
    tiles.subgroup_size = assumed.subgroup_size;
    tiles.softmax_rows_per_workgroup = assumed.rows_per_workgroup;
    gpu::VulkanAttention vulkan(context, {.tiles = tiles});
    Lcg random(31);
    for (int trial = 0; trial < 6; ++trial) {
      const Shape shape = random_shape(random, trial % 2 == 0 ? MaskKind::WindowGlobals : MaskKind::Causal);
      const Problem problem = testing::make_problem(random, shape);
      testing::expect_close(
          vulkan.compute(problem), cpu->compute(problem), 1e-5, 1e-5,
          "assumed subgroup " + std::to_string(assumed.subgroup_size) + ": " + testing::describe(shape));
    }
  }
  testing::expect_no_validation_messages(*context);
}

TEST(ParityEdges, SingleQueryAndSingleKey) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  const auto cpu = make_cpu_backend();
  Lcg random(7);
  for (const auto& [n, m] : std::vector<std::pair<int, int>>{{1, 1}, {1, 9}, {9, 1}, {1, 1}}) {
    Shape shape;
    shape.n = n;
    shape.m = m;
    shape.cross = n != m;
    shape.heads = 2;
    shape.kv_heads = 1;
    shape.d_out = 3;
    shape.mask.causal = true;
    const Problem problem = testing::make_problem(random, shape);
    testing::expect_close(vulkan.compute(problem), cpu->compute(problem), 1e-5, 1e-5, testing::describe(shape));
  }
  testing::expect_no_validation_messages(*context);
}

TEST(ParityEdges, CrossAttentionWindowLeavesRowsFullyMasked) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Lcg random(11);
  Shape shape;
  shape.n = 20;
  shape.m = 5;
  shape.cross = true;
  shape.heads = 2;
  shape.d_out = 4;
  shape.mask.window = 2;  // query i sees keys i-2..i+2, so rows 7.. see nothing
  const Problem problem = testing::make_problem(random, shape);
  const Result result = vulkan.compute(problem);
  std::vector<int> expected_rows;
  for (int i = 7; i < 20; ++i) expected_rows.push_back(i);
  EXPECT_EQ(result.masked_rows, expected_rows);
  for (const HeadResult& head : result.heads) {
    for (int i = 7; i < 20; ++i) {
      for (int j = 0; j < 5; ++j) EXPECT_EQ(head.weights.at(i, j), 0.0f);
      for (int c = 0; c < head.context.cols; ++c) EXPECT_EQ(head.context.at(i, c), 0.0f);
    }
  }
  for (int i = 7; i < 20; ++i) {
    for (int c = 0; c < result.output.cols; ++c) EXPECT_EQ(result.output.at(i, c), 0.0f);
  }
  testing::expect_close(result, make_cpu_backend()->compute(problem), 1e-5, 1e-5, testing::describe(shape));
  testing::expect_no_validation_messages(*context);
}

// Scores of ±1e4 must give finite, normalised weights. Eigen and the shaders sum the scores
// in different orders (an absolute difference of ~1e-3 at this size), so the weights are
// checked against a float64 softmax of the Vulkan scores instead of Eigen's weights.
TEST(ParityEdges, HugeScoresStayFiniteAndNormalised) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Lcg random(13);
  Shape shape;
  shape.n = 33;
  shape.d_model = 8;
  shape.d_k = 4;
  shape.scale = 1.0f;
  shape.mask.causal = true;
  const Problem problem = testing::make_problem(random, shape, 7.0f);
  const Result result = vulkan.compute(problem);
  const Matrix& s = result.heads[0].scores;
  float largest = 0.0f;
  for (float v : s.data) largest = std::max(largest, std::fabs(v));
  EXPECT_GT(largest, 1e4f) << "the problem should produce scores beyond ±1e4";
  const Matrix& w = result.heads[0].weights;
  for (int i = 0; i < s.rows; ++i) {
    double row_max = -INFINITY;
    for (int j = 0; j <= i; ++j) row_max = std::max(row_max, static_cast<double>(s.at(i, j)));
    double sum = 0.0;
    for (int j = 0; j <= i; ++j) sum += std::exp(static_cast<double>(s.at(i, j)) - row_max);
    double weight_sum = 0.0;
    for (int j = 0; j < s.cols; ++j) {
      ASSERT_TRUE(std::isfinite(w.at(i, j)));
      const double want = j <= i ? std::exp(static_cast<double>(s.at(i, j)) - row_max) / sum : 0.0;
      EXPECT_NEAR(w.at(i, j), want, 1e-5) << "(" << i << ", " << j << ")";
      weight_sum += w.at(i, j);
    }
    EXPECT_NEAR(weight_sum, 1.0, 1e-5) << "row " << i;
  }
  testing::expect_close(result, make_cpu_backend()->compute(problem), 1.0, 1e-5, "huge scores (scores, context)");
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
