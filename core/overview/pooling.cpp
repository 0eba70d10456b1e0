#include "core/overview/pooling.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace attnviz::overview {

float weight_offset(float m, float l) {
  if (!(l > 0.0f)) return std::numeric_limits<float>::infinity();
  return static_cast<float>(static_cast<double>(m) + std::log(static_cast<double>(l)));
}

namespace {

std::size_t pixel_index(const PixelGrid& grid, int r, int c) {
  return static_cast<std::size_t>(r) * static_cast<std::size_t>(grid.cols) + static_cast<std::size_t>(c);
}

// A mask with an expression: the visible cells of every block counted from each row's runs, at
// a cost that follows the rows times (runs per row + pixel columns crossed), never the cells
// (a strided mask leaves every block partly visible).
std::vector<std::int64_t> counted_from_runs(const PixelGrid& grid, const Mask& mask, int head) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(grid.pixels()), 0);
  const CellWindow& w = grid.window;
#pragma omp parallel for schedule(dynamic, 4) if (static_cast <std::int64_t>(w.rows()) >= 2048)
  for (int r = 0; r < grid.rows; ++r) {
    std::vector<KeySpan> scratch;
    std::int64_t* row_counts = counts.data() + pixel_index(grid, r, 0);
    for (int i = grid.row_begin(r); i < grid.row_end(r); ++i) {
      const std::span<const KeySpan> runs = mask.runs(head, i, scratch);
      auto run = std::partition_point(runs.begin(), runs.end(), [&](const KeySpan& s) { return s.end <= w.col_begin; });
      for (; run != runs.end() && run->begin < w.col_end; ++run) {
        const int end = std::min(run->end, w.col_end);
        for (int j = std::max(run->begin, w.col_begin); j < end;) {
          const int c = grid.pixel_col(j);
          const int block_end = std::min(end, grid.col_end(c));
          row_counts[c] += block_end - j;
          j = block_end;
        }
      }
    }
  }
  return counts;
}

}  // namespace

std::vector<std::uint8_t> hidden_blocks(const PixelGrid& grid, const Mask& mask, int head) {
  std::vector<std::uint8_t> hidden(static_cast<std::size_t>(grid.pixels()));
  if (mask.general()) {
    const std::vector<std::int64_t> counts = counted_from_runs(grid, mask, head);
    for (std::size_t p = 0; p < counts.size(); ++p) hidden[p] = counts[p] == 0 ? 1 : 0;
    return hidden;
  }
  for (int r = 0; r < grid.rows; ++r) {
    for (int c = 0; c < grid.cols; ++c) {
      const bool visible =
          mask.block_visible(head, grid.row_begin(r), grid.row_end(r), grid.col_begin(c), grid.col_end(c));
      hidden[pixel_index(grid, r, c)] = visible ? 0 : 1;
    }
  }
  return hidden;
}

std::vector<std::int64_t> visible_cells(const PixelGrid& grid, const Mask& mask, int head) {
  if (mask.general()) return counted_from_runs(grid, mask, head);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(grid.pixels()));
#pragma omp parallel for schedule(dynamic, 4) if (grid.pixels() > 4096)
  for (int r = 0; r < grid.rows; ++r) {
    const int i0 = grid.row_begin(r);
    const int i1 = grid.row_end(r);
    for (int c = 0; c < grid.cols; ++c) {
      const int j0 = grid.col_begin(c);
      const int j1 = grid.col_end(c);
      std::int64_t count = 0;
      switch (mask.classify_block(head, i0, i1, j0, j1)) {
        case BlockVisibility::Hidden: break;
        case BlockVisibility::Full: count = static_cast<std::int64_t>(i1 - i0) * (j1 - j0); break;
        case BlockVisibility::Partial:
          for (int i = i0; i < i1; ++i) {
            for (int j = j0; j < j1; ++j) count += mask.visible(head, i, j) ? 1 : 0;
          }
          break;
      }
      counts[pixel_index(grid, r, c)] = count;
    }
  }
  return counts;
}

ImageFinisher::ImageFinisher(const PixelGrid& grid, const Mask& mask, Quantity quantity, Pooling pooling)
    : grid_(grid), mask_(&mask), quantity_(quantity), pooling_(pooling) {}

void ImageFinisher::prepare(int head) {
  const int set = mask_->depends_on_head() ? head : 0;
  if (set == prepared_set_) return;
  prepared_set_ = set;
  hidden_ = hidden_blocks(grid_, *mask_, set);
  if (quantity_ != Quantity::Weights && pooling_ == Pooling::Mean) visible_ = visible_cells(grid_, *mask_, set);
}

PooledImage ImageFinisher::finish(int head, std::span<const double> reduced) {
  prepare(head);
  PooledImage image;
  image.head = head;
  image.hidden = hidden_;
  image.values.assign(static_cast<std::size_t>(grid_.pixels()), 0.0f);
  for (int r = 0; r < grid_.rows; ++r) {
    const double area_rows = grid_.row_end(r) - grid_.row_begin(r);
    for (int c = 0; c < grid_.cols; ++c) {
      const std::size_t p =
          static_cast<std::size_t>(r) * static_cast<std::size_t>(grid_.cols) + static_cast<std::size_t>(c);
      if (hidden_[p] != 0) continue;
      const double v = reduced[p];
      double value = 0.0;
      if (quantity_ == Quantity::Weights) {
        value = pooling_ == Pooling::Max ? std::exp(v) : v / (area_rows * (grid_.col_end(c) - grid_.col_begin(c)));
      } else {
        value = pooling_ == Pooling::Max ? v : v / static_cast<double>(visible_[p]);
      }
      image.values[p] = static_cast<float>(value);
    }
  }
  return image;
}

namespace {

// A mask with an expression: each band of row_step rows marks the key tiles its rows' runs
// reach (rows times runs, where asking each tile would search every row's runs).
std::int64_t visible_tile_macs_from_runs(const Mask& mask, int head, int i0, int i1, int j0, int j1, int row_step,
                                         int key_step, int d_k) {
  const int tiles = (j1 - j0 + key_step - 1) / key_step;
  std::vector<std::uint8_t> reached(static_cast<std::size_t>(std::max(tiles, 0)));
  std::vector<KeySpan> scratch;
  std::int64_t macs = 0;
  for (int a = i0; a < i1; a += row_step) {
    const int b = std::min(i1, a + row_step);
    std::fill(reached.begin(), reached.end(), std::uint8_t{0});
    for (int i = a; i < b; ++i) {
      for (const KeySpan& run : mask.runs(head, i, scratch)) {
        const int from = std::max(run.begin, j0);
        const int to = std::min(run.end, j1);
        for (int t = (from - j0) / key_step; from < to && t <= (to - 1 - j0) / key_step; ++t)
          reached[static_cast<std::size_t>(t)] = 1;
      }
    }
    for (int t = 0; t < tiles; ++t) {
      const int keys = std::min(j1, j0 + (t + 1) * key_step) - (j0 + t * key_step);
      if (reached[static_cast<std::size_t>(t)] != 0) macs += static_cast<std::int64_t>(b - a) * keys * d_k;
    }
  }
  return macs;
}

}  // namespace

std::int64_t visible_tile_macs(const Mask& mask, int head, int i0, int i1, int j0, int j1, int row_step, int key_step,
                               int d_k) {
  if (mask.general()) return visible_tile_macs_from_runs(mask, head, i0, i1, j0, j1, row_step, key_step, d_k);
  const bool unmasked = !mask.causal() && mask.window() < 0;
  if (unmasked) return static_cast<std::int64_t>(i1 - i0) * (j1 - j0) * d_k;
  std::int64_t macs = 0;
  for (int a = i0; a < i1; a += row_step) {
    const int b = std::min(i1, a + row_step);
    for (int c = j0; c < j1; c += key_step) {
      const int d = std::min(j1, c + key_step);
      if (mask.block_visible(head, a, b, c, d)) macs += static_cast<std::int64_t>(b - a) * (d - c) * d_k;
    }
  }
  return macs;
}

}  // namespace attnviz::overview
