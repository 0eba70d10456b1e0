// The overview's axis labels and tooltip place: positions always, tokens once cells are exact.
#include "app/panels/overview_labels.h"

#include <gtest/gtest.h>

namespace attnviz::panels {
namespace {

std::vector<std::string> words(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("w" + std::to_string(i));
  return out;
}

TEST(OverviewLabels, ExactCellsSayTheirPositionAndToken) {
  const overview::PixelGrid grid = overview::PixelGrid::fit({1000, 1004, 2000, 2003}, 64, 64);
  ASSERT_TRUE(grid.exact());
  const std::vector<std::string> tokens = words(5000);
  EXPECT_EQ(overview_axis_labels(grid, true, tokens),
            (std::vector<std::string>{"1,000 w1000", "1,001 w1001", "1,002 w1002", "1,003 w1003"}));
  EXPECT_EQ(overview_axis_labels(grid, false, tokens),
            (std::vector<std::string>{"2,000 w2000", "2,001 w2001", "2,002 w2002"}));
  EXPECT_EQ(overview_cell_place(grid, 2, 1, tokens, tokens),
            "query 1,002 \xE2\x80\x9Cw1002\xE2\x80\x9D, key 2,001 \xE2\x80\x9Cw2001\xE2\x80\x9D");
}

TEST(OverviewLabels, PooledPixelsSayTheFirstPositionOfTheirBlock) {
  const overview::PixelGrid grid = overview::PixelGrid::fit({0, 65536, 0, 65536}, 64, 64);
  ASSERT_EQ(grid.block_rows, 1024);
  const std::vector<std::string> labels = overview_axis_labels(grid, true, words(65536));
  ASSERT_EQ(labels.size(), 64u);
  EXPECT_EQ(labels[0], "0");
  EXPECT_EQ(labels[1], "1,024");
  EXPECT_EQ(labels[63], "64,512");
  EXPECT_EQ(overview_cell_place(grid, 1, 63, {}, {}),
            "queries 1,024\xE2\x80\x93"
            "2,047, keys 64,512\xE2\x80\x93"
            "65,535");
}

TEST(OverviewLabels, ALongTokenIsCutInTheLabelsAndTheTooltip) {
  const overview::PixelGrid grid = overview::PixelGrid::fit({0, 1, 0, 1}, 64, 64);
  const std::vector<std::string> tokens = {std::string(100000, 'x')};
  const std::string place = overview_cell_place(grid, 0, 0, tokens, tokens);
  EXPECT_LT(place.size(), 200u);
  EXPECT_NE(place.find("xxxx\xE2\x80\xA6"), std::string::npos) << place;
  EXPECT_LT(overview_axis_labels(grid, true, tokens).front().size(), 100u);
}

TEST(OverviewLabels, WithoutTheTokensExactCellsSayTheirPositionAlone) {
  const overview::PixelGrid grid = overview::PixelGrid::fit({10, 12, 10, 12}, 64, 64);
  EXPECT_EQ(overview_axis_labels(grid, true, words(11)), (std::vector<std::string>{"10", "11"}));
  EXPECT_EQ(overview_cell_place(grid, 1, 0, {}, {}), "query 11, key 10");
}

// A 720-pixel-high window: 384 pixels (steps of 64) under the words' 94-pixel room, 448 under the
// numbers' 40.
int pixels_below(float room) { return (494 - static_cast<int>(room)) / 64 * 64; }

TEST(OverviewLabels, PooledPixelsLeaveTheWordsRoomToTheImage) {
  const ColumnLabelRoom whole = column_label_room(5000, 5000, 94.0f, 40.0f, pixels_below);
  EXPECT_FALSE(whole.words);
  EXPECT_FLOAT_EQ(whole.height, 40.0f);
  EXPECT_EQ(whole.pixels, 448);
}

TEST(OverviewLabels, ExactCellsGetTheWordsRoomAndItsPixelsHoldThem) {
  const ColumnLabelRoom zoomed = column_label_room(312, 312, 94.0f, 40.0f, pixels_below);
  EXPECT_TRUE(zoomed.words);
  EXPECT_FLOAT_EQ(zoomed.height, 94.0f);
  EXPECT_EQ(zoomed.pixels, 384);
  // Between the two pixel counts: exact under the numbers' room, but not under the words', so
  // positions alone (asking for the words' room would pool the cells it labels).
  const ColumnLabelRoom between = column_label_room(420, 420, 94.0f, 40.0f, pixels_below);
  EXPECT_FALSE(between.words);
  EXPECT_EQ(between.pixels, 448);
  // A window wide in one direction only is named only when both fit.
  EXPECT_FALSE(column_label_room(100, 1000, 94.0f, 40.0f, pixels_below).words);
}

TEST(OverviewLabels, TheCaptionSaysWhereTheImageLiesAndWhatAPixelHolds) {
  const overview::PixelGrid pooled = overview::PixelGrid::fit(overview::whole(65536, 65536), 64, 64);
  const OverviewCaption whole = overview_caption(3, pooled, overview::Pooling::Max, overview::Quantity::Weights);
  EXPECT_EQ(whole.where,
            "head 3 \xC2\xB7 queries 0\xE2\x80\x93"
            "65,535 \xC3\x97 keys 0\xE2\x80\x93"
            "65,535");
  EXPECT_EQ(whole.pixel, "each pixel: 1,024 \xC3\x97 1,024 cells, the largest weight");
  EXPECT_EQ(whole.one_line(), whole.where + " \xC2\xB7 " + whole.pixel);
  const overview::PixelGrid exact = overview::PixelGrid::fit({1000, 1008, 2000, 2008}, 64, 64);
  EXPECT_EQ(overview_caption(0, exact, overview::Pooling::Mean, overview::Quantity::RawScores).pixel,
            "each pixel: one cell");
  EXPECT_EQ(overview_caption(0, pooled, overview::Pooling::Mean, overview::Quantity::RawScores).pixel,
            "each pixel: 1,024 \xC3\x97 1,024 cells, the mean of its visible scores");
}

TEST(OverviewLabels, TheWidestCaptionHasTheLargestNumbersTheTextCanShow) {
  // A zoomed window near the end writes the longest positions; the whole matrix at 64 pixels
  // the largest blocks.
  const OverviewCaption widest =
      widest_overview_caption(16, 65536, 20000, overview::Pooling::Mean, overview::Quantity::ScaledScores);
  EXPECT_EQ(widest.where,
            "head 15 \xC2\xB7 queries 65,535\xE2\x80\x93"
            "65,535 \xC3\x97 keys 19,999\xE2\x80\x93"
            "19,999");
  EXPECT_EQ(widest.pixel, "each pixel: 1,024 \xC3\x97 313 cells, the mean of its visible scores");
  for (int row_begin : {0, 30000, 65528}) {
    const overview::PixelGrid grid = overview::PixelGrid::fit({row_begin, row_begin + 8, 19992, 20000}, 64, 64);
    const OverviewCaption shown = overview_caption(15, grid, overview::Pooling::Mean, overview::Quantity::ScaledScores);
    EXPECT_LE(shown.one_line().size(), widest.one_line().size()) << shown.one_line();
  }
  // An empty text (no tokens yet) still has a caption to measure.
  EXPECT_FALSE(widest_overview_caption(0, 0, 0, overview::Pooling::Max, overview::Quantity::Weights).where.empty());
}

}  // namespace
}  // namespace attnviz::panels
