// The host's share of the overview (core/overview/pooling.h) for masks with an expression,
// whose rows are runs: the hidden blocks, the visible cells and the multiply-adds counted from
// the runs agree with asking the mask cell by cell.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/attention/mask.h"
#include "core/overview/pooling.h"
#include "tests/tiled/tiled_cases.h"

namespace attnviz::testing {
namespace {

constexpr int kRows = 70;
constexpr int kCols = 90;
constexpr int kHeads = 3;

TEST(OverviewPooling, BlocksAndCellsCountedFromRunsAgreeWithEveryCell) {
  const overview::PixelGrid grid =
      overview::PixelGrid::fit({3, 67, 5, 88}, 9, 7);  // blocks of 8 × 12, ragged at the ends
  for (const auto& [name, setting] : every_mask_kind()) {
    const Mask mask(setting, kRows, kCols, kHeads);
    for (int h = 0; h < kHeads; ++h) {
      const std::vector<std::uint8_t> hidden = overview::hidden_blocks(grid, mask, h);
      const std::vector<std::int64_t> visible = overview::visible_cells(grid, mask, h);
      for (int r = 0; r < grid.rows; ++r) {
        for (int c = 0; c < grid.cols; ++c) {
          std::int64_t want = 0;
          for (int i = grid.row_begin(r); i < grid.row_end(r); ++i) {
            for (int j = grid.col_begin(c); j < grid.col_end(c); ++j) want += mask.visible(h, i, j) ? 1 : 0;
          }
          const std::size_t p = static_cast<std::size_t>(r * grid.cols + c);
          EXPECT_EQ(visible[p], want) << name << " head " << h << " block " << r << ", " << c;
          EXPECT_EQ(hidden[p], want == 0 ? 1 : 0) << name << " head " << h << " block " << r << ", " << c;
        }
      }
    }
  }
}

TEST(OverviewPooling, MultiplyAddsCountTheTilesAnyCellOfWhichIsVisible) {
  constexpr int kDk = 5;
  for (const auto& [name, setting] : every_mask_kind()) {
    const Mask mask(setting, kRows, kCols, kHeads);
    for (int h = 0; h < kHeads; ++h) {
      std::int64_t want = 0;
      for (int a = 2; a < 69; a += 16) {
        for (int c = 4; c < 85; c += 10) {
          const int b = std::min(69, a + 16);
          const int d = std::min(85, c + 10);
          bool any = false;
          for (int i = a; i < b; ++i) {
            for (int j = c; j < d; ++j) any = any || mask.visible(h, i, j);
          }
          if (any) want += static_cast<std::int64_t>(b - a) * (d - c) * kDk;
        }
      }
      EXPECT_EQ(overview::visible_tile_macs(mask, h, 2, 69, 4, 85, 16, 10, kDk), want) << name << " head " << h;
    }
  }
}

}  // namespace
}  // namespace attnviz::testing
