#include "core/overview/vulkan_plan.h"

#include <algorithm>
#include <limits>

namespace attnviz::overview::vulkan {

std::vector<KeyRange> key_ranges(int first, int end, int most, int tile, int block_cols) {
  int step = std::max(tile, most / tile * tile);
  if (block_cols <= step) step = step / block_cols * block_cols;
  std::vector<KeyRange> ranges;
  for (int begin = first; begin < end; begin += step) ranges.push_back({begin, std::min(end, begin + step)});
  return ranges;
}

int cpu_device_keys(int dk4, int tile, int block_rows, int block_cols, int workgroup) {
  constexpr int kIterations = 16384;
  int keys = kIterations / std::max(dk4, 8);
  if (block_rows > 1) {
    const int pixel_rows = (workgroup + block_rows - 1) / block_rows + 1;  // the most one workgroup touches
    const int columns = std::max(1, kIterations / pixel_rows - 1);
    if (static_cast<long long>(columns) * block_cols < keys) keys = columns * block_cols;
  } else {
    keys = std::min(keys, kIterations / 2 * block_cols);
  }
  return std::max(tile, keys / tile * tile);
}

int partial_slots(const PixelGrid& grid, int workgroup) {
  const int rows = grid.window.rows();
  return (rows + workgroup - 1) / workgroup + grid.rows;
}

void fold_partials(const PixelGrid& grid, int workgroup, bool max, std::span<const float> partials,
                   std::vector<double>& reduced) {
  reduced.assign(static_cast<std::size_t>(grid.pixels()), max ? -std::numeric_limits<double>::infinity() : 0.0);
  const int rows = grid.window.rows();
  const auto cols = static_cast<std::size_t>(grid.cols);
  for (int w = 0; w * workgroup < rows; ++w) {
    const int first = w * workgroup / grid.block_rows;
    const int last = (std::min(rows, (w + 1) * workgroup) - 1) / grid.block_rows;
    for (int pixel_row = first; pixel_row <= last; ++pixel_row) {
      const float* partial = partials.data() + static_cast<std::size_t>(w + pixel_row) * cols;
      double* out = reduced.data() + static_cast<std::size_t>(pixel_row) * cols;
      for (std::size_t c = 0; c < cols; ++c)
        out[c] = max ? std::max(out[c], static_cast<double>(partial[c])) : out[c] + partial[c];
    }
  }
}

}  // namespace attnviz::overview::vulkan
