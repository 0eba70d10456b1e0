#include "core/attention/mask.h"

#include <algorithm>
#include <cstring>

namespace attnviz {

MaskPredicate::MaskPredicate(const MaskSetting& setting, int rows, int cols)
    : rows_(rows), cols_(cols), causal_(setting.causal), window_(setting.window ? *setting.window : -1) {
  if (window_ < 0 || setting.global.empty()) return;
  global_rows_.assign(static_cast<std::size_t>(rows), 0);
  global_cols_.assign(static_cast<std::size_t>(cols), 0);
  for (int g : setting.global) {
    if (g >= 0 && g < rows) global_rows_[static_cast<std::size_t>(g)] = 1;
    if (g >= 0 && g < cols) global_cols_[static_cast<std::size_t>(g)] = 1;
  }
  for (int j = 0; j < cols; ++j) {
    if (global_cols_[static_cast<std::size_t>(j)] != 0) global_col_list_.push_back(j);
  }
}

KeySpan MaskPredicate::span(int i) const {
  const int causal_end = causal_ ? std::min(i + 1, cols_) : cols_;
  if (window_ < 0 || is_global_row(i)) return {0, causal_end};
  // 64-bit: a window as large as INT_MAX must not overflow i + r + 1.
  const long long begin = std::max(0LL, static_cast<long long>(i) - window_);
  const long long end = std::min(static_cast<long long>(i) + window_ + 1, static_cast<long long>(causal_end));
  if (end <= begin) return {0, 0};
  return {static_cast<int>(begin), static_cast<int>(end)};
}

MaskMatrix build_mask(const MaskSetting& setting, int rows, int cols) {
  MaskMatrix mask;
  build_mask_into(MaskPredicate(setting, rows, cols), mask);
  return mask;
}

void build_mask_into(const MaskPredicate& predicate, MaskMatrix& mask) {
  mask.reshape(predicate.rows(), predicate.cols());
  for (int i = 0; i < mask.rows; ++i) {
    std::uint8_t* row = mask.visible.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(mask.cols);
    std::memset(row, 0, static_cast<std::size_t>(mask.cols));
    const KeySpan span = predicate.span(i);
    if (!span.empty()) std::memset(row + span.begin, 1, static_cast<std::size_t>(span.width()));
    predicate.for_each_extra_key(i, span, [&](int j) { row[j] = 1; });
  }
}

std::vector<int> fully_masked_rows(const MaskMatrix& mask) {
  std::vector<int> rows;
  for (int i = 0; i < mask.rows; ++i) {
    bool any = false;
    for (int j = 0; j < mask.cols && !any; ++j) any = mask.at(i, j);
    if (!any) rows.push_back(i);
  }
  return rows;
}

}  // namespace attnviz
