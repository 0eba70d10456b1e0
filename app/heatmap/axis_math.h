#pragma once
// The arithmetic of heatmap axes, zoom and pan (pure functions: unit-tested without a window).

#include <string>
#include <vector>

#include "app/heatmap/heatmap_renderer.h"

namespace attnviz::heatmap {

// The smallest "nice" step (1, 2, 5, 10, 20, 50, ...) such that labels `step` cells apart are
// at least `label_px` apart when each cell is `cell_px` wide. Always >= 1.
int nice_label_step(float cell_px, float label_px);

// How column labels over cells `cell` pixels wide are set, given the widest label's width at
// the full text size `full`: horizontal when each fits its cell, else staggered on two lines
// when each fits two cells (Korean reads badly turned), else turned. Labels may shrink from
// `full` (or the cell's width, if smaller) down to `min_size` to stay horizontal or staggered;
// staggered labels need two lines within `max_height`, turned ones are cut to it.
enum class ColumnLabelMode { Horizontal, Staggered, Rotated };
struct ColumnLabelPlan {
  ColumnLabelMode mode = ColumnLabelMode::Rotated;
  float size = 0.0f;    // text size
  float height = 0.0f;  // room above the cells: the labels (at most max_height) and 2 · pad
  float pitch = 0.0f;   // Rotated: the width a turned label takes with the gap to the next
};
ColumnLabelPlan plan_column_labels(float widest_at_full, float full, float min_size, float cell, float max_height,
                                   float pad);

// The hovered row's or column's label is drawn even between thinned ones, on its highlight:
// whether the thinned label at `index` gives way to it, its centre (cells `cell` pixels apart)
// nearer than a text height `size` to the hovered one's. Never for the hovered label itself, or
// when nothing is hovered (`hovered` < 0).
bool label_gives_way(int index, int hovered, float cell, float size);

// The whole matrix.
CellWindow full_window(int rows, int cols);

// Keeps the window inside the matrix: at least `min_cells` (or the whole axis, if shorter) and
// at most the whole axis along each side, never starting before 0 or ending past the end.
// An axis whose count is 0 means "all of it", whatever its length.
CellWindow clamp_window(CellWindow window, int rows, int cols, float min_cells = 4.0f);

// The form a zoom is kept in between frames: clamped, and each axis that shows all of the
// matrix stored as "all of it" (first 0, count 0). So a matrix that grows (a sentence being
// typed) is shown whole unless it was zoomed on purpose, and a zoom left over from a larger
// matrix is clamped to the new one.
CellWindow kept_window(CellWindow window, int rows, int cols);

// Whether `window` hides any row or column of a rows × cols matrix.
bool is_zoomed(const CellWindow& window, int rows, int cols);

// What a zoomed view shows, in whole cells: "rows 0–3 of 8", "rows 2–9, columns 4–11 of
// 16 × 16"; "" when nothing is hidden. (Cells partly in view count.)
std::string zoom_caption(const CellWindow& window, int rows, int cols);

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

// "1.23", "-0.04", "12.3", "1.2e+04": at most `max_chars` characters (colorbar ticks, bars).
std::string compact_number(float value, int max_chars = 5);

// Labels read side by side (a colorbar's ticks): compact_number's forms, with more decimals or
// significant digits when that alone would give two different values one label (a log scale
// from 1e-4 to 2e-4 read "1e-04 … 1e-04 … 2e-04"; it now reads "1.0e-04 … 1.4e-04 … 2.0e-04").
std::vector<std::string> distinct_numbers(const std::vector<float>& values, int max_chars);

// In-cell numbers: every visible cell of one heatmap uses one format, so a reader compares
// like with like. `value` with `decimals` decimals; a value that rounds to zero reads 0.00,
// never -0.00. Negatives keep the ASCII hyphen here, as seaborn's annotations do: cells are
// sized to their widest number, and the minus sign U+2212 (0.84 em against 0.36) made the
// Step view's heatmaps too wide for the text column beside them at 1600 × 1000.
std::string fixed_number(float value, int decimals);

// In-cell numbers on a log scale: two significant digits, "7.1e-05", "3.0e-01".
std::string significant_number(float value);

// The fewest decimals that keep two significant digits of the largest value: 2 up to 1
// (weights, 1 included: "0.03", never "0.0"), 1 below 10 ("-7.5"), none beyond ("123").
int fewest_decimals(float largest_magnitude);

// A short number for a cell too narrow for the heatmap's fixed decimals: at most two decimals,
// as few as the magnitude needs, the leading zero of a fraction dropped (".03", "-.41", "3.4",
// "12", "123"; a weight of exactly 1 reads "1", one that rounds to 0 reads "0"): the precision a
// three-character cell can hold, so a Weights heatmap at 10-14 tokens shows numbers as its Raw
// and Scaled neighbours do, and a score of 3.4 beside one of 12 is not rounded to "3".
std::string short_number(float value);

// How every visible cell of one heatmap (or every bar of a chart) writes its number, the one
// policy of the window's heatmaps (docs/gui.md, "Numbers in cells"): the same fixed decimals for
// all (2, else 1; weights always 2), else short_number for all, else none.
struct CellNumbers {
  enum class Form { None, Fixed, Short };
  Form form = Form::None;
  int decimals = 0;  // Fixed
  [[nodiscard]] bool shown() const { return form != Form::None; }
  [[nodiscard]] std::string text(float value) const {
    return form == Form::Fixed ? fixed_number(value, decimals) : short_number(value);
  }
};

// The policy for values from `low` to `high` (the visible cells' extremes) in `room` wide cells,
// as `width` measures text. The short form's widest number is one of the extremes or, between
// them, a negative of four characters ("-8.8", "-.88") or a positive "8.8".
template <class Width>
CellNumbers cell_numbers_that_fit(float low, float high, float room, Width&& width) {
  const float largest = low < 0.0f ? (-low > high ? -low : high) : (high > low ? high : low);
  const int fewest = fewest_decimals(largest) > 1 ? fewest_decimals(largest) : 1;
  for (int decimals = 2; decimals >= fewest; --decimals) {
    if (width(fixed_number(low, decimals)) <= room && width(fixed_number(high, decimals)) <= room) {
      return {CellNumbers::Form::Fixed, decimals};
    }
  }
  bool fits = width(short_number(low)) <= room && width(short_number(high)) <= room;
  if (low < 0.0f) fits = fits && width(std::string("-8.8")) <= room && width(std::string("-.88")) <= room;
  if (high >= 1.0f) fits = fits && width(std::string("8.8")) <= room;
  return fits ? CellNumbers{CellNumbers::Form::Short, 0} : CellNumbers{};
}

}  // namespace attnviz::heatmap
