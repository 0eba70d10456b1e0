// Where a heatmap's Export button goes: after its title, right-aligned with the cells, and
// inside the visible part of the window when the heatmap is scrolled partly out of view (it
// used to disappear then).
#include <gtest/gtest.h>

#include "app/export_ui/export_ui.h"

namespace attnviz::export_ui {
namespace {

constexpr float kSide = 20.0f;
constexpr float kSpacing = 8.0f;

TEST(ExportButton, RightAlignedWithTheCellsAfterTheTitle) {
  const auto place = place_export_button(100.0f, 200.0f, 400.0f, 1000.0f, kSide, kSpacing);
  ASSERT_TRUE(place.has_value());
  EXPECT_FLOAT_EQ(place->left, 380.0f);
  EXPECT_FALSE(place->over_title);
}

TEST(ExportButton, NoneOverTheTitleOfANarrowHeatmap) {
  EXPECT_FALSE(place_export_button(100.0f, 395.0f, 400.0f, 1000.0f, kSide, kSpacing).has_value());
  // Just after a title that reaches the cells' end: within one spacing past them.
  EXPECT_TRUE(place_export_button(100.0f, 384.0f, 400.0f, 1000.0f, kSide, kSpacing).has_value());
}

TEST(ExportButton, StaysInViewWhenTheHeatmapIsScrolledPartlyOut) {
  // Cells end at 900, the window shows up to 600: the button at the visible edge.
  auto place = place_export_button(400.0f, 520.0f, 900.0f, 600.0f, kSide, kSpacing);
  ASSERT_TRUE(place.has_value());
  EXPECT_FLOAT_EQ(place->left, 580.0f);
  EXPECT_FALSE(place->over_title);
  // The edge cuts the title itself: the button goes over its end, on a plain background.
  place = place_export_button(400.0f, 610.0f, 900.0f, 600.0f, kSide, kSpacing);
  ASSERT_TRUE(place.has_value());
  EXPECT_FLOAT_EQ(place->left, 580.0f);
  EXPECT_TRUE(place->over_title);
  // No part of the title in view: no button either.
  EXPECT_FALSE(place_export_button(700.0f, 800.0f, 900.0f, 600.0f, kSide, kSpacing).has_value());
}

}  // namespace
}  // namespace attnviz::export_ui
