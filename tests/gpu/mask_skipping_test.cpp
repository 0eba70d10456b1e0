// Tiles the mask hides entirely are skipped, not computed and thrown away. Timing cannot show
// that in a test, so these tests poison one token: its embedding row is NaN, which makes its
// key and value rows NaN. A tile that multiplied those values by a weight of 0 would still
// turn NaN (0 · NaN = NaN); a tile that never reads them stays finite. So the context rows of
// every tile entirely hidden from the poisoned key must come out finite and equal to the
// Eigen path's on the clean problem, while rows of tiles that overlap the key are NaN here.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "tests/gpu/problem_factory.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using testing::Lcg;
using testing::Shape;

Shape poisoned_shape(const MaskSetting& mask) {
  Shape s;
  s.n = 200;
  s.d_model = 8;
  s.heads = 2;
  s.kv_heads = 1;
  s.d_k = 8;
  s.d_v = 8;
  s.mask = mask;
  return s;
}

Problem poisoned(Problem problem, int token) {
  for (int c = 0; c < problem.x.cols; ++c) problem.x.at(token, c) = std::numeric_limits<float>::quiet_NaN();
  problem.xs = problem.x;
  return problem;
}

bool row_finite(const Matrix& m, int row) {
  for (int c = 0; c < m.cols; ++c) {
    if (!std::isfinite(m.at(row, c))) return false;
  }
  return true;
}

// Rows [first, end) must be finite and match the clean reference.
void expect_rows_clean(const Result& vulkan, const Result& clean, int first, int end, const std::string& what) {
  for (std::size_t h = 0; h < vulkan.heads.size(); ++h) {
    for (int i = first; i < end; ++i) {
      ASSERT_TRUE(row_finite(vulkan.heads[h].context, i))
          << what << ": head " << h << " context row " << i << " read the poisoned key (its tile was not skipped)";
      for (int c = 0; c < vulkan.heads[h].context.cols; ++c) {
        EXPECT_NEAR(vulkan.heads[h].context.at(i, c), clean.heads[h].context.at(i, c), 1e-5)
            << what << " (" << i << ", " << c << ")";
      }
      for (int j = 0; j < vulkan.heads[h].weights.cols; ++j) {
        EXPECT_NEAR(vulkan.heads[h].weights.at(i, j), clean.heads[h].weights.at(i, j), 1e-5)
            << what << " (" << i << ", " << j << ")";
      }
    }
  }
}

// At least one row of [first, end) is NaN: the poison does reach tiles that overlap the key,
// so the finite rows elsewhere are finite because their tiles were skipped.
void expect_some_row_poisoned(const Result& vulkan, int first, int end) {
  bool poisoned_row = false;
  for (int i = first; i < end; ++i) poisoned_row = poisoned_row || !row_finite(vulkan.heads[0].context, i);
  EXPECT_TRUE(poisoned_row) << "rows " << first << ".." << end - 1 << " overlap the poisoned key";
}

TEST(MaskSkipping, CausalTilesAboveTheDiagonalNeverReadTheirKeys) {
  const auto context = testing::validated_context();
  const int tile = gpu::choose_tile_config(*context).tile_rows();
  gpu::VulkanAttention vulkan(context);
  Lcg random(41);
  const Problem clean = testing::make_problem(random, poisoned_shape(MaskSetting{true, std::nullopt, {}}));
  const int token = 2 * tile + 5;  // inside the third row tile
  ASSERT_LT(token, clean.n());
  const Result reference = make_cpu_backend()->compute(clean);
  for (const bool full_scores : {true, false}) {
    const Result result = vulkan.compute(poisoned(clean, token), ComputeOptions{full_scores});
    expect_rows_clean(result, reference, 0, 2 * tile, full_scores ? "causal" : "causal, fast");
    expect_some_row_poisoned(result, 2 * tile, clean.n());
  }
  testing::expect_no_validation_messages(*context);
}

TEST(MaskSkipping, WindowTilesOutsideTheBandNeverReadTheirKeys) {
  const auto context = testing::validated_context();
  const int tile = gpu::choose_tile_config(*context).tile_rows();
  gpu::VulkanAttention vulkan(context);
  Lcg random(43);
  const int radius = 3;
  Shape shape = poisoned_shape(MaskSetting{false, radius, {}});
  shape.n = 4 * tile;
  const Problem clean = testing::make_problem(random, shape);
  const int token = 2 * tile + tile / 2;  // the middle of the third row tile
  const Result reference = make_cpu_backend()->compute(clean);
  for (const bool full_scores : {true, false}) {
    const Result result = vulkan.compute(poisoned(clean, token), ComputeOptions{full_scores});
    const std::string what = full_scores ? "window" : "window, fast";
    expect_rows_clean(result, reference, 0, 2 * tile, what);          // tiles before the band
    expect_rows_clean(result, reference, 3 * tile, clean.n(), what);  // tiles after it
    expect_some_row_poisoned(result, 2 * tile, 3 * tile);
  }
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
