// The fp16 cooperative-matrix variant of the tiled kernel (shaders/tiled_attention_fp16.comp)
// against the CPU's fp32 materialised path within fp16's rounding (Q, K, V and P rounded to 11
// significant bits, sums in fp32) for every mask kind, MHA / GQA / MQA, cross-attention, head
// widths that are not multiples of 16, ALiBi and dropout, with the validation layer silent:
// on cooperative matrices where the device offers them (else those cases skip, saying why),
// and everywhere with its products emulated in scalar code (tiled_attention_fp16_emulated.comp:
// the rest of the kernel is the same code), so lavapipe runs all but the products. Without
// cooperative matrices the kernel is refused with the reason. Its shared-memory sizing is
// checked by hand-counted bytes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/gpu/tiled_fp16.h"
#include "core/gpu/tiled_kernel.h"
#include "core/tiled/tiled_attention.h"
#include "tests/tiled/tiled_cases.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using testing::max_abs_difference;
using testing::TestRandom;

tiled::VulkanTiledOptions fp16(bool emulated = false) {
  tiled::VulkanTiledOptions options;
  options.precision = tiled::TiledPrecision::Float16;
  options.emulate_matrix_cores = emulated;
  return options;
}

// fp16 keeps 11 significant bits (relative error 2⁻¹¹ ≈ 4.9e-4 per rounding); the contexts of
// these problems are of order 1, their scores a few units: a few roundings' worth, with room.
constexpr double kFp16Tolerance = 1e-2;

TEST(TiledFp16Sizes, SharedMemoryIsCountedAsTheShaderDeclaresIt) {
  EXPECT_EQ(gpu::padded_to_matrix_tile(1), 16);
  EXPECT_EQ(gpu::padded_to_matrix_tile(16), 16);
  EXPECT_EQ(gpu::padded_to_matrix_tile(17), 32);
  // Br = Bc = 32, d = 64: Q, K, V rows of 64 + 8 halves, P rows of 32 + 8 halves; S rows of
  // 32 + 4 floats, O rows of 64 + 4 floats, m and l.
  EXPECT_EQ(gpu::tiled_fp16_shared_bytes(32, 32, 64, 64), 2 * (3 * 32 * 72 + 32 * 40) + 4 * (32 * 36 + 32 * 68 + 64));
  // d_k = 5 and d_v = 3 are padded to 16.
  EXPECT_EQ(gpu::tiled_fp16_shared_bytes(16, 16, 5, 3), gpu::tiled_fp16_shared_bytes(16, 16, 16, 16));
  EXPECT_EQ(gpu::tiled_fp16_shared_bytes(64, 32, 128, 64),
            2 * (64 * 136 + 32 * 136 + 32 * 72 + 64 * 40) + 4 * (64 * 36 + 64 * 68 + 128));
}

TEST(TiledFp16, IsRefusedWithTheReasonWhereTheDeviceLacksCooperativeMatrices) {
  const auto context = testing::validated_context();
  if (context->matrix_cores().usable) {
    EXPECT_NO_THROW(tiled::make_vulkan_tiled(context, fp16()));
  } else {
    EXPECT_FALSE(context->matrix_cores().reason.empty());
    try {
      tiled::make_vulkan_tiled(context, fp16());
      ADD_FAILURE() << "the fp16 kernel was made on " << context->device_name();
    } catch (const BackendUnavailable& e) {
      EXPECT_NE(std::string(e.what()).find(context->matrix_cores().reason), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(context->device_name()), std::string::npos) << e.what();
    }
  }
  testing::expect_no_validation_messages(*context);
}

TEST(TiledFp16, ContextsWithoutMatrixCoresAskedForSayNotAskedFor) {
  vk::ContextOptions options;
  options.matrix_cores = false;
  const auto context = vk::Context::create(options);
  EXPECT_FALSE(context->matrix_cores().usable);
  EXPECT_NE(context->matrix_cores().reason.find("not asked for"), std::string::npos);
}

// The parameter: the products emulated (true) or on cooperative matrices (false).
class TiledFp16OnDevice : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    context_ = testing::validated_context();
    const vk::MatrixCoreSupport& support = context_->matrix_cores();
    if (!(GetParam() ? support.fp16_arithmetic : support.usable)) {
      GTEST_SKIP() << context_->device_name() << ": " << support.reason;
    }
    runner_ = tiled::make_vulkan_tiled(context_, fp16(GetParam()));
  }
  void TearDown() override {
    if (context_) testing::expect_no_validation_messages(*context_);
  }
  std::shared_ptr<vk::Context> context_;
  std::unique_ptr<tiled::TiledRunner> runner_;
};

TEST_P(TiledFp16OnDevice, AgreesWithTheMaterialisedPathForEveryMaskHeadSharingAndBlockSize) {
  const auto cpu = make_cpu_backend();
  TestRandom random(13);
  for (const testing::TiledCase& c : testing::tiled_cases()) {
    const Problem problem = testing::random_problem(random, c.shape);
    const Result dense = cpu->compute(problem);
    for (const auto& [br, bc] : {std::pair{16, 16}, std::pair{32, 16}, std::pair{16, 32}, std::pair{32, 32}}) {
      SCOPED_TRACE(c.name + " Br=" + std::to_string(br) + " Bc=" + std::to_string(bc));
      const tiled::TiledResult result = runner_->run(problem, {br, bc, std::nullopt});
      ASSERT_EQ(result.heads.size(), dense.heads.size());
      for (std::size_t h = 0; h < dense.heads.size(); ++h) {
        EXPECT_LE(max_abs_difference(result.heads[h].context, dense.heads[h].context), kFp16Tolerance) << "head " << h;
      }
    }
    if (::testing::Test::HasFailure()) break;  // one reproducible case is enough
  }
}

TEST_P(TiledFp16OnDevice, RowsThatSeeNothingGiveZeroAndTheOthersTheCpuRunnersMaxAndSum) {
  TestRandom random(3);
  const Problem problem = testing::random_problem(random, testing::rows_past_the_keys(40));  // rows 4..39 see nothing
  const tiled::TiledResult gpu = runner_->run(problem, {16, 16, std::nullopt});
  const tiled::TiledResult cpu = tiled::make_cpu_tiled()->run(problem, {16, 16, std::nullopt});
  for (std::size_t h = 0; h < cpu.heads.size(); ++h) {
    for (std::size_t i = 0; i < 40; ++i) {
      if (i >= 4) {
        EXPECT_EQ(gpu.heads[h].m[i], -std::numeric_limits<float>::infinity()) << i;
        EXPECT_EQ(gpu.heads[h].l[i], 0.0f) << i;
        for (int c = 0; c < problem.d_v; ++c) EXPECT_EQ(gpu.heads[h].context.at(static_cast<int>(i), c), 0.0f);
      } else {
        EXPECT_NEAR(gpu.heads[h].m[i], cpu.heads[h].m[i], kFp16Tolerance) << i;
        EXPECT_NEAR(gpu.heads[h].l[i], cpu.heads[h].l[i], kFp16Tolerance * cpu.heads[h].l[i]) << i;
      }
    }
  }
}

// A long row of tiles at a real head width (64), ALiBi's bias and dropout on the weights.
TEST_P(TiledFp16OnDevice, LongRowsWithAlibiAndDropoutAgreeWithTheMaterialisedPath) {
  TestRandom random(5);
  testing::ProblemShape shape;
  shape.n = 600;
  shape.heads = 4;
  shape.kv_heads = 2;
  shape.d_model = 32;
  shape.d_k = 64;
  shape.d_v = 64;
  shape.scale = 0.125f;
  shape.mask = testing::mask_of(true);
  Problem problem = testing::random_problem(random, shape);
  problem.positional = PositionalKind::Alibi;
  problem.dropout = DropoutSetting{0.2f, 77};
  const Result dense = make_cpu_backend()->compute(problem);
  const int block = runner_->preferred_block(64, 64);
  const tiled::TiledResult gpu = runner_->run(problem, {block, block, std::nullopt});
  for (std::size_t h = 0; h < dense.heads.size(); ++h) {
    // Contexts of a few units here (dropout scales the kept weights by 1.25): fp16's error is
    // relative to them.
    const std::vector<float>& values = dense.heads[h].context.data;
    const double largest = std::fabs(
        *std::max_element(values.begin(), values.end(), [](float a, float b) { return std::fabs(a) < std::fabs(b); }));
    EXPECT_LE(max_abs_difference(gpu.heads[h].context, dense.heads[h].context), kFp16Tolerance * std::max(1.0, largest))
        << "head " << h << ", contexts up to " << largest;
  }
  EXPECT_NE(gpu.device.find("fp16"), std::string::npos) << gpu.device;
}

TEST_P(TiledFp16OnDevice, RefusesBlocksThatAreNotMultiplesOf16) {
  TestRandom random(1);
  const Problem problem = testing::random_problem(random, {});
  EXPECT_THROW(runner_->run(problem, {8, 16, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(runner_->run(problem, {16, 24, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(runner_->run(problem, {4096, 4096, std::nullopt}), std::invalid_argument);
  EXPECT_GE(runner_->preferred_block(64, 64), 16);
}

INSTANTIATE_TEST_SUITE_P(Products, TiledFp16OnDevice, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& emulated) {
                           return emulated.param ? std::string("Emulated") : std::string("CooperativeMatrices");
                         });

TEST(TiledFp16, LavapipeHasFp16ArithmeticSoTheEmulatedKernelRunsInCi) {
  const auto context = testing::validated_context();
  if (context->device_type() != VK_PHYSICAL_DEVICE_TYPE_CPU)
    GTEST_SKIP() << "not a CPU driver: " << context->device_name();
  EXPECT_TRUE(context->matrix_cores().fp16_arithmetic) << context->matrix_cores().reason;
}

}  // namespace
}  // namespace attnviz
