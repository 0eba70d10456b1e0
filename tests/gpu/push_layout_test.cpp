// Every C++ push-constant mirror (core/gpu/kernels.h, core/attention/mask.h) against the block
// its shader was compiled with: the same member offsets, the shared parts (Operand, Chunk,
// MaskParams) laid out alike in every kernel. No device needed.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>
#include <span>
#include <string>

#include "attnviz_compute_shaders.h"
#include "core/attention/mask.h"
#include "core/gpu/kernels.h"
#include "core/gpu/tiled_kernel.h"
#include "tests/gpu/spirv_layout.h"

namespace attnviz::gpu {
namespace {

using Offsets = std::vector<std::uint32_t>;

const Offsets kOperand = {offsetof(OperandPush, base), offsetof(OperandPush, pitch), offsetof(OperandPush, stride)};
const Offsets kChunk = {offsetof(ChunkPush, head_base), offsetof(ChunkPush, row_base), offsetof(ChunkPush, quad_base),
                        offsetof(ChunkPush, row_end), offsetof(ChunkPush, quad_end)};
const Offsets kMask = {offsetof(MaskParams, rows),        offsetof(MaskParams, cols),
                       offsetof(MaskParams, causal),      offsetof(MaskParams, window),
                       offsetof(MaskParams, has_globals), offsetof(MaskParams, list_offset),
                       offsetof(MaskParams, list_count),  offsetof(MaskParams, runs_offset),
                       offsetof(MaskParams, head_stride), offsetof(MaskParams, head)};
const Offsets kScalar = {};

TEST(PushLayout, MatmulMatchesMatmulPush) {
  const testing::PushLayout layout = testing::push_constant_layout(shaders::matmul_comp());
  EXPECT_EQ(layout.offsets, (Offsets{offsetof(MatmulPush, inner), offsetof(MatmulPush, a), offsetof(MatmulPush, b),
                                     offsetof(MatmulPush, c), offsetof(MatmulPush, chunk)}));
  EXPECT_EQ(layout.nested, (std::vector<Offsets>{kScalar, kOperand, kOperand, kOperand, kChunk}));
}

TEST(PushLayout, ScoresMatchesScoresPush) {
  const testing::PushLayout layout = testing::push_constant_layout(shaders::scores_comp());
  EXPECT_EQ(layout.offsets, (Offsets{offsetof(ScoresPush, depth), offsetof(ScoresPush, q), offsetof(ScoresPush, k),
                                     offsetof(ScoresPush, s), offsetof(ScoresPush, group), offsetof(ScoresPush, chunk),
                                     offsetof(ScoresPush, zero_masked), offsetof(ScoresPush, mask)}));
  EXPECT_EQ(layout.nested,
            (std::vector<Offsets>{kScalar, kOperand, kOperand, kOperand, kScalar, kChunk, kScalar, kMask}));
}

TEST(PushLayout, SoftmaxMatchesSoftmaxPush) {
  const testing::PushLayout layout = testing::push_constant_layout(shaders::softmax_comp());
  EXPECT_EQ(layout.offsets, (Offsets{offsetof(SoftmaxPush, s), offsetof(SoftmaxPush, w), offsetof(SoftmaxPush, scale),
                                     offsetof(SoftmaxPush, chunk), offsetof(SoftmaxPush, mask)}));
  EXPECT_EQ(layout.nested, (std::vector<Offsets>{kOperand, kOperand, kScalar, kChunk, kMask}));
}

// Both tiled kernels, fp32 and fp16, read the one TiledPush.
class TiledPushLayout : public ::testing::TestWithParam<std::span<const std::uint32_t> (*)()> {};

TEST_P(TiledPushLayout, MatchesTiledPush) {
  const testing::PushLayout layout = testing::push_constant_layout(GetParam()());
  EXPECT_EQ(layout.offsets,
            (Offsets{offsetof(TiledPush, block_q), offsetof(TiledPush, block_k), offsetof(TiledPush, d_k),
                     offsetof(TiledPush, d_v), offsetof(TiledPush, q_pitch), offsetof(TiledPush, k_pitch),
                     offsetof(TiledPush, v_pitch), offsetof(TiledPush, group), offsetof(TiledPush, scale),
                     offsetof(TiledPush, kb_begin), offsetof(TiledPush, kb_end), offsetof(TiledPush, drop_threshold),
                     offsetof(TiledPush, seed_low), offsetof(TiledPush, seed_high), offsetof(TiledPush, keep_scale),
                     offsetof(TiledPush, mask)}));
  EXPECT_EQ(layout.nested,
            (std::vector<Offsets>{kScalar, kScalar, kScalar, kScalar, kScalar, kScalar, kScalar, kScalar, kScalar,
                                  kScalar, kScalar, kScalar, kScalar, kScalar, kScalar, kMask}));
}

INSTANTIATE_TEST_SUITE_P(Kernels, TiledPushLayout,
                         ::testing::Values(&shaders::tiled_attention_comp, &shaders::tiled_attention_fp16_comp),
                         [](const auto& kernel) {
                           return kernel.index == 0 ? std::string("Fp32") : std::string("Fp16");
                         });

TEST(PushLayout, ContextMatchesContextPush) {
  const testing::PushLayout layout = testing::push_constant_layout(shaders::context_comp());
  EXPECT_EQ(layout.offsets, (Offsets{offsetof(ContextPush, dv), offsetof(ContextPush, w), offsetof(ContextPush, v),
                                     offsetof(ContextPush, concat), offsetof(ContextPush, group),
                                     offsetof(ContextPush, chunk), offsetof(ContextPush, mask)}));
  EXPECT_EQ(layout.nested, (std::vector<Offsets>{kScalar, kOperand, kOperand, kOperand, kScalar, kChunk, kMask}));
}

TEST(PushLayout, RopeMatchesRopePush) {
  const testing::PushLayout layout = testing::push_constant_layout(shaders::rope_comp());
  EXPECT_EQ(layout.offsets, (Offsets{offsetof(RopePush, x), offsetof(RopePush, table), offsetof(RopePush, chunk),
                                     offsetof(RopePush, half_dk)}));
  EXPECT_EQ(layout.nested, (std::vector<Offsets>{kOperand, kOperand, kChunk, kScalar}));
}

TEST(PushLayout, DropoutMatchesDropoutPush) {
  const testing::PushLayout layout = testing::push_constant_layout(shaders::dropout_comp());
  EXPECT_EQ(
      layout.offsets,
      (Offsets{offsetof(DropoutPush, before), offsetof(DropoutPush, after), offsetof(DropoutPush, kept),
               offsetof(DropoutPush, chunk), offsetof(DropoutPush, cols), offsetof(DropoutPush, threshold),
               offsetof(DropoutPush, seed_low), offsetof(DropoutPush, seed_high), offsetof(DropoutPush, keep_scale)}));
  EXPECT_EQ(layout.nested,
            (std::vector<Offsets>{kOperand, kOperand, kOperand, kChunk, kScalar, kScalar, kScalar, kScalar, kScalar}));
}

}  // namespace
}  // namespace attnviz::gpu
