// The pixel grid: the smallest equal blocks that keep a window within the pixels.

#include <gtest/gtest.h>

#include "core/overview/pixel_grid.h"

namespace attnviz::overview {
namespace {

TEST(PixelGrid, ABlockIsTheSmallestThatKeepsTheImageWithinThePixels) {
  const PixelGrid grid = PixelGrid::fit(whole(65536, 65536), 1000, 800);
  EXPECT_EQ(grid.block_rows, 66);  // 65536 / 1000 = 65.5
  EXPECT_EQ(grid.rows, 993);       // ceil(65536 / 66)
  EXPECT_EQ(grid.block_cols, 82);
  EXPECT_EQ(grid.cols, 800);
  EXPECT_EQ(grid.row_begin(992), 992 * 66);
  EXPECT_EQ(grid.row_end(992), 65536);  // the last block holds what is left
  EXPECT_EQ(grid.pixel_row(65535), 992);
  EXPECT_FALSE(grid.exact());
}

TEST(PixelGrid, AWindowNoLargerThanThePixelsGetsOnePixelPerCell) {
  const PixelGrid grid = PixelGrid::fit({100, 140, 7, 27}, 40, 300);
  EXPECT_TRUE(grid.exact());
  EXPECT_EQ(grid.rows, 40);
  EXPECT_EQ(grid.cols, 20);
  EXPECT_EQ(grid.pixel_row(100), 0);
  EXPECT_EQ(grid.pixel_col(26), 19);
  EXPECT_EQ(grid.col_begin(3), 10);
}

TEST(PixelGrid, EmptyWindowsAndNoPixelsAreRefused) {
  EXPECT_THROW(PixelGrid::fit({3, 3, 0, 5}, 10, 10), std::invalid_argument);
  EXPECT_THROW(PixelGrid::fit({0, 3, 0, 5}, 0, 10), std::invalid_argument);
}

}  // namespace
}  // namespace attnviz::overview
