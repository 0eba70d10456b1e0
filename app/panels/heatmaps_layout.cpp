#include "app/panels/heatmaps_layout.h"

#include <algorithm>
#include <cmath>

#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

// The readable minimum of a side with `count` cells: every label readable unless the sentence
// is long; long ones are labelled every few tokens anyway (and zoom in for the rest).
float min_cells(int count, const HeatmapMetrics& m) {
  return std::max(static_cast<float>(std::min(count, ui::kLongSentence)) * m.min_cell, m.min_side);
}

float aspect_of(const HeatmapMetrics& m) {
  return static_cast<float>(std::max(m.rows, 1)) / static_cast<float>(std::max(m.cols, 1));
}

// Cells at most `widest` wide and as tall as the aspect ratio asks, within `max_h` when the
// readable minimum allows; a tall matrix in a flat area gets narrower cells, down to half.
void size_cells(const HeatmapMetrics& m, float widest, float max_h, float& w, float& h) {
  const float aspect = aspect_of(m);
  w = widest;
  h = w * aspect;
  if (h > max_h) {
    h = max_h;
    w = std::min(w, std::max(h / aspect, w * 0.5f));
  }
  w = std::max(w, min_cells(m.cols, m));
  h = std::max(h, min_cells(m.rows, m));
}

// Narrower cells may need taller (turned) column labels, which leave less height for the
// cells: measure the labels once more for the width the cells got.
HeatmapBox settle(const HeatmapMetrics& m, float widest, float height) {
  const auto cols = static_cast<float>(std::max(m.cols, 1));
  HeatmapBox box;
  box.label_w = m.label_w;
  box.label_h = m.col_label_h(widest / cols);
  size_cells(m, widest, height - m.decorations - box.label_h, box.cells_w, box.cells_h);
  const float needed = m.col_label_h(box.cells_w / cols);
  if (needed > box.label_h) {
    box.label_h = needed;
    size_cells(m, widest, height - m.decorations - box.label_h, box.cells_w, box.cells_h);
    box.label_h = std::max(box.label_h, m.col_label_h(box.cells_w / cols));
  }
  box.cells_w = std::floor(box.cells_w);
  box.cells_h = std::floor(box.cells_h);
  return box;
}

}  // namespace

StepsLayout fit_steps(const HeatmapMetrics& m, int across, float width, float height) {
  const auto n = static_cast<float>(std::max(across, 1));
  const float widest = (width - n * m.label_w - (n - 1.0f) * m.gap - m.overhang) / n;
  StepsLayout layout;
  layout.box = settle(m, std::max(widest, min_cells(m.cols, m)), height);
  layout.width = n * layout.box.width() + (n - 1.0f) * m.gap + m.overhang;
  layout.height = m.decorations + layout.box.label_h + layout.box.cells_h;
  return layout;
}

FocusLayout fit_focus(const HeatmapMetrics& m, const FocusInput& in, float width, float height) {
  const auto d_v = static_cast<float>(std::max(in.d_v, 1));
  const float context_min = d_v * in.context_col_min;
  const float context_max = std::max(d_v * in.context_col_max, context_min);
  // The main heatmap first (the side column and the context at their smallest), then what is
  // left goes to the context up to its useful width, then to the side column.
  const float beside_room = width - m.label_w - 2.0f * m.gap - context_min - in.side_min;
  const float below_room = width - m.label_w - m.gap - context_min - m.overhang;
  FocusLayout layout;
  layout.main = settle(m, std::max(beside_room, min_cells(m.cols, m)), height);
  const HeatmapBox alone = settle(m, std::max(below_room, min_cells(m.cols, m)), height);
  layout.side_below = in.side_below || layout.main.cells_w < 0.75f * alone.cells_w;
  const float main_h = m.decorations + layout.main.label_h + layout.main.cells_h;
  if (layout.side_below) {
    layout.main = alone;
    const float left = width - layout.main.width() - m.gap;
    layout.context_w = std::floor(std::clamp(left - m.overhang, context_min, context_max));
    const float row_w = layout.main.width() + m.gap + layout.context_w + m.overhang;
    layout.side_w = std::floor(std::max(width, row_w));
    layout.height = m.decorations + layout.main.label_h + layout.main.cells_h;
    layout.side_h = std::floor(std::max(height - layout.height, in.below_min_h));
    layout.width = layout.side_w;
    layout.height += layout.side_h;
    return layout;
  }
  const float left = width - layout.main.width() - 2.0f * m.gap;
  layout.context_w = std::floor(std::clamp(left - in.side_min, context_min, context_max));
  layout.side_w = std::floor(std::clamp(left - layout.context_w, in.side_min, std::max(in.side_max, in.side_min)));
  layout.width = layout.main.width() + m.gap + layout.context_w + m.gap + layout.side_w;
  layout.height = main_h;
  layout.side_h = main_h;
  return layout;
}

HeatmapBox fit_context(const HeatmapMetrics& m, int d_v, float label_h, float col_min, float col_max, float width,
                       float height) {
  const auto dims = static_cast<float>(std::max(d_v, 1));
  HeatmapBox box;
  box.label_w = m.label_w;
  box.label_h = label_h;
  box.cells_h = std::floor(std::max(height - m.decorations - label_h, min_cells(m.rows, m)));
  // As wide as the area allows up to col_max a column (room for each cell's number), at least
  // col_min (room for its label).
  box.cells_w = std::floor(std::clamp(width - m.label_w, dims * col_min, std::max(dims * col_max, dims * col_min)));
  return box;
}

TitlePlace place_titles(const HeatmapBox& box, float widest_title, float button_w) {
  if (widest_title <= box.cells_w - button_w) return {box.label_w, box.cells_w - button_w};
  return {0.0f, box.width() - button_w};
}

}  // namespace attnviz::panels
