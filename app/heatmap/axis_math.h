#pragma once
// The arithmetic of heatmap axes, zoom and pan (pure functions: unit-tested without a window).

#include <string>

#include "app/heatmap/heatmap_renderer.h"

namespace attnviz::heatmap {

// The smallest "nice" step (1, 2, 5, 10, 20, 50, ...) such that labels `step` cells apart are
// at least `label_px` apart when each cell is `cell_px` wide. Always >= 1.
int nice_label_step(float cell_px, float label_px);

// The whole matrix.
CellWindow full_window(int rows, int cols);

// Keeps the window inside the matrix: at least `min_cells` (or the whole axis, if shorter) and
// at most the whole axis along each side, never starting before 0 or ending past the end.
CellWindow clamp_window(CellWindow window, int rows, int cols, float min_cells = 4.0f);

// Zooms by `factor` (< 1 zooms in) keeping the cell under (anchor_row, anchor_col) fixed.
CellWindow zoom_window(CellWindow window, float factor, float anchor_row, float anchor_col, int rows, int cols);

// Moves the window by a number of cells (dragging right moves the view left: pass -pixels/cell).
CellWindow pan_window(CellWindow window, float d_rows, float d_cols, int rows, int cols);

// Which cell a point inside the cells' rectangle shows: fractional (row, col).
struct CellPoint {
  float row = 0.0f;
  float col = 0.0f;
};
CellPoint cell_at(const CellWindow& window, float x, float y, float x0, float y0, float x1, float y1);

// "1.23", "-0.04", "12.3", "1.2e+04": at most `max_chars` characters, for in-cell numbers.
std::string compact_number(float value, int max_chars = 5);

}  // namespace attnviz::heatmap
