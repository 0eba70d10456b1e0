#pragma once
// Where the Heatmaps panel puts its heatmaps, as plain arithmetic on pixel sizes (no ImGui:
// unit-tested in tests/panels/heatmaps_layout_test.cpp). Every size is at the current UI scale.
//
// Heatmaps never shrink below a readable size: when the panel is smaller than that (a small
// window, large text), the layout comes out larger than the area and the panel scrolls.

#include <functional>

namespace attnviz::panels {

// One heatmap: row labels on the left, column labels above, the cells.
struct HeatmapBox {
  float label_w = 0.0f;
  float label_h = 0.0f;
  float cells_w = 0.0f;
  float cells_h = 0.0f;
  [[nodiscard]] float width() const { return label_w + cells_w; }
};

// What every layout needs to know about the matrix and the text.
struct HeatmapMetrics {
  int rows = 1;                                     // N query tokens
  int cols = 1;                                     // M key tokens
  float label_w = 0.0f;                             // the row labels' column
  float decorations = 0.0f;                         // the title block above and the colorbar below
  float gap = 0.0f;                                 // between neighbours
  float overhang = 0.0f;                            // room right of the rightmost heatmap for its column labels
  float min_cell = 0.0f;                            // the smallest cell whose label stays readable (up to 40 tokens)
  float min_side = 0.0f;                            // no heatmap smaller than this, however few its tokens
  std::function<float(float cell_px)> col_label_h;  // room column labels need over cells this wide
};

// `across` heatmaps of the same matrix side by side in width × height (the three steps).
struct StepsLayout {
  HeatmapBox box;       // each of them
  float width = 0.0f;   // all of them, gaps and overhang included
  float height = 0.0f;  // titles, labels, cells and colorbars
  [[nodiscard]] bool fits(float area_w, float area_h) const {
    return width <= area_w + 0.5f && height <= area_h + 0.5f;
  }
};
StepsLayout fit_steps(const HeatmapMetrics& m, int across, float width, float height);

// One step large, the context beside it (rows aligned: same label height and cells height)
// and a side column (all heads, pinned query) in width × height; in a narrow area, where the
// side column would squeeze the heatmap, the side part goes below it instead.
struct FocusInput {
  int d_v = 1;                   // the context's columns
  float context_col_min = 0.0f;  // a context column wide enough for its label
  float context_col_max = 0.0f;  // wider than this gains nothing
  float side_min = 0.0f;         // the side column
  float side_max = 0.0f;
  float below_min_h = 0.0f;  // the side part's height when it goes below
  bool side_below = false;   // below whatever the width (presentation: the width is the heatmaps')
};
struct FocusLayout {
  HeatmapBox main;
  float context_w = 0.0f;  // the context's cells (its rows are main.cells_h tall, no row labels)
  bool side_below = false;
  float side_w = 0.0f;
  float side_h = 0.0f;  // below: its height; beside: the heatmaps' height
  float width = 0.0f;
  float height = 0.0f;
};
FocusLayout fit_focus(const HeatmapMetrics& m, const FocusInput& in, float width, float height);

// The context under the three steps, in width × height with column labels label_h tall: its
// cells as tall as the area allows (at least the readable minimum), as wide as the width
// allows with each of its d_v columns between col_min and col_max wide.
HeatmapBox fit_context(const HeatmapMetrics& m, int d_v, float label_h, float col_min, float col_max, float width,
                       float height);

// Where the steps' titles start (from the box's left edge) and how wide they may be, the Export
// button (`button_w`) ending their line: over the cells, or, when the widest title is wider
// than that ("Scaled + masked" over 8 narrow cells), all of them over the row labels too, rather
// than cut short or out of line with each other.
struct TitlePlace {
  float offset = 0.0f;
  float room = 0.0f;
};
TitlePlace place_titles(const HeatmapBox& box, float widest_title, float button_w);

}  // namespace attnviz::panels
