// The tiled (FlashAttention-2) Vulkan kernel, shaders/tiled_attention.comp, against the CPU's
// materialised path: the same context within 1e-5 for every mask kind, MHA / GQA / MQA,
// cross-attention and block sizes that do and do not divide N, rows that see nothing give 0,
// its m and l equal the CPU tiled runner's; the validation layer reports nothing.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/tiled_kernel.h"
#include "core/tiled/tiled_attention.h"
#include "tests/tiled/tiled_cases.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using testing::max_abs_difference;
using testing::TestRandom;

// Both ways of reading K and V: staged in shared memory (GPUs) and from the texel buffers (CPU
// devices), each forced here so that lavapipe runs the GPU's path too, the GPU's with its
// uploads and read-back through staging buffers as on a discrete GPU.
class TiledKernel : public ::testing::TestWithParam<bool> {};

tiled::VulkanTiledOptions gpu_path(bool gpu) {
  tiled::VulkanTiledOptions options;
  options.stage_in_shared = gpu;
  options.staged_transfers = gpu;
  return options;
}

TEST_P(TiledKernel, AgreesWithTheMaterialisedPathForEveryMaskHeadSharingAndBlockSize) {
  const auto context = testing::validated_context();
  const auto vulkan = tiled::make_vulkan_tiled(context, gpu_path(GetParam()));
  const auto cpu = make_cpu_backend();
  TestRandom random(13);
  for (const testing::TiledCase& c : testing::tiled_cases()) {
    const Problem problem = testing::random_problem(random, c.shape);
    const Result dense = cpu->compute(problem);
    for (const auto& [br, bc] : testing::block_sizes()) {
      SCOPED_TRACE(c.name + " Br=" + std::to_string(br) + " Bc=" + std::to_string(bc));
      const tiled::TiledResult result = vulkan->run(problem, {br, bc, std::nullopt});
      ASSERT_EQ(result.heads.size(), dense.heads.size());
      for (std::size_t h = 0; h < dense.heads.size(); ++h) {
        EXPECT_LE(max_abs_difference(result.heads[h].context, dense.heads[h].context), 1e-5) << "head " << h;
      }
      EXPECT_LE(max_abs_difference(result.output, dense.output), 1e-5);
    }
    if (::testing::Test::HasFailure()) break;  // one reproducible case is enough
  }
  testing::expect_no_validation_messages(*context);
}

TEST_P(TiledKernel, RunningMaxAndSumEqualTheCpuRunnersAndEmptyRowsGiveZero) {
  // 9 queries over 3 keys, window 1: rows 4..8 see nothing (m = −∞, l = 0, context 0).
  const auto context = testing::validated_context();
  TestRandom random(3);
  const Problem problem = testing::random_problem(random, testing::rows_past_the_keys(9));
  const tiled::TiledResult gpu = tiled::make_vulkan_tiled(context, gpu_path(GetParam()))->run(problem, {2, 2, 1});
  const tiled::TiledResult cpu = tiled::make_cpu_tiled()->run(problem, {2, 2, std::nullopt});
  for (std::size_t h = 0; h < cpu.heads.size(); ++h) {
    for (std::size_t i = 0; i < 9; ++i) {
      if (i >= 4) {
        EXPECT_EQ(gpu.heads[h].m[i], -std::numeric_limits<float>::infinity()) << i;
        EXPECT_EQ(gpu.heads[h].l[i], 0.0f) << i;
        for (int c = 0; c < problem.d_v; ++c) EXPECT_EQ(gpu.heads[h].context.at(static_cast<int>(i), c), 0.0f);
      } else {
        EXPECT_NEAR(gpu.heads[h].m[i], cpu.heads[h].m[i], 1e-5) << i;
        EXPECT_NEAR(gpu.heads[h].l[i], cpu.heads[h].l[i], 1e-5) << i;
      }
    }
  }
  ASSERT_TRUE(gpu.trace.has_value());
  EXPECT_EQ(gpu.trace->head, 1);
  EXPECT_TRUE(gpu.trace->tiles.empty());
  testing::expect_no_validation_messages(*context);
}

TEST_P(TiledKernel, HiddenTilesAreSkippedSoAPoisonedKeyTheyHideChangesNothing) {
  const auto context = testing::validated_context();
  TestRandom random(11);
  testing::ProblemShape shape;
  shape.n = 13;
  shape.mask = testing::mask_of(true);
  Problem problem = testing::random_problem(random, shape);
  problem.x.at(12, 0) = std::numeric_limits<float>::quiet_NaN();
  problem.xs = problem.x;
  const tiled::TiledResult result =
      tiled::make_vulkan_tiled(context, gpu_path(GetParam()))->run(problem, {4, 4, std::nullopt});
  for (const tiled::TiledHead& head : result.heads) {
    for (int i = 0; i < 12; ++i) {
      for (int c = 0; c < problem.d_v; ++c) EXPECT_TRUE(std::isfinite(head.context.at(i, c))) << "row " << i;
    }
  }
  testing::expect_no_validation_messages(*context);
}

// 960 keys in 30 tiles of 32 under 32 query rows: one dispatch would pass the 65535 loop
// iterations after which llvmpipe ends a loop (the last tiles' keys were lost); the host
// splits the key blocks over dispatches, the rows' state kept in between.
TEST_P(TiledKernel, LongRowsOfTilesLoseNoKey) {
  const auto context = testing::validated_context();
  TestRandom random(3);
  testing::ProblemShape shape;
  shape.n = 960;
  shape.heads = 1;
  shape.kv_heads = 1;
  shape.d_model = 8;
  shape.d_k = 64;
  shape.d_v = 64;
  shape.mask = testing::mask_of(false);
  const Problem problem = testing::random_problem(random, shape);
  // The largest tile the device holds at d = 64 (on lavapipe 32 × 32 from the texel buffers, 16 × 16
  // staged, as Q's rows take shared memory too): 30 key blocks or more per row.
  const auto vulkan = tiled::make_vulkan_tiled(context, gpu_path(GetParam()));
  const int block = vulkan->preferred_block(64, 64);
  ASSERT_GE(block, 16);
  const tiled::TiledResult gpu = vulkan->run(problem, {block, block, std::nullopt});
  const tiled::TiledResult cpu = tiled::make_cpu_tiled()->run(problem, {block, block, std::nullopt});
  const Result dense = make_cpu_backend()->compute(problem);
  EXPECT_LE(max_abs_difference(gpu.heads[0].context, dense.heads[0].context), 1e-5);
  for (std::size_t i = 0; i < 960; ++i) {
    ASSERT_NEAR(gpu.heads[0].m[i], cpu.heads[0].m[i], 1e-4) << "row " << i;
    ASSERT_NEAR(gpu.heads[0].l[i], cpu.heads[0].l[i], 1e-4 * cpu.heads[0].l[i]) << "row " << i;
  }
  testing::expect_no_validation_messages(*context);
}

INSTANTIATE_TEST_SUITE_P(KAndV, TiledKernel, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& staged) {
                           return staged.param ? std::string("StagedInShared") : std::string("FromTexelBuffers");
                         });

// The shader's shared layout: K (rows padded by one float), V, P, O, m, l, and on a GPU Q's rows.
TEST(TiledKernelLimits, SharedMemoryCountsTheQueriesWhereTheyAreStaged) {
  const std::int64_t texel_reads = 32 * (65 + 64) + 32 * (32 + 64 + 2);
  EXPECT_EQ(gpu::tiled_shared_floats(32, 32, 64, 64, false), texel_reads);
  EXPECT_EQ(gpu::tiled_shared_floats(32, 32, 64, 64, true), texel_reads + 32 * 64);
  // NVIDIA's 48 KiB still hold the 32 × 32 tile of the first GPU run at d = 64.
  EXPECT_LE(gpu::tiled_shared_floats(32, 32, 64, 64, true) * 4, 48 * 1024);
}

TEST(TiledKernelLimits, RefusesATileLargerThanSharedMemory) {
  const auto context = testing::validated_context();
  TestRandom random(1);
  const Problem problem = testing::random_problem(random, {});
  EXPECT_THROW(tiled::make_vulkan_tiled(context)->run(problem, {4096, 4096, std::nullopt}), std::invalid_argument);
  EXPECT_GE(gpu::default_tiled_block(*context, 64, 64, false), 16);
  EXPECT_GE(gpu::default_tiled_block(*context, 64, 64, true), 16);
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
