// The CPU overview's passes. Each task owns a block of query rows (pass 1) or of pixel rows
// (pass 2: no other task writes its pixels), walks the keys a tile of kTileCols at a time,
// computes the tile's scores with one Eigen product into a scratch tile of its thread (the
// only score storage there is; ALiBi's bias added there), masks the cells a partly hidden tile hides, and reduces:
//   pass 1  per row, the online-softmax update of m and l (core/tiled/online_softmax.h);
//   pass 2  per pixel row, the tile's rows element by element (one vector operation per row),
//           then that row of partial results per pixel column segment (pooling.h).

#include "core/overview/cpu_passes.h"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <span>
#include <vector>

#include "core/overview/pooling.h"
#include "core/scenario/positions.h"
#include "core/tiled/online_softmax.h"

namespace attnviz::overview::cpu {
namespace {

constexpr int kStatsRows = 128;  // query rows per pass-1 task
constexpr int kChunkRows = 192;  // the most query rows in one pass-2 product
constexpr int kTileCols = 512;   // keys per tile: a 192 × 512 tile of scores is 384 KiB
constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

using Tile = Eigen::Block<RowMajor>;
using RowArray = Eigen::Array<float, 1, Eigen::Dynamic>;

// The OpenMP team for a pass. Eigen parallelises a product by itself when it is called outside
// an active team and the product is above 50,000 multiply-adds: called from a team of one,
// every tile's product would wake Eigen's own threads (milliseconds each on a busy machine).
// So every pass big enough for that runs on the whole team, whose members Eigen leaves alone.
int team_size(std::int64_t cells, int d_k) { return cells * d_k >= 50'000 ? omp_get_max_threads() : 1; }

// A mask with an expression: each row's gaps between its runs of visible keys get `value`
// (a binary search to the tile's first run, then one fill per gap, not one lookup per cell).
void mask_tile_from_runs(Tile tile, const Mask& mask, int head, int i0, int j0, float value) {
  const int j1 = j0 + static_cast<int>(tile.cols());
  std::vector<KeySpan> scratch;
  for (Eigen::Index r = 0; r < tile.rows(); ++r) {
    const std::span<const KeySpan> runs = mask.runs(head, i0 + static_cast<int>(r), scratch);
    auto run = std::partition_point(runs.begin(), runs.end(), [&](const KeySpan& s) { return s.end <= j0; });
    int hidden_from = j0;  // the first key not yet known to be visible
    for (; run != runs.end() && run->begin < j1; ++run) {
      if (run->begin > hidden_from) tile.row(r).segment(hidden_from - j0, run->begin - hidden_from).setConstant(value);
      hidden_from = std::max(hidden_from, run->end);
    }
    if (hidden_from < j1) tile.row(r).segment(hidden_from - j0, j1 - hidden_from).setConstant(value);
  }
}

// Cells of rows i0.. × columns j0.. that the mask hides from head `head` get `value`.
void mask_tile(Tile tile, const Mask& mask, int head, int i0, int j0, float value) {
  if (mask.general()) {
    mask_tile_from_runs(tile, mask, head, i0, j0, value);
    return;
  }
  for (Eigen::Index r = 0; r < tile.rows(); ++r) {
    for (Eigen::Index c = 0; c < tile.cols(); ++c) {
      if (!mask.visible(i0 + static_cast<int>(r), j0 + static_cast<int>(c))) tile(r, c) = value;
    }
  }
}

// scale · Q[rows] · K[keys]ᵀ into the top-left corner of `scratch`, with ALiBi's bias
// −slope·|i − j| (positions.h) when slope is not 0.
Tile score_tile(const HeadOperands& head, float scale, float slope, int q_row, int rows, int key, int keys,
                RowMajor& scratch) {
  Tile tile = scratch.topLeftCorner(rows, keys);
  tile.noalias() = (scale * head.q.middleRows(q_row, rows)) * head.k.middleRows(key, keys).transpose();
  if (slope != 0.0f) {
    const int i0 = head.row_begin + q_row;
    const int j0 = head.key_begin + key;
    for (int r = 0; r < rows; ++r) {
      float* row = &tile(r, 0);
      for (int c = 0; c < keys; ++c) row[c] += alibi_bias(slope, i0 + r, j0 + c);
    }
  }
  return tile;
}

void update_stats(const Tile& tile, float* m, float* l) {
  for (Eigen::Index r = 0; r < tile.rows(); ++r) {
    const float tile_max = tile.row(r).maxCoeff();
    if (tile_max == kMinusInfinity) continue;  // the row sees nothing here
    const float m_new = std::max(m[r], tile_max);
    const float alpha = tiled::rescale_factor(m[r], m_new);
    const float sum = (tile.row(r).array() - m_new).exp().sum();
    l[r] = alpha * l[r] + sum;
    m[r] = m_new;
  }
}

// The value a hidden cell takes before the reduction: out of every max, nothing in a sum.
float hidden_value(Quantity quantity, Pooling pooling) {
  return quantity != Quantity::Weights && pooling == Pooling::Mean ? 0.0f : kMinusInfinity;
}

// Folds the tile's rows [r0, r1) (one pixel row's part of it) into that pixel row's reductions.
void reduce_rows(const Tile& tile, Eigen::Index r0, Eigen::Index r1, bool max, int key0, const PixelGrid& grid,
                 RowArray& acc, double* pixel_row) {
  const Eigen::Index keys = tile.cols();
  acc.head(keys) = tile.row(r0).array();
  for (Eigen::Index r = r0 + 1; r < r1; ++r) {
    if (max)
      acc.head(keys) = acc.head(keys).max(tile.row(r).array());
    else
      acc.head(keys) += tile.row(r).array();
  }
  if (grid.block_cols == 1) {  // one key per pixel column: no segments to reduce
    double* out = pixel_row + grid.pixel_col(key0);
    for (Eigen::Index j = 0; j < keys; ++j) {
      out[j] = max ? std::max(out[j], static_cast<double>(acc[j])) : out[j] + static_cast<double>(acc[j]);
    }
    return;
  }
  for (int j = key0; j < key0 + static_cast<int>(keys);) {
    const int c = grid.pixel_col(j);
    const int end = std::min(key0 + static_cast<int>(keys), grid.col_end(c));
    const auto segment = acc.segment(j - key0, end - j);
    if (max)
      pixel_row[c] = std::max(pixel_row[c], static_cast<double>(segment.maxCoeff()));
    else
      pixel_row[c] += static_cast<double>(segment.sum());
    j = end;
  }
}

}  // namespace

void row_stats(const HeadOperands& head, const Mask& mask, float* m, float* l, PassContext& context) {
  const int rows = static_cast<int>(head.q.rows());
  const int keys = mask.cols();  // k holds them all (key_begin = 0)
  const int tasks = (rows + kStatsRows - 1) / kStatsRows;
  const int d_k = static_cast<int>(head.q.cols());
#pragma omp parallel num_threads(team_size(static_cast <std::int64_t>(rows) * keys, d_k))
  {
    RowMajor scratch(kStatsRows, kTileCols);
#pragma omp for schedule(dynamic, 1)
    for (int task = 0; task < tasks; ++task) {
      const int r0 = task * kStatsRows;
      const int count = std::min(rows, r0 + kStatsRows) - r0;
      const int i0 = head.row_begin + r0;
      std::fill(m + r0, m + r0 + count, kMinusInfinity);
      std::fill(l + r0, l + r0 + count, 0.0f);
      std::int64_t macs = 0;
      for (int j0 = 0; j0 < keys && !context.stop(); j0 += kTileCols) {
        const int width = std::min(keys, j0 + kTileCols) - j0;
        const BlockVisibility visibility = mask.classify_block(head.index, i0, i0 + count, j0, j0 + width);
        context.advance(static_cast<std::int64_t>(count) * width);
        if (visibility == BlockVisibility::Hidden) continue;
        Tile tile = score_tile(head, head.scale, head.slope, r0, count, j0, width, scratch);
        if (visibility == BlockVisibility::Partial) mask_tile(tile, mask, head.index, i0, j0, kMinusInfinity);
        update_stats(tile, m + r0, l + r0);
        macs += static_cast<std::int64_t>(count) * width * d_k;
      }
      context.macs.fetch_add(macs);
    }
  }
}

void pool(const HeadOperands& head, const Mask& mask, const PixelGrid& grid, Quantity quantity, Pooling pooling,
          const std::vector<float>& offsets, std::vector<double>& reduced, PassContext& context) {
  const bool max = reduces_max(pooling);
  const bool weights = quantity == Quantity::Weights;
  // Raw scores are Q·Kᵀ alone; the scaled ones and the weights are what the softmax sees.
  const float scale = quantity == Quantity::RawScores ? 1.0f : head.scale;
  const float slope = quantity == Quantity::RawScores ? 0.0f : head.slope;
  const float hidden = hidden_value(quantity, pooling);
  const int d_k = static_cast<int>(head.q.cols());
  const CellWindow& w = grid.window;
  reduced.assign(static_cast<std::size_t>(grid.pixels()), max ? -std::numeric_limits<double>::infinity() : 0.0);
  // A task: whole pixel rows, about kChunkRows query rows of them.
  const int band = std::max(1, kChunkRows / grid.block_rows);
  const int tasks = (grid.rows + band - 1) / band;
#pragma omp parallel num_threads(team_size(w.cells(), d_k))
  {
    RowMajor scratch(kChunkRows, kTileCols);
    RowArray acc(kTileCols);
#pragma omp for schedule(dynamic, 1)
    for (int task = 0; task < tasks; ++task) {
      const int p0 = task * band;
      const int p1 = std::min(grid.rows, p0 + band);
      std::int64_t macs = 0;
      for (int i0 = grid.row_begin(p0); i0 < grid.row_end(p1 - 1) && !context.stop(); i0 += kChunkRows) {
        const int count = std::min(grid.row_end(p1 - 1), i0 + kChunkRows) - i0;
        for (int j0 = w.col_begin; j0 < w.col_end && !context.stop(); j0 += kTileCols) {
          const int width = std::min(w.col_end, j0 + kTileCols) - j0;
          const BlockVisibility visibility = mask.classify_block(head.index, i0, i0 + count, j0, j0 + width);
          context.advance(static_cast<std::int64_t>(count) * width);
          if (visibility == BlockVisibility::Hidden) continue;
          const int q_row = i0 - head.row_begin;
          Tile tile = score_tile(head, scale, slope, q_row, count, j0 - head.key_begin, width, scratch);
          if (weights) {
            for (int r = 0; r < count; ++r) tile.row(r).array() -= offsets[static_cast<std::size_t>(q_row + r)];
          }
          if (visibility == BlockVisibility::Partial) mask_tile(tile, mask, head.index, i0, j0, hidden);
          if (weights && !max) tile = tile.array().exp().matrix();
          macs += static_cast<std::int64_t>(count) * width * d_k;
          for (int p = grid.pixel_row(i0); p <= grid.pixel_row(i0 + count - 1); ++p) {
            const int r0 = std::max(i0, grid.row_begin(p)) - i0;
            const int r1 = std::min(i0 + count, grid.row_end(p)) - i0;
            reduce_rows(tile, r0, r1, max, j0, grid, acc,
                        reduced.data() + static_cast<std::size_t>(p) * static_cast<std::size_t>(grid.cols));
          }
        }
      }
      context.macs.fetch_add(macs);
    }
  }
}

}  // namespace attnviz::overview::cpu
