#include "core/attention/mask.h"

namespace attnviz {

MaskPredicate::MaskPredicate(const MaskSetting& setting, int rows, int cols)
    : causal_(setting.causal), window_(setting.window ? *setting.window : -1) {
  if (window_ < 0 || setting.global.empty()) return;
  global_rows_.assign(static_cast<std::size_t>(rows), 0);
  global_cols_.assign(static_cast<std::size_t>(cols), 0);
  for (int g : setting.global) {
    if (g >= 0 && g < rows) global_rows_[static_cast<std::size_t>(g)] = 1;
    if (g >= 0 && g < cols) global_cols_[static_cast<std::size_t>(g)] = 1;
  }
}

MaskMatrix build_mask(const MaskSetting& setting, int rows, int cols) {
  const MaskPredicate predicate(setting, rows, cols);
  MaskMatrix mask{rows, cols, std::vector<std::uint8_t>(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))};
  std::size_t k = 0;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) mask.visible[k++] = predicate.visible(i, j) ? 1 : 0;
  }
  return mask;
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
