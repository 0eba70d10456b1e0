#pragma once
// Token labels on both axes of a panel: shortened to a readable length, sized to the cells, and
// thinned to every k-th token (k a round step) when the cells are too small for all of them.

#include <string>
#include <vector>

#include "core/export/figure.h"
#include "core/export/figure_canvas.h"

namespace attnviz::exporting {

struct AxisLabel {
  int index = 0;  // row or column in the panel
  std::string text;
};

struct AxisLabels {
  double size = 12.0;  // pixels
  int step = 1;        // every step-th token of the whole sequence is labelled
  std::vector<AxisLabel> rows;
  std::vector<AxisLabel> cols;
  double row_band = 0.0;     // the widest row label: room left of the matrix
  double column_band = 0.0;  // room above the matrix for the column labels
  bool columns_vertical = false;
  std::string note;  // for the figure's notes when some tokens go unlabelled; empty otherwise
};

// Space between neighbouring upright column labels: half an em.
double label_gap(double size);

// The widest column label at `size` as the figure would show it (the cell size is chosen so that
// upright column labels fit when they nearly do).
double widest_column_label(const HeatmapFigure& figure, const FigureCanvas& canvas, double size);

AxisLabels choose_axis_labels(const HeatmapFigure& figure, const FigureCanvas& canvas, int cell);

// Row labels right-aligned left of the matrix, column labels above it, `gap` pixels away.
void draw_axis_labels(FigureCanvas& canvas, const AxisLabels& labels, int cell, int matrix_x, int matrix_y, int gap);

}  // namespace attnviz::exporting
