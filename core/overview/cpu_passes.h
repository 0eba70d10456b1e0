#pragma once
// Internal to core/overview: the two passes of the CPU overview over one head's Q and K, on
// the OpenMP team (tasks of query rows; Eigen's products inside run on the calling thread).

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/attention/mask.h"
#include "core/overview/overview.h"
#include "core/overview/pixel_grid.h"

namespace attnviz::overview::cpu {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// What the passes share with the runner: the stop flag, the progress (in cells of score tiles
// visited) and the multiply-adds done.
struct PassContext {
  Progress* progress = nullptr;
  std::atomic<bool> stopped{false};
  std::atomic<std::int64_t> macs{0};

  [[nodiscard]] bool stop() {
    if (progress != nullptr && progress->stop_requested()) stopped.store(true);
    return stopped.load();
  }
  void advance(std::int64_t cells) {
    if (progress != nullptr) progress->add(cells);
  }
};

// One head's operands: Q of rows [row_begin, row_begin + q.rows()) and K of keys
// [key_begin, key_begin + k.rows()); `index` is the query head (a mask whose expression reads
// h has rows of its own for each).
struct HeadOperands {
  const RowMajor& q;
  int row_begin;
  const RowMajor& k;
  int key_begin;
  float scale;
  int index;
  float slope = 0.0f;  // ALiBi's: the scaled scores get −slope·|i − j| (0: no bias)
};

// Pass 1 (k holds every key, key_begin = 0): m and l of every row of q over all keys (m: −∞ and l: 0 for a row that sees none).
void row_stats(const HeadOperands& head, const Mask& mask, float* m, float* l, PassContext& context);

// Pass 2: the window's cells reduced per pixel block (pooling.h): `offsets` per row of q are
// the weights' m + ln l (weights only; ignored for scores). `reduced` gets grid.pixels() values.
void pool(const HeadOperands& head, const Mask& mask, const PixelGrid& grid, Quantity quantity, Pooling pooling,
          const std::vector<float>& offsets, std::vector<double>& reduced, PassContext& context);

}  // namespace attnviz::overview::cpu
