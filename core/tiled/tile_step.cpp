#include "core/tiled/tile_step.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/tiled/online_softmax.h"

namespace attnviz::tiled {
namespace {

void check_dense(const TiledTrace& trace, const Matrix& dense) {
  if (dense.rows != trace.context.rows || dense.cols != trace.context.cols) {
    throw std::invalid_argument("tile_step: the dense context is " + std::to_string(dense.rows) + " × " +
                                std::to_string(dense.cols) + ", the trace's " + std::to_string(trace.context.rows) +
                                " × " + std::to_string(trace.context.cols));
  }
}

Matrix rows_of(const Matrix& m, int begin, int end) {
  Matrix out(end - begin, m.cols);
  std::copy(m.row(begin), m.row(begin) + static_cast<std::ptrdiff_t>(out.size()), out.data.begin());
  return out;
}

double max_abs(const Matrix& m) {
  double largest = 0.0;
  for (const float v : m.data) largest = std::max(largest, std::fabs(static_cast<double>(v)));
  return largest;
}

}  // namespace

TileStep tile_step(const TiledTrace& trace, const TileGrid& grid, int tile, const Matrix& dense_context) {
  check_dense(trace, dense_context);
  if (grid.rows != trace.context.rows || grid.block_q != trace.block_q || grid.block_k != trace.block_k ||
      grid.tile_count() != static_cast<int>(trace.tiles.size())) {
    throw std::invalid_argument("tile_step: the grid is not the one the trace walked");
  }
  if (tile < 0 || tile >= static_cast<int>(trace.tiles.size())) {
    throw std::out_of_range("tile_step: tile " + std::to_string(tile) + " of " + std::to_string(trace.tiles.size()));
  }
  const TileVisit& visit = trace.tiles[static_cast<std::size_t>(tile)];
  TileStep step;
  step.index = tile;
  step.qb = visit.qb;
  step.kb = visit.kb;
  step.row_begin = grid.row_begin(visit.qb);
  step.row_end = grid.row_end(visit.qb);
  step.col_begin = grid.col_begin(visit.kb);
  step.col_end = grid.col_end(visit.kb);
  step.skipped = visit.skipped;
  step.visibility = visit.visibility;
  step.first_of_block = visit.kb == 0;
  step.last_of_block = visit.kb == grid.key_blocks() - 1;
  step.m_before = visit.m_before;
  step.l_before = visit.l_before;
  step.m_after = visit.m_after;
  step.l_after = visit.l_after;
  step.rescale = visit.rescale;
  const int rows = step.row_end - step.row_begin;
  const int d_v = trace.context.cols;
  step.o_after = visit.o_after;
  step.o_before = step.first_of_block ? Matrix(rows, d_v) : trace.tiles[static_cast<std::size_t>(tile - 1)].o_after;
  step.running = Matrix(rows, d_v);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < d_v; ++c)
      step.running.at(r, c) = normalised(step.o_after.at(r, c), step.l_after[static_cast<std::size_t>(r)]);
  }
  step.dense = rows_of(dense_context, step.row_begin, step.row_end);
  step.difference = Matrix(rows, d_v);
  for (std::size_t i = 0; i < step.difference.size(); ++i)
    step.difference.data[i] = step.running.data[i] - step.dense.data[i];
  step.max_abs_difference = max_abs(step.difference);
  return step;
}

double context_difference(const TiledTrace& trace, const Matrix& dense_context) {
  check_dense(trace, dense_context);
  double largest = 0.0;
  for (std::size_t i = 0; i < dense_context.size(); ++i) {
    largest = std::max(largest, std::fabs(static_cast<double>(trace.context.data[i]) - dense_context.data[i]));
  }
  return largest;
}

}  // namespace attnviz::tiled
