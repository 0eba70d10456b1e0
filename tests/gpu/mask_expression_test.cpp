// Masks given as expressions (docs/design.md "Mask expressions") on the Vulkan kernels against
// the Eigen path: every named pattern of the Mask panel, head-dependent expressions, GQA and
// MQA, cross-attention, sizes past one workgroup's tile (so the kernels' skipping, the
// softmax's run walk and the context's marked key quads all matter), both score modes, the GPU
// tile variants; and a NaN under tiles the runs hide must not reach any result.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "tests/gpu/problem_factory.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using testing::Lcg;
using testing::Shape;

struct Pattern {
  const char* expression;
  std::vector<int> documents;
};

const std::vector<Pattern>& patterns() {
  static const std::vector<Pattern> all = {
      {"k <= q", {}},
      {"k <= q && q - k <= 5", {}},
      {"abs(q - k) <= 3 || global(q) || global(k)", {}},
      {"k <= q && (q - k < 4 || (q - k) % 4 == 0)", {}},
      {"k <= q && (k < 4 || q - k <= 8)", {}},
      {"k < 20 || k <= q", {}},
      {"q / 16 == k / 16", {}},
      {"abs(q - k) <= 6 && (q - k) % 3 == 0", {}},
      {"doc(q) == doc(k)", {0, 30, 31, 90}},
      {"doc(q) == doc(k) && k <= q", {0, 45, 100}},
      {"q - k <= 2 * h + 1 && k <= q", {}},
      {"(q + k + h) % 3 != 0", {}},
      {"k > q", {}},
  };
  return all;
}

Shape pattern_shape(Lcg& random, const Pattern& pattern) {
  Shape s;
  s.n = random.between(1, 140);
  s.cross = random.chance(30);
  s.m = s.cross ? random.between(1, 140) : s.n;
  s.d_model = random.between(1, 12);
  static constexpr int kHeads[][2] = {{1, 1}, {2, 2}, {4, 2}, {3, 1}, {4, 4}};
  const auto& heads = kHeads[random.next() % 5];
  s.heads = heads[0];
  s.kv_heads = heads[1];
  s.d_k = random.between(1, 9);
  s.d_v = random.between(1, 9);
  s.d_out = random.chance(30) ? random.between(1, 6) : 0;
  s.scale = random.uniform(0.2f, 1.5f);
  s.mask.expression = pattern.expression;
  s.mask.documents = pattern.documents;
  if (random.chance(30)) s.mask.causal = true;  // ANDed with the expression
  if (std::string(pattern.expression).find("global") != std::string::npos) s.mask.global = {0, 5, 77};
  return s;
}

void expect_patterns_match(const gpu::VulkanAttentionOptions& vulkan_options, std::uint64_t seed,
                           int trials_per_pattern) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context, vulkan_options);
  const auto cpu = make_cpu_backend();
  Lcg random(seed);
  for (const Pattern& pattern : patterns()) {
    for (int trial = 0; trial < trials_per_pattern; ++trial) {
      const Shape shape = pattern_shape(random, pattern);
      const Problem problem = testing::make_problem(random, shape);
      for (const bool full_scores : {true, false}) {
        ComputeOptions options;
        options.scores_under_mask = full_scores;
        const std::string what =
            std::string(pattern.expression) + ", " + testing::describe(shape) + (full_scores ? "" : " (fast mode)");
        testing::expect_close(vulkan.compute(problem, options), cpu->compute(problem, options), 1e-5, 1e-5, what);
      }
      if (::testing::Test::HasFailure()) return;  // one reproducible case is enough
    }
  }
  testing::expect_no_validation_messages(*context);
}

TEST(MaskExpressionParity, EveryPatternMatchesTheEigenPath) { expect_patterns_match({}, 71, 2); }

TEST(MaskExpressionParity, GpuTileVariantsMatchTheEigenPath) {
  const auto context = testing::validated_context();
  gpu::TileConfig tiles = gpu::choose_tile_config(*context);
  tiles.stage_in_shared = true;
  tiles.shared_k4 = 2;
  tiles.gemm_y = 4;
  tiles.subgroup_size = 4;
  expect_patterns_match({.tiles = tiles}, 72, 1);
}

TEST(MaskExpressionParity, HeadDependentMasksGiveEachHeadItsOwnMask) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Lcg random(5);
  Shape shape;
  shape.n = 9;
  shape.heads = 3;
  shape.kv_heads = 1;
  shape.mask.expression = "k <= q && q - k <= h";
  const Problem problem = testing::make_problem(random, shape);
  const Result result = vulkan.compute(problem);
  for (int h = 0; h < 3; ++h) {
    const MaskMatrix& mask = result.mask_of(static_cast<std::size_t>(h));
    for (int i = 0; i < 9; ++i) {
      for (int j = 0; j < 9; ++j) {
        const bool visible = j <= i && i - j <= h;
        ASSERT_EQ(mask.at(i, j), visible) << "head " << h;
        if (!visible) {
          ASSERT_EQ(result.heads[static_cast<std::size_t>(h)].weights.at(i, j), 0.0f);
        }
      }
    }
  }
  EXPECT_EQ(result.mask, result.mask_of(0));
  testing::expect_no_validation_messages(*context);
}

// Key 150 holds NaN; the expression shows it to rows 149..151 only. Rows 0..127 (whole tiles of
// any height dividing 128) must stay finite: its score is computed beside visible ones in a
// partial tile, so it must be masked out, never read by the softmax, and its value never
// multiplied by a zero weight in the context.
TEST(MaskExpressionParity, HiddenTilesAreSkippedNotMultipliedByZero) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  Lcg random(9);
  Shape shape;
  shape.n = 200;
  shape.d_model = 4;
  shape.mask.expression = "abs(q - k) <= 1 || k < 2";
  Problem problem = testing::make_problem(random, shape);
  problem.x.at(150, 1) = std::numeric_limits<float>::quiet_NaN();
  problem.xs = problem.x;
  ComputeOptions fast;
  fast.scores_under_mask = false;
  const Result result = vulkan.compute(problem, fast);
  for (int i = 0; i < 128; ++i) {
    for (int c = 0; c < shape.d_v; ++c) ASSERT_TRUE(std::isfinite(result.heads[0].context.at(i, c))) << "row " << i;
  }
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
