// Where the Heatmaps panel puts its heatmaps: readable or scrolling, never shrunk to nothing.
#include "app/panels/heatmaps_layout.h"

#include <gtest/gtest.h>

namespace attnviz::panels {
namespace {

// 17 px text at 1x: labels down to 11 px, no heatmap under 6 lines of text.
HeatmapMetrics metrics(int tokens, float scale) {
  const float font = 17.0f * scale;
  HeatmapMetrics m;
  m.rows = tokens;
  m.cols = tokens;
  m.label_w = 70.0f * scale;
  m.decorations = 3.0f * font;
  m.gap = 18.0f * scale;
  m.overhang = 0.5f * font;
  m.min_cell = 0.62f * font;
  m.min_side = 6.0f * font;
  m.col_label_h = [font](float cell) { return cell >= 3.0f * font ? font + 8.0f : 4.0f * font; };
  return m;
}

TEST(HeatmapsLayout, ThreeStepsFillAWideAreaAndLeaveRoomForTheLastColumnsLabel) {
  const StepsLayout layout = fit_steps(metrics(8, 1.0f), 3, 1200.0f, 600.0f);
  EXPECT_TRUE(layout.fits(1200.0f, 600.0f));
  EXPECT_GT(layout.box.cells_w, 250.0f);
  EXPECT_FLOAT_EQ(layout.width, 3.0f * layout.box.width() + 2.0f * 18.0f + 8.5f);
}

TEST(HeatmapsLayout, LargeTextInASmallWindowScrollsInsteadOfShrinkingTheHeatmaps) {
  // 1024 × 700 at 1.5×: about 500 × 330 px for the steps.
  const HeatmapMetrics m = metrics(8, 1.5f);
  const StepsLayout layout = fit_steps(m, 3, 500.0f, 330.0f);
  EXPECT_FALSE(layout.fits(500.0f, 330.0f));  // the panel scrolls (and Auto picks one step)
  EXPECT_GE(layout.box.cells_w, m.min_side);
  EXPECT_GE(layout.box.cells_h, m.min_side);
  // 40 tokens keep cells whose labels can be read.
  const StepsLayout many = fit_steps(metrics(40, 1.5f), 3, 500.0f, 330.0f);
  EXPECT_GE(many.box.cells_h / 40.0f, 0.62f * 17.0f * 1.5f - 0.1f);
}

TEST(HeatmapsLayout, LongSentencesGiveTheContextReadableColumnsAndTheRestToTheSide) {
  FocusInput in;
  in.d_v = 8;
  in.context_col_min = 22.0f;
  in.context_col_max = 54.0f;
  in.side_min = 240.0f;
  in.side_max = 520.0f;
  in.below_min_h = 320.0f;
  // The heatmaps-only layout at 1600 × 1000: the weights as tall as the area, the context
  // wide enough for its column labels (not a 40 px strip), the side column beside them.
  const FocusLayout wide = fit_focus(metrics(512, 1.0f), in, 1580.0f, 900.0f);
  EXPECT_FALSE(wide.side_below);
  EXPECT_TRUE(wide.width <= 1580.5f);
  EXPECT_GE(wide.context_w, 8.0f * 22.0f);
  EXPECT_LE(wide.context_w, 8.0f * 54.0f);
  EXPECT_GE(wide.side_w, 240.0f);
  // A narrow area: the side part goes below rather than squeezing the heatmap.
  in.d_v = 4;
  const FocusLayout narrow = fit_focus(metrics(8, 1.5f), in, 500.0f, 480.0f);
  EXPECT_TRUE(narrow.side_below);
  EXPECT_GT(narrow.main.cells_w, 160.0f);
  EXPECT_GE(narrow.side_h, 320.0f);
}

// Presenting 18 tokens at 1280 × 720 with numbers: cells as wide as a number, the side part
// below so the width goes to the heatmap and its context, and the height scrolls.
TEST(HeatmapsLayout, PresentationCellsKeepTheirNumbersAndTheSidePartGoesBelow) {
  HeatmapMetrics m = metrics(18, 1.6f);
  m.min_cell = 49.0f;  // "0.00" in the cells' font at 1.6x
  FocusInput in;
  in.d_v = 8;
  in.context_col_min = 22.0f;
  in.context_col_max = 87.0f;
  in.side_min = 384.0f;
  in.side_max = 832.0f;
  in.below_min_h = 512.0f;
  in.side_below = true;
  const FocusLayout layout = fit_focus(m, in, 1250.0f, 640.0f);
  EXPECT_TRUE(layout.side_below);
  EXPECT_GE(layout.main.cells_w, 18.0f * 49.0f);
  EXPECT_GE(layout.main.cells_h, 18.0f * 49.0f);
  EXPECT_GT(layout.height, 640.0f) << "taller than the window: it scrolls";
}

TEST(HeatmapsLayout, TheContextUnderTheStepsIsWideEnoughForItsLabelsAndNumbers) {
  const HeatmapMetrics m = metrics(18, 1.0f);
  const HeatmapBox tight = fit_context(m, 8, 25.0f, 22.0f, 54.0f, 150.0f, 400.0f);
  EXPECT_FLOAT_EQ(tight.cells_w, 8.0f * 22.0f);  // wider than the area: the row scrolls
  const HeatmapBox roomy = fit_context(m, 8, 25.0f, 22.0f, 54.0f, 1000.0f, 400.0f);
  EXPECT_FLOAT_EQ(roomy.cells_w, 8.0f * 54.0f);
  EXPECT_FLOAT_EQ(roomy.cells_h, 400.0f - 51.0f - 25.0f);
}

// Titles sit over the cells while the widest fits beside the Export button; past that, all of
// them start over the row labels (8 Korean tokens in a 1280 × 720 window: 172 px of cells).
TEST(HeatmapsLayout, TitlesWiderThanTheCellsUseTheRowLabelsRoomToo) {
  HeatmapBox box;
  box.label_w = 48.0f;
  box.cells_w = 172.0f;
  const TitlePlace narrow = place_titles(box, 150.0f, 25.0f);
  EXPECT_FLOAT_EQ(narrow.offset, 0.0f);
  EXPECT_FLOAT_EQ(narrow.room, 48.0f + 172.0f - 25.0f);
  const TitlePlace fits = place_titles(box, 147.0f, 25.0f);
  EXPECT_FLOAT_EQ(fits.offset, 48.0f);
  EXPECT_FLOAT_EQ(fits.room, 147.0f);
}

}  // namespace
}  // namespace attnviz::panels
