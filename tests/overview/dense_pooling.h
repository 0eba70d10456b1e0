#pragma once
// The overview's definition (docs/design.md "Overview") applied to a dense Result, in double:
// the reference both overview runners are held to at sizes where the dense path fits. Written
// from the definition, cell by cell, with none of core/overview's code.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/attention/result.h"
#include "core/overview/overview.h"
#include "core/scenario/positions.h"
#include "core/scenario/problem.h"

namespace attnviz::testing {

struct DensePooled {
  int rows = 0, cols = 0;
  std::vector<double> values;
  std::vector<bool> hidden;
};

// Pools head h of `dense` over the window into blocks of block_rows × block_cols cells.
inline DensePooled pool_dense(const Result& dense, const Problem& problem, int h, const overview::PixelGrid& grid,
                              overview::Quantity quantity, overview::Pooling pooling) {
  const HeadResult& head = dense.heads[static_cast<std::size_t>(h)];
  const double slope = problem.positional == PositionalKind::Alibi ? alibi_slope(h, problem.num_heads) : 0.0;
  const overview::CellWindow& w = grid.window;
  DensePooled out;
  out.rows = (w.rows() + grid.block_rows - 1) / grid.block_rows;
  out.cols = (w.cols() + grid.block_cols - 1) / grid.block_cols;
  for (int pr = 0; pr < out.rows; ++pr) {
    for (int pc = 0; pc < out.cols; ++pc) {
      double best = -std::numeric_limits<double>::infinity();
      double sum = 0.0;
      int cells = 0;
      int visible = 0;
      for (int i = w.row_begin + pr * grid.block_rows;
           i < std::min(w.row_end, w.row_begin + (pr + 1) * grid.block_rows); ++i) {
        for (int j = w.col_begin + pc * grid.block_cols;
             j < std::min(w.col_end, w.col_begin + (pc + 1) * grid.block_cols); ++j) {
          ++cells;
          const bool seen = dense.mask_of(static_cast<std::size_t>(h)).at(i, j);
          double v = 0.0;
          if (quantity == overview::Quantity::Weights) {
            v = head.weights.at(i, j);  // 0 where hidden: every cell counts
          } else {
            if (!seen) continue;
            v = head.scores.at(i, j);  // raw: Q·Kᵀ alone
            // Scaled: what the softmax sees, ALiBi's bias −slope·|i − j| included.
            if (quantity == overview::Quantity::ScaledScores) v = v * problem.scale - slope * std::abs(i - j);
          }
          visible += seen ? 1 : 0;
          if (quantity != overview::Quantity::Weights || seen) best = std::max(best, v);
          sum += v;
        }
      }
      const bool hidden = visible == 0;
      double value = 0.0;
      if (!hidden) {
        if (pooling == overview::Pooling::Max)
          value = best;
        else
          value = sum / (quantity == overview::Quantity::Weights ? cells : visible);
      }
      out.values.push_back(value);
      out.hidden.push_back(hidden);
    }
  }
  return out;
}

// Every pixel within tolerance: `relative` of the larger magnitude, at least `absolute`.
inline void expect_image_near(const DensePooled& want, const overview::PooledImage& got,
                              const overview::PixelGrid& grid, double absolute, double relative,
                              const std::string& what) {
  ASSERT_EQ(grid.rows, want.rows) << what;
  ASSERT_EQ(grid.cols, want.cols) << what;
  ASSERT_EQ(got.values.size(), want.values.size()) << what;
  int reported = 0;
  for (std::size_t p = 0; p < want.values.size() && reported < 5; ++p) {
    const bool hidden = got.hidden[p] != 0;
    const double diff = std::fabs(want.values[p] - static_cast<double>(got.values[p]));
    const double allowed = std::max(absolute, relative * std::fabs(want.values[p]));
    if (hidden != want.hidden[p] || !(diff <= allowed)) {
      ++reported;
      ADD_FAILURE() << what << ": pixel (" << p / static_cast<std::size_t>(want.cols) << ", "
                    << p % static_cast<std::size_t>(want.cols) << ") is " << got.values[p] << (hidden ? " hidden" : "")
                    << ", expected " << want.values[p] << (want.hidden[p] ? " hidden" : "");
    }
  }
}

}  // namespace attnviz::testing
