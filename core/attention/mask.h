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
#include "core/scenario/scenario.h"

namespace attnviz {

// Keys [begin, end) of one row; empty when end <= begin.
struct KeySpan {
  int begin = 0;
  int end = 0;
  [[nodiscard]] bool empty() const { return end <= begin; }
  [[nodiscard]] bool contains(int j) const { return j >= begin && j < end; }
  [[nodiscard]] int width() const { return empty() ? 0 : end - begin; }
};

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

  // What row i sees is one span of keys (the band, cut at the diagonal when causal; every key
  // for a global row or without a window) plus, outside it, the global columns that
  // extra_keys() lists. Both backends read only these keys.
  [[nodiscard]] KeySpan span(int i) const;
  // The global key columns, ascending; row i sees those outside span(i) that are ≤ i when
  // causal (none for a global row: its span holds every key it sees).
  [[nodiscard]] const std::vector<int>& global_columns() const { return global_col_list_; }
  template <class Visit>
  void for_each_extra_key(int i, KeySpan row_span, Visit visit) const {
    if (is_global_row(i)) return;
    for (const int j : global_col_list_) {
      if (causal_ && j > i) break;
      if (!row_span.contains(j)) visit(j);
    }
  }

  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] int cols() const { return cols_; }

 private:
  int rows_ = 0;
  int cols_ = 0;
  bool causal_ = false;
  int window_ = -1;  // -1: no window
  std::vector<unsigned char> global_rows_;
  std::vector<unsigned char> global_cols_;
  std::vector<int> global_col_list_;
};

MaskMatrix build_mask(const MaskSetting& setting, int rows, int cols);
// The same into `mask`, reusing its storage.
void build_mask_into(const MaskPredicate& predicate, MaskMatrix& mask);
std::vector<int> fully_masked_rows(const MaskMatrix& mask);

}  // namespace attnviz
