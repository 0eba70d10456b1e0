// Where the classroom views put their heatmaps, without a window: the sizes below are what the
// window measures at presentation text (1.6×: a 27 px font, "0.12" 49 px wide in the cells'
// small font) on a projector's 1280 × 720 and 1920 × 1080.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/classroom/page_layout.h"

namespace attnviz::classroom {
namespace {

constexpr float kFont = 27.0f;          // a text line: a row keeps its label
constexpr float kNumberCell = 57.0f;    // "0.12" in the small font, with the step view's margins
constexpr float kNumbersShown = 53.0f;  // the heatmap prints "0.12" from here (4 px of room)

// An n × m heatmap with token labels on both axes, like S or A on the Korean example.
MatrixBox token_heatmap(int n, int m, bool numbers = true) {
  MatrixBox box;
  box.rows = n;
  box.cols = m;
  box.min_cell = readable_cell(n, m, numbers, kNumberCell, kFont);
  box.row_label_w = 90.0f;
  box.caption_w = 120.0f;
  box.min_w = 128.0f;
  box.col_label_h = [](float cell_w) { return cell_w >= 83.0f ? 35.0f : 66.0f; };  // staggered when narrow
  return box;
}

PageSpace projector(float width, float height) {
  PageSpace space;
  space.width = width;
  space.height = height;
  space.caption_h = 35.0f;
  space.colorbar_h = 65.0f;
  space.gap = 38.0f;
  space.max_cell = 115.0f;
  space.text_pref_w = width * 0.36f;
  space.text_min_w = 17.0f * kFont;
  return space;
}

// No two slots on one line overlap, and every slot holds its caption.
void expect_no_overlap(const std::vector<MatrixBox>& boxes, const PageLayout& layout) {
  ASSERT_EQ(layout.places.size(), boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    EXPECT_GE(layout.places[i].w, boxes[i].caption_w) << i;
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      const MatrixPlace& a = layout.places[i];
      const MatrixPlace& b = layout.places[j];
      const bool apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      EXPECT_TRUE(apart) << i << " and " << j << " overlap";
    }
  }
}

TEST(PageLayout, SoftmaxPageKeepsItsNumbersAt1280x720) {
  // The Korean softmax page: 8 × 8 weights and their statistics column; the toolbar and
  // formula leave about 400 px of the 720.
  MatrixBox weights = token_heatmap(8, 8);
  weights.side_w = 180.0f;
  const std::vector<MatrixBox> boxes{weights};
  PageSpace space = projector(1248.0f, 400.0f);
  space.below_h = 70.0f;
  const PageLayout layout = layout_page(boxes, space);
  EXPECT_GE(layout.places[0].cell_w, kNumberCell) << "the cells keep their numbers";
  EXPECT_FALSE(layout.text_below) << "the followed query's numbers stay beside the heatmap";
  EXPECT_GE(layout.text_w, space.text_min_w);
  EXPECT_LE(layout.places[0].w + space.gap + layout.text_w, space.width + 0.5f) << "the text column is not covered";
  EXPECT_TRUE(layout.scrolls) << "what does not fit the height scrolls, the cells do not shrink";
}

TEST(PageLayout, RoomyWindowsGetLargeCellsAndNoScrolling) {
  const std::vector<MatrixBox> boxes{token_heatmap(8, 8)};
  const PageLayout layout = layout_page(boxes, projector(1880.0f, 900.0f));
  EXPECT_FALSE(layout.scrolls);
  EXPECT_GT(layout.cell, kNumberCell);
  EXPECT_LE(layout.cell, 115.0f);
  EXPECT_LE(layout.matrices_h, 900.0f);
}

TEST(PageLayout, SeventeenTokensKeepNumbersAndTheMaskMayBeSmaller) {
  // The gqa preset's mask page: the mask (no numbers in it) and the masked scores.
  MatrixBox mask = token_heatmap(17, 17, false);
  mask.caption_w = 420.0f;  // "mask (hatched = hidden)   17 × 17"
  const MatrixBox scores = token_heatmap(17, 17);
  const std::vector<MatrixBox> boxes{mask, scores};
  for (const float width : {1248.0f, 1888.0f}) {
    SCOPED_TRACE(width);
    const PageLayout layout = layout_page(boxes, projector(width, width == 1248.0f ? 400.0f : 760.0f));
    EXPECT_GE(layout.places[1].cell_w, kNumberCell) << "17 tokens still show their numbers";
    EXPECT_GE(layout.places[0].cell_h, kFont) << "every row of the mask keeps its label";
    expect_no_overlap(boxes, layout);
    EXPECT_FALSE(layout.too_wide);
  }
}

TEST(PageLayout, WideMatricesAreDrawnAsLongAs24CellsAndKeepRowLabels) {
  // Page 9 with W_O on the gqa preset: W_O 64 × 64 and the 17 × 64 output.
  MatrixBox wo = token_heatmap(64, 64, false);
  MatrixBox output = token_heatmap(17, 64, false);
  const std::vector<MatrixBox> boxes{wo, output};
  const PageLayout layout = layout_page(boxes, projector(1248.0f, 400.0f));
  EXPECT_GE(layout.places[1].cell_h, kFont) << "each of the 17 token rows keeps a text line";
  EXPECT_FLOAT_EQ(layout.places[1].cell_w * 64.0f, drawn_extent(64, layout.places[1].cell_h));
  EXPECT_GT(layout.places[1].cell_h * 17.0f, 17.0f * kFont - 1.0f) << "not a 70 px strip";
  expect_no_overlap(boxes, layout);
}

TEST(PageLayout, WideCaptionsNeverRunIntoTheNextHeatmap) {
  MatrixBox mask = token_heatmap(8, 8, false);
  mask.caption_w = 600.0f;  // wider than the cells
  const std::vector<MatrixBox> boxes{mask, token_heatmap(8, 8)};
  const PageLayout layout = layout_page(boxes, projector(1600.0f, 900.0f));
  expect_no_overlap(boxes, layout);
}

TEST(PageLayout, TextMovesBelowOnlyWhenNoHeatmapFitsBesideIt) {
  const std::vector<MatrixBox> boxes{token_heatmap(17, 17)};
  const PageLayout narrow = layout_page(boxes, projector(900.0f, 400.0f));
  EXPECT_TRUE(narrow.text_below);
  EXPECT_FLOAT_EQ(narrow.text_w, 900.0f);
  EXPECT_GE(narrow.places[0].cell_w, kNumberCell);
  const PageLayout wide = layout_page(boxes, projector(1888.0f, 760.0f));
  EXPECT_FALSE(wide.text_below);
}

TEST(PageLayout, HeatmapsOnOneLineShareTheirLabelHeight) {
  MatrixBox dims = token_heatmap(8, 4);
  dims.col_label_h = [](float) { return 35.0f; };  // d1 … d4: one line
  const std::vector<MatrixBox> boxes{dims, token_heatmap(8, 8)};
  const PageLayout layout = layout_page(boxes, projector(1880.0f, 900.0f));
  ASSERT_FLOAT_EQ(layout.places[0].y, layout.places[1].y);
  EXPECT_FLOAT_EQ(layout.places[0].label_h, layout.places[1].label_h) << "the cells' tops line up";
}

TEST(GridLayout, FourCopiesShowNumbersAt1920x1080AndAllFitAt1280x720) {
  GridSpace space;
  space.rows = 8;
  space.cols = 8;
  space.min_cell = kFont;
  space.max_cell = 128.0f;
  space.row_label_w = 90.0f;
  space.min_slot_w = 7.0f * kFont;
  space.gap = 16.0f;
  space.title_h = [](float slot_w) { return slot_w < 420.0f ? 110.0f : 75.0f; };  // "Longformer r = 2, global 0" wraps
  space.col_label_h = [](float cell) { return cell >= 83.0f ? 35.0f : 66.0f; };

  space.width = 1900.0f;
  space.height = 820.0f;
  const GridLayout large = layout_grid(4, space);
  EXPECT_EQ(large.columns, 4) << "one row of four: no half-empty screen";
  EXPECT_GE(large.cell, kNumbersShown) << "numbers in the cells at 1920 × 1080";
  EXPECT_FALSE(large.scrolls);

  space.width = 1260.0f;
  space.height = 470.0f;
  const GridLayout small = layout_grid(4, space);
  EXPECT_FALSE(small.scrolls) << "all four copies on one screen";
  EXPECT_GE(small.cell, kFont);
  EXPECT_LE(space.row_label_w + small.slot_w * static_cast<float>(small.columns), space.width);

  space.height = 200.0f;  // too low for even one row of label-sized cells
  const GridLayout tiny = layout_grid(4, space);
  EXPECT_TRUE(tiny.scrolls);
  EXPECT_GE(tiny.cell, kFont);
}

// The gap between copies (room for their column labels' overhangs) need not narrow the titles.
TEST(GridLayout, TitlesWrapWithinTheSlotLessTheirOwnGap) {
  GridSpace space;
  space.width = 1000.0f;
  space.height = 800.0f;
  space.min_cell = 10.0f;
  space.gap = 24.0f;
  float asked = 0.0f;
  space.title_h = [&asked](float slot_w) {
    asked = slot_w;
    return 40.0f;
  };
  const GridLayout by_gap = layout_grid(2, space);
  EXPECT_FLOAT_EQ(asked, by_gap.slot_w - 24.0f);
  space.title_gap = 10.0f;
  const GridLayout by_title_gap = layout_grid(2, space);
  EXPECT_FLOAT_EQ(asked, by_title_gap.slot_w - 10.0f);
}

TEST(ReadableCell, NumbersOnlyUpTo24Cells) {
  EXPECT_FLOAT_EQ(readable_cell(24, 24, true, 57.0f, 27.0f), 57.0f);
  EXPECT_FLOAT_EQ(readable_cell(25, 8, true, 57.0f, 27.0f), 27.0f);
  EXPECT_FLOAT_EQ(readable_cell(8, 8, false, 57.0f, 27.0f), 27.0f);
  EXPECT_FLOAT_EQ(drawn_extent(64, 10.0f), 240.0f);
  EXPECT_FLOAT_EQ(drawn_extent(8, 10.0f), 80.0f);
}

}  // namespace
}  // namespace attnviz::classroom
