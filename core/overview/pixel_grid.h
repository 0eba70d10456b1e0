#pragma once
// How a window of the N × M attention matrix maps onto the pixels of an overview: every pixel
// is a block of block_rows × block_cols cells, the same size all over (the last row and column
// of blocks hold what is left). The block is the smallest that keeps the image within the
// pixels asked for, so a window no larger than the pixels gets one pixel per cell: the exact
// cells. Pure arithmetic, shared by both backends, the export and the window.

#include <cstdint>

namespace attnviz::overview {

// Rows [row_begin, row_end) × columns [col_begin, col_end) of the N × M matrix.
struct CellWindow {
  int row_begin = 0;
  int row_end = 0;
  int col_begin = 0;
  int col_end = 0;

  [[nodiscard]] int rows() const { return row_end - row_begin; }
  [[nodiscard]] int cols() const { return col_end - col_begin; }
  [[nodiscard]] std::int64_t cells() const { return static_cast<std::int64_t>(rows()) * cols(); }
  friend bool operator==(const CellWindow&, const CellWindow&) = default;
};

// The whole matrix.
inline CellWindow whole(int n, int m) { return {0, n, 0, m}; }

struct PixelGrid {
  CellWindow window;
  int block_rows = 1;  // cells per pixel, down
  int block_cols = 1;  // cells per pixel, across
  int rows = 0;        // pixels down: ceil(window.rows() / block_rows)
  int cols = 0;        // pixels across

  // The grid for `window` within at most max_rows × max_cols pixels (each ≥ 1). Throws
  // std::invalid_argument for an empty window or a pixel count below 1.
  static PixelGrid fit(const CellWindow& window, int max_rows, int max_cols);

  [[nodiscard]] bool exact() const { return block_rows == 1 && block_cols == 1; }
  [[nodiscard]] std::int64_t pixels() const { return static_cast<std::int64_t>(rows) * cols; }
  // The pixel of cell row i / column j (inside the window).
  [[nodiscard]] int pixel_row(int i) const { return (i - window.row_begin) / block_rows; }
  [[nodiscard]] int pixel_col(int j) const { return (j - window.col_begin) / block_cols; }
  // The cells of pixel row r / column c: [begin, end).
  [[nodiscard]] int row_begin(int r) const { return window.row_begin + r * block_rows; }
  [[nodiscard]] int row_end(int r) const;
  [[nodiscard]] int col_begin(int c) const { return window.col_begin + c * block_cols; }
  [[nodiscard]] int col_end(int c) const;
  friend bool operator==(const PixelGrid&, const PixelGrid&) = default;
};

}  // namespace attnviz::overview
