#include "app/heatmap/axis_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attnviz::heatmap {

int nice_label_step(float cell_px, float label_px) {
  if (!(cell_px > 0.0f)) return 1;
  const float needed = label_px / cell_px;
  if (needed <= 1.0f) return 1;
  for (int decade = 1; decade <= 100000000; decade *= 10) {
    for (int mantissa : {1, 2, 5}) {
      const int step = mantissa * decade;
      if (static_cast<float>(step) >= needed) return step;
    }
  }
  return 1000000000;
}

CellWindow full_window(int rows, int cols) {
  return {0.0f, 0.0f, static_cast<float>(std::max(rows, 1)), static_cast<float>(std::max(cols, 1))};
}

namespace {

void clamp_axis(float& first, float& count, int total, float min_cells) {
  const auto n = static_cast<float>(std::max(total, 1));
  count = std::clamp(count, std::min(min_cells, n), n);
  first = std::clamp(first, 0.0f, n - count);
}

}  // namespace

CellWindow clamp_window(CellWindow w, int rows, int cols, float min_cells) {
  if (!(w.rows > 0.0f) || !(w.cols > 0.0f)) return full_window(rows, cols);
  clamp_axis(w.first_row, w.rows, rows, min_cells);
  clamp_axis(w.first_col, w.cols, cols, min_cells);
  return w;
}

CellWindow zoom_window(CellWindow w, float factor, float anchor_row, float anchor_col, int rows, int cols) {
  const CellWindow before = clamp_window(w, rows, cols);
  CellWindow after = before;
  after.rows = before.rows * factor;
  after.cols = before.cols * factor;
  after = clamp_window(after, rows, cols);
  // The anchor keeps its relative position inside the window.
  const float fr = (anchor_row - before.first_row) / before.rows;
  const float fc = (anchor_col - before.first_col) / before.cols;
  after.first_row = anchor_row - fr * after.rows;
  after.first_col = anchor_col - fc * after.cols;
  return clamp_window(after, rows, cols);
}

CellWindow pan_window(CellWindow w, float d_rows, float d_cols, int rows, int cols) {
  w = clamp_window(w, rows, cols);
  w.first_row += d_rows;
  w.first_col += d_cols;
  return clamp_window(w, rows, cols);
}

CellPoint cell_at(const CellWindow& w, float x, float y, float x0, float y0, float x1, float y1) {
  CellPoint p;
  p.col = w.first_col + (x - x0) / std::max(x1 - x0, 1e-6f) * w.cols;
  p.row = w.first_row + (y - y0) / std::max(y1 - y0, 1e-6f) * w.rows;
  return p;
}

std::string compact_number(float value, int max_chars) {
  char text[32];
  if (std::isnan(value)) return "nan";
  if (value == 0.0f) return "0";
  // Fixed notation with as many decimals as fit; scientific when even 0 decimals do not fit.
  for (int decimals = 2; decimals >= 0; --decimals) {
    std::snprintf(text, sizeof text, "%.*f", decimals, static_cast<double>(value));
    std::string s = text;
    // "0.00" says nothing about a tiny non-zero value: prefer scientific then.
    const bool lost_everything = std::strtod(text, nullptr) == 0.0;
    if (static_cast<int>(s.size()) <= max_chars && !lost_everything) return s;
  }
  std::snprintf(text, sizeof text, "%.0e", static_cast<double>(value));
  return text;
}

}  // namespace attnviz::heatmap
