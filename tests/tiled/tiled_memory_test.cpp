// The Tiled view's memory line (core/tiled/tiled_memory.h) against sizes worked by hand.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "core/tiled/tiled_memory.h"

namespace attnviz::tiled {
namespace {

TEST(TiledMemory, FourThousandTokensAtHeadDim128InFp16) {
  // Dense: 2 · 4096 · 4096 values · 2 bytes = 64 MiB. Tiled (64 × 64): a tile of 4096 values,
  // m and l for 64 rows (128 values), O of 64 × 128 (8192 values): 12416 values · 2 bytes.
  const HeadMemory memory = head_memory({4096, 4096, 64, 64, 128, 2});
  EXPECT_EQ(memory.dense_bytes, 67108864u);
  EXPECT_EQ(memory.tile_bytes, 8192u);
  EXPECT_EQ(memory.row_state_bytes, 256u);
  EXPECT_EQ(memory.output_bytes, 16384u);
  EXPECT_EQ(memory.tiled_bytes(), 24832u);
}

TEST(TiledMemory, TheTiledFigureDoesNotGrowWithTheSequence) {
  const HeadMemory short_context = head_memory({4096, 4096, 64, 64, 128, 2});
  const HeadMemory long_context = head_memory({131072, 131072, 64, 64, 128, 2});
  EXPECT_EQ(long_context.dense_bytes, 68719476736u);  // 2 · 131072² · 2 = 64 GiB
  EXPECT_EQ(long_context.tiled_bytes(), short_context.tiled_bytes());
}

TEST(TiledMemory, BlocksLargerThanTheMatrixHoldOnlyWhatExists) {
  // 8 × 6 (cross-attention), tiles asked for 16 × 4, d_v = 4, float32: the tile is 8 × 4.
  const HeadMemory memory = head_memory({8, 6, 16, 4, 4, 4});
  EXPECT_EQ(memory.dense_bytes, 2u * 8u * 6u * 4u);
  EXPECT_EQ(memory.tile_bytes, 8u * 4u * 4u);
  EXPECT_EQ(memory.row_state_bytes, 2u * 8u * 4u);
  EXPECT_EQ(memory.output_bytes, 8u * 4u * 4u);
}

TEST(TiledMemory, ZeroSizesAndOverflowAreRefused) {
  EXPECT_THROW((void)head_memory({0, 4, 1, 1, 1, 2}), std::invalid_argument);
  EXPECT_THROW((void)head_memory({4, 4, 0, 1, 1, 2}), std::invalid_argument);
  const std::uint64_t huge = std::uint64_t{1} << 32;
  EXPECT_THROW((void)head_memory({huge, huge, 1, 1, 1, 2}), std::overflow_error);
}

}  // namespace
}  // namespace attnviz::tiled
