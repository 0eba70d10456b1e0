#pragma once
// Bar charts of one query row: its attention weights over the keys (0..1, masked keys shown
// as grey ticks) and its context vector (signed bars around 0). Drawn with ImDrawList at the
// cursor; labels are thinned like the heatmaps' when there are many bars.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/heatmap/colormaps.h"
#include "core/common/matrix.h"

namespace attnviz::heatmap {

// Bars in the colours their values have in the heatmap beside them, so a colour means one
// thing everywhere: a sequential map (the weights' viridis) colours each bar by its value on the
// heatmap's range; a diverging map (the context's blue-white-red) by its sign, with the map's
// two ends (its white middle would vanish on the plot).
struct BarColours {
  Colormap colormap = Colormap::Viridis;
  float min = 0.0f;  // the heatmap's colour range
  float max = 1.0f;
  bool log_scale = false;
};
// The colour of a bar of `value` (ImU32, ABGR).
std::uint32_t bar_colour(const BarColours& colours, float value);

struct BarChart {
  const float* values = nullptr;
  int count = 0;
  const std::vector<std::string>* labels = nullptr;  // null: 0, 1, 2, ...
  const unsigned char* visible = nullptr;            // null: every bar visible; else 0 = masked
  float range_min = 0.0f;                            // the value axis
  float range_max = 1.0f;
  float width = 300.0f;
  float height = 120.0f;              // the bars' area (labels come below it)
  float label_height = 0;             // room for the labels under the bars (0: none)
  int highlight = -1;                 // draw this bar in the highlight colour
  std::optional<BarColours> colours;  // nullopt: one neutral grey for every bar
};

// Row `row` of an attention-weights matrix on 0..1, its masked keys (from `mask`) as grey
// ticks, labelled with `keys`; the caller sets the size.
BarChart weights_row_chart(const Matrix& weights, const MaskMatrix& mask, int row,
                           const std::vector<std::string>* keys);

// Draws the chart and advances the cursor; returns the hovered bar or -1 (and shows its value
// in a tooltip).
int draw_bar_chart(const char* id, const BarChart& chart);

}  // namespace attnviz::heatmap
