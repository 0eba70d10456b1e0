#pragma once
// The visibility predicate of DESIGN.md on the CPU. The Vulkan shaders evaluate the same
// predicate (shaders/common/mask.glsl); tests compare both against hand-written bitmaps.
//
// visible(i, j) = (no window, or |i−j| ≤ r, or i is global, or j is global)
//                 and (not causal, or j ≤ i)
// For cross-attention a global index g marks query row g (when g < N) and key column g
// (when g < M).

#include <vector>

#include "core/common/matrix.h"
#include "core/model/scenario.h"

namespace attnviz {

class MaskPredicate {
 public:
  MaskPredicate(const MaskSetting& setting, int rows, int cols);

  [[nodiscard]] bool visible(int i, int j) const {
    if (causal_ && j > i) return false;
    if (window_ < 0) return true;
    const int distance = i > j ? i - j : j - i;
    return distance <= window_ || is_global_row(i) || is_global_col(j);
  }
  [[nodiscard]] bool is_global_row(int i) const { return !global_rows_.empty() && global_rows_[static_cast<std::size_t>(i)] != 0; }
  [[nodiscard]] bool is_global_col(int j) const { return !global_cols_.empty() && global_cols_[static_cast<std::size_t>(j)] != 0; }

 private:
  bool causal_ = false;
  int window_ = -1;  // -1: no window
  std::vector<unsigned char> global_rows_;
  std::vector<unsigned char> global_cols_;
};

MaskMatrix build_mask(const MaskSetting& setting, int rows, int cols);
std::vector<int> fully_masked_rows(const MaskMatrix& mask);

}  // namespace attnviz
