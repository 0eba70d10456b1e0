#pragma once
// The scaling lesson beside the heatmaps: each row's entropy and largest weight, and what
// they would be with and without 1/√d_k, with buttons and a temperature slider that change
// the scenario's scale (undoable like any edit).

#include <vector>

#include "app/ui/panel.h"
#include "core/attention/result.h"
#include "core/lesson/row_stats.h"
#include "core/scenario/problem.h"

namespace attnviz::classroom {

// Per-row numbers drawn to the right of a weights heatmap whose cells span
// [cells_top, cells_top + cells_height] at x = left; one line per row when rows fit.
void draw_row_stats_column(const std::vector<lesson::RowStats>& rows, float left, float cells_top, float cells_height);
float row_stats_column_width();

// "Rows of head 2: mean entropy 2.10 of 3.00 bits, mean max weight 0.42 (S: scaling on/off)",
// wrapped within `width` pixels. head < 0: the scenario has one head.
void draw_row_stats_summary(const std::vector<lesson::RowStats>& rows, int head, float width);

// The 1/√d_k vs no-scaling contrast of `head`, what it shows for these scores, and the scale
// controls, within `width` pixels.
// `problem` and `result`: what the view shows (the scenario's, or a model's layer); the
// scale and temperature controls edit the scenario, so only when `editable`.
void draw_scaling_controls(ui::UiContext& ui, const Problem& problem, const Result& result, int head, float width,
                           bool editable);

}  // namespace attnviz::classroom
