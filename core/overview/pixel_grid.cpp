#include "core/overview/pixel_grid.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attnviz::overview {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

PixelGrid PixelGrid::fit(const CellWindow& window, int max_rows, int max_cols) {
  if (window.rows() < 1 || window.cols() < 1) {
    throw std::invalid_argument("overview: the window [" + std::to_string(window.row_begin) + ", " +
                                std::to_string(window.row_end) + ") x [" + std::to_string(window.col_begin) + ", " +
                                std::to_string(window.col_end) + ") holds no cell");
  }
  if (max_rows < 1 || max_cols < 1) {
    throw std::invalid_argument("overview: at least 1 x 1 pixels are needed, got " + std::to_string(max_rows) + " x " +
                                std::to_string(max_cols));
  }
  PixelGrid grid;
  grid.window = window;
  grid.block_rows = ceil_div(window.rows(), max_rows);
  grid.block_cols = ceil_div(window.cols(), max_cols);
  grid.rows = ceil_div(window.rows(), grid.block_rows);
  grid.cols = ceil_div(window.cols(), grid.block_cols);
  return grid;
}

int PixelGrid::row_end(int r) const { return std::min(window.row_end, row_begin(r) + block_rows); }
int PixelGrid::col_end(int c) const { return std::min(window.col_end, col_begin(c) + block_cols); }

}  // namespace attnviz::overview
