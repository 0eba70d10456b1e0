// The pinned query's bars mean what the heatmaps beside them mean (issue 11: a negative
// context component was a red bar beside a blue cell). No ImGui context is needed: the colour
// is worked out from the colormap tables alone.
#include "app/heatmap/query_bars.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include "app/heatmap/value_range.h"

namespace attnviz::heatmap {
namespace {

ImVec4 rgb(std::uint32_t colour) { return ImGui::ColorConvertU32ToFloat4(colour); }

TEST(BarColours, ContextBarsAreBlueBelowZeroAndRedAboveAsInTheContextHeatmap) {
  const BarColours context{Colormap::RdBu, -2.0f, 2.0f, false};
  const ImVec4 negative = rgb(bar_colour(context, -0.1f));
  const ImVec4 positive = rgb(bar_colour(context, 0.1f));
  // The heatmap's cells: blue for negative values, red for positive ones (colormaps.h).
  const Rgb cell_negative = sample(Colormap::RdBu, colormap_position(-2.0f, {-2.0f, 2.0f}, false));
  const Rgb cell_positive = sample(Colormap::RdBu, colormap_position(2.0f, {-2.0f, 2.0f}, false));
  EXPECT_GT(cell_negative.b, cell_negative.r);
  EXPECT_GT(cell_positive.r, cell_positive.b);
  EXPECT_GT(negative.z, negative.x) << "a negative bar is blue, like its cell";
  EXPECT_GT(positive.x, positive.z) << "a positive bar is red, like its cell";
}

TEST(BarColours, WeightBarsTakeTheirCellsColour) {
  const BarColours weights{Colormap::Viridis, 0.0f, 1.0f, false};
  for (const float w : {0.0f, 0.13f, 0.5f, 1.0f}) {
    const Rgb cell = sample(Colormap::Viridis, colormap_position(w, {0.0f, 1.0f}, false));
    const ImVec4 bar = rgb(bar_colour(weights, w));
    EXPECT_NEAR(bar.x, cell.r, 1.0f / 255.0f);
    EXPECT_NEAR(bar.y, cell.g, 1.0f / 255.0f);
    EXPECT_NEAR(bar.z, cell.b, 1.0f / 255.0f);
  }
}

}  // namespace
}  // namespace attnviz::heatmap
