#include "core/attention/mask.h"

#include <algorithm>
#include <cstring>

namespace attnviz {

Mask::Mask(const MaskSetting& setting, int rows, int cols)
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
  has_globals_ = !global_col_list_.empty() ||
                 std::any_of(global_rows_.begin(), global_rows_.end(), [](unsigned char flag) { return flag != 0; });
}

KeySpan Mask::span(int i) const {
  const int causal_end = causal_ ? std::min(i + 1, cols_) : cols_;
  if (window_ < 0 || is_global_row(i)) return {0, causal_end};
  // 64-bit: a window as large as INT_MAX must not overflow i + r + 1.
  const long long begin = std::max(0LL, static_cast<long long>(i) - window_);
  const long long end = std::min(static_cast<long long>(i) + window_ + 1, static_cast<long long>(causal_end));
  if (end <= begin) return {0, 0};
  return {static_cast<int>(begin), static_cast<int>(end)};
}

void Mask::matrix_into(MaskMatrix& mask) const {
  mask.reshape(rows_, cols_);
  for (int i = 0; i < mask.rows; ++i) {
    std::uint8_t* row = mask.visible.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(mask.cols);
    std::memset(row, 0, static_cast<std::size_t>(mask.cols));
    const KeySpan row_span = span(i);
    if (!row_span.empty()) std::memset(row + row_span.begin, 1, static_cast<std::size_t>(row_span.width()));
    for_each_extra_key(i, row_span, [&](int j) { row[j] = 1; });
  }
}

MaskMatrix Mask::matrix() const {
  MaskMatrix mask;
  matrix_into(mask);
  return mask;
}

int Mask::globals_texel_count(int rows, int cols) { return std::max(rows, cols) + 1 + (cols + 3) / 4; }

void Mask::write_globals_table(std::span<std::uint32_t> texels) const {
  std::fill(texels.begin(), texels.end(), 0u);
  if (!has_globals_) return;
  const int tokens = std::max(rows_, cols_);
  std::uint32_t rows_before = 0;
  std::uint32_t cols_before = 0;
  std::size_t list_end = static_cast<std::size_t>(tokens + 1) * 4;
  int last_chunk = -1;
  for (int t = 0; t <= tokens; ++t) {
    const std::uint32_t row_flag = t < rows_ && is_global_row(t) ? 1u : 0u;
    const std::uint32_t col_flag = t < cols_ && is_global_col(t) ? 1u : 0u;
    std::uint32_t* texel = &texels[static_cast<std::size_t>(t) * 4];
    texel[0] = row_flag;
    texel[1] = col_flag;
    texel[2] = rows_before;
    texel[3] = cols_before;
    rows_before += row_flag;
    cols_before += col_flag;
    if (col_flag != 0 && t / 4 != last_chunk) {
      last_chunk = t / 4;
      texels[list_end] = static_cast<std::uint32_t>(last_chunk);
      list_end += 4;
    }
  }
}

std::vector<std::uint32_t> Mask::globals_table() const {
  std::vector<std::uint32_t> texels(static_cast<std::size_t>(globals_texel_count()) * 4);
  write_globals_table(texels);
  return texels;
}

MaskParams Mask::params() const {
  int chunks = 0;
  int last_chunk = -1;
  for (const int j : global_col_list_) {
    if (j / 4 != last_chunk) ++chunks;
    last_chunk = j / 4;
  }
  return {rows_, cols_, causal_ ? 1 : 0, window_, has_globals_ ? 1 : 0, std::max(rows_, cols_) + 1, chunks};
}

MaskMatrix build_mask(const MaskSetting& setting, int rows, int cols) { return Mask(setting, rows, cols).matrix(); }

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
