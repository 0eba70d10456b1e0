#include "core/overview/pooling.h"

#include <cmath>
#include <algorithm>
#include <limits>

namespace attnviz::overview {

float weight_offset(float m, float l) {
  if (!(l > 0.0f)) return std::numeric_limits<float>::infinity();
  return static_cast<float>(static_cast<double>(m) + std::log(static_cast<double>(l)));
}

std::vector<std::uint8_t> hidden_blocks(const PixelGrid& grid, const Mask& mask) {
  std::vector<std::uint8_t> hidden(static_cast<std::size_t>(grid.pixels()));
  for (int r = 0; r < grid.rows; ++r) {
    for (int c = 0; c < grid.cols; ++c) {
      const bool visible = mask.block_visible(grid.row_begin(r), grid.row_end(r), grid.col_begin(c), grid.col_end(c));
      hidden[static_cast<std::size_t>(r) * static_cast<std::size_t>(grid.cols) + static_cast<std::size_t>(c)] = visible ? 0 : 1;
    }
  }
  return hidden;
}

std::vector<std::int64_t> visible_cells(const PixelGrid& grid, const Mask& mask) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(grid.pixels()));
#pragma omp parallel for schedule(dynamic, 4) if (grid.pixels() > 4096)
  for (int r = 0; r < grid.rows; ++r) {
    const int i0 = grid.row_begin(r);
    const int i1 = grid.row_end(r);
    for (int c = 0; c < grid.cols; ++c) {
      const int j0 = grid.col_begin(c);
      const int j1 = grid.col_end(c);
      std::int64_t count = 0;
      switch (mask.classify_block(i0, i1, j0, j1)) {
        case BlockVisibility::Hidden: break;
        case BlockVisibility::Full: count = static_cast<std::int64_t>(i1 - i0) * (j1 - j0); break;
        case BlockVisibility::Partial:
          for (int i = i0; i < i1; ++i) {
            for (int j = j0; j < j1; ++j) count += mask.visible(i, j) ? 1 : 0;
          }
          break;
      }
      counts[static_cast<std::size_t>(r) * static_cast<std::size_t>(grid.cols) + static_cast<std::size_t>(c)] = count;
    }
  }
  return counts;
}

ImageFinisher::ImageFinisher(const PixelGrid& grid, const Mask& mask, Quantity quantity, Pooling pooling)
    : grid_(grid), quantity_(quantity), pooling_(pooling), hidden_(hidden_blocks(grid, mask)) {
  if (quantity != Quantity::Weights && pooling == Pooling::Mean) visible_ = visible_cells(grid, mask);
}

PooledImage ImageFinisher::finish(int head, std::span<const double> reduced) const {
  PooledImage image;
  image.head = head;
  image.hidden = hidden_;
  image.values.assign(static_cast<std::size_t>(grid_.pixels()), 0.0f);
  for (int r = 0; r < grid_.rows; ++r) {
    const double area_rows = grid_.row_end(r) - grid_.row_begin(r);
    for (int c = 0; c < grid_.cols; ++c) {
      const std::size_t p = static_cast<std::size_t>(r) * static_cast<std::size_t>(grid_.cols) + static_cast<std::size_t>(c);
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

std::int64_t visible_tile_macs(const Mask& mask, int i0, int i1, int j0, int j1, int row_step, int key_step, int d_k) {
  const bool unmasked = !mask.causal() && mask.window() < 0;
  if (unmasked) return static_cast<std::int64_t>(i1 - i0) * (j1 - j0) * d_k;
  std::int64_t macs = 0;
  for (int a = i0; a < i1; a += row_step) {
    const int b = std::min(i1, a + row_step);
    for (int c = j0; c < j1; c += key_step) {
      const int d = std::min(j1, c + key_step);
      if (mask.block_visible(a, b, c, d)) macs += static_cast<std::int64_t>(b - a) * (d - c) * d_k;
    }
  }
  return macs;
}

}  // namespace attnviz::overview
