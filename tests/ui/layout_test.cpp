#include "app/ui/layout.h"

#include <gtest/gtest.h>

namespace attnviz::ui {
namespace {

TEST(Layout, FullModeHasInputsOnTheLeftAndHeatmapsBesideThem) {
  const AreaRects a = compute_areas(LayoutMode::Full, 1600, 1000, 1.0f, 22);
  EXPECT_GT(a.inputs.w, 300.0f);
  EXPECT_FLOAT_EQ(a.main.x, a.inputs.w);
  EXPECT_FLOAT_EQ(a.main.x + a.main.w, 1600.0f);
  EXPECT_FLOAT_EQ(a.main.y, 22.0f);
  EXPECT_FLOAT_EQ(a.status_bar.y + a.status_bar.h, 1000.0f);
  EXPECT_FLOAT_EQ(a.main.y + a.main.h, a.status_bar.y);
  EXPECT_FLOAT_EQ(a.side.w, 0.0f);
}

TEST(Layout, HeatmapsModeUsesTheWholeWidth) {
  const AreaRects a = compute_areas(LayoutMode::Heatmaps, 1280, 800, 1.0f, 22);
  EXPECT_FLOAT_EQ(a.main.x, 0.0f);
  EXPECT_FLOAT_EQ(a.main.w, 1280.0f);
  EXPECT_FALSE(visible_areas(LayoutMode::Heatmaps).inputs);
}

TEST(Layout, CompareReadyPutsTheBackendOnTheRight) {
  const AreaRects a = compute_areas(LayoutMode::CompareReady, 1600, 1000, 1.0f, 22);
  EXPECT_GT(a.side.w, 300.0f);
  EXPECT_FLOAT_EQ(a.side.x + a.side.w, 1600.0f);
  EXPECT_FLOAT_EQ(a.main.x + a.main.w, a.side.x);
  EXPECT_TRUE(visible_areas(LayoutMode::CompareReady).side);
}

TEST(Layout, ColumnsScaleWithTheUiButNeverTakeMoreThanHalf) {
  const AreaRects small = compute_areas(LayoutMode::Full, 800, 600, 2.0f, 40);
  EXPECT_LE(small.inputs.w, 400.0f);
  EXPECT_GT(small.main.w, 0.0f);
  EXPECT_GT(compute_areas(LayoutMode::Full, 1600, 1000, 1.5f, 30).inputs.w,
            compute_areas(LayoutMode::Full, 1600, 1000, 1.0f, 30).inputs.w);
}

// Presentation mode: the heatmaps and views get the whole screen, no menu bar or status bar
// (at 1280 × 720 and 1.6× text those took about 85 pixels).
TEST(Layout, PresentingGivesTheMainAreaTheWholeWindow) {
  const AreaRects a = compute_areas(LayoutMode::Heatmaps, 1280, 720, 1.6f, 0.0f, false);
  EXPECT_FLOAT_EQ(a.main.x, 0.0f);
  EXPECT_FLOAT_EQ(a.main.y, 0.0f);
  EXPECT_FLOAT_EQ(a.main.w, 1280.0f);
  EXPECT_FLOAT_EQ(a.main.h, 720.0f);
  EXPECT_FLOAT_EQ(a.status_bar.h, 0.0f);
  EXPECT_FLOAT_EQ(a.status_bar.y, 720.0f);  // notices sit above it: at the bottom edge
  const AreaRects with_chrome = compute_areas(LayoutMode::Heatmaps, 1280, 720, 1.6f, 36.0f);
  EXPECT_GT(a.main.h - with_chrome.main.h, 70.0f);
}

// F8 shows the heatmaps alone, and again goes back to the inputs; while presenting it only
// ever hides a column F9 or F10 brought in (it used to leave presentation's layout for the
// full one, menu-less and in the presentation theme).
TEST(Layout, F8TogglesHeatmapsOnlyExceptWhilePresenting) {
  EXPECT_EQ(layout_after_key(LayoutKey::F8, LayoutMode::Full, false), LayoutMode::Heatmaps);
  EXPECT_EQ(layout_after_key(LayoutKey::F8, LayoutMode::Heatmaps, false), LayoutMode::Full);
  EXPECT_EQ(layout_after_key(LayoutKey::F8, LayoutMode::Heatmaps, true), LayoutMode::Heatmaps);
  EXPECT_EQ(layout_after_key(LayoutKey::F8, LayoutMode::Full, true), LayoutMode::Heatmaps);
  EXPECT_EQ(layout_after_key(LayoutKey::F8, LayoutMode::CompareReady, true), LayoutMode::Heatmaps);
  EXPECT_EQ(layout_after_key(LayoutKey::F9, LayoutMode::Heatmaps, true), LayoutMode::Full);
  EXPECT_EQ(layout_after_key(LayoutKey::F10, LayoutMode::Heatmaps, false), LayoutMode::CompareReady);
}

TEST(Layout, ModeNamesRoundTrip) {
  for (LayoutMode mode : {LayoutMode::Full, LayoutMode::Heatmaps, LayoutMode::CompareReady}) {
    EXPECT_EQ(layout_mode_from_string(to_string(mode)), mode);
  }
  EXPECT_FALSE(layout_mode_from_string("sideways").has_value());
}

TEST(Layout, TheModelViewsShowLineIsRememberedRestoredAndResetWithTheLayout) {
  for (const ModelShown shown : {ModelShown::Heads, ModelShown::Lens, ModelShown::Attribution, ModelShown::Patching})
    EXPECT_EQ(model_shown_from_string(to_string(shown)), shown);
  EXPECT_FALSE(model_shown_from_string("sideways").has_value());
  Layout layout;
  ViewState view;
  view.model_shown = ModelShown::Lens;
  const RememberedLayout remembered = layout.remembered(LayoutMode::Full, view);
  EXPECT_EQ(remembered.model_shown, ModelShown::Lens);
  ViewState next_start;
  layout.restore(remembered, next_start, false);
  EXPECT_EQ(next_start.model_shown, ModelShown::Lens);
  EXPECT_EQ(layout.default_layout().model_shown, ModelShown::Heads);
}

}  // namespace
}  // namespace attnviz::ui

namespace attnviz::ui {
namespace {

TEST(WeightsRange, AutomaticIsZeroToOneForShortSentencesAndLogBeyond) {
  EXPECT_EQ(resolve(WeightsRange::Automatic, 18), WeightsRange::ZeroToOne);
  EXPECT_EQ(resolve(WeightsRange::Automatic, 40), WeightsRange::ZeroToOne);
  EXPECT_EQ(resolve(WeightsRange::Automatic, 41), WeightsRange::Log);
  EXPECT_EQ(resolve(WeightsRange::ZeroToOne, 2048), WeightsRange::ZeroToOne);
  EXPECT_EQ(resolve(WeightsRange::Auto, 5), WeightsRange::Auto);
}

}  // namespace
}  // namespace attnviz::ui
