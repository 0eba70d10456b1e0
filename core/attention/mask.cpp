#include "core/attention/mask.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/scenario/mask_expression_check.h"

namespace attnviz {

Mask::Mask(const MaskSetting& setting, int rows, int cols, int heads)
    : rows_(rows),
      cols_(cols),
      heads_(std::max(heads, 1)),
      causal_(setting.causal),
      window_(setting.window ? *setting.window : -1) {
  if (window_ >= 0 && !setting.global.empty()) {
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
  if (has_expression(setting)) build_runs(setting);
}

KeySpan Mask::span(int i) const {
  if (runs_ != nullptr) throw std::logic_error("Mask::span: a mask with an expression has runs, not spans");
  return span_of_fields(i);
}

KeySpan Mask::span_of_fields(int i) const {
  const int causal_end = causal_ ? std::min(i + 1, cols_) : cols_;
  if (window_ < 0 || is_global_row(i)) return {0, causal_end};
  // 64-bit: a window as large as INT_MAX must not overflow i + r + 1.
  const long long begin = std::max(0LL, static_cast<long long>(i) - window_);
  const long long end = std::min(static_cast<long long>(i) + window_ + 1, static_cast<long long>(causal_end));
  if (end <= begin) return {0, 0};
  return {static_cast<int>(begin), static_cast<int>(end)};
}

bool Mask::block_visible(int h, int i0, int i1, int j0, int j1) const {
  i1 = std::min(i1, rows_);
  j1 = std::min(j1, cols_);
  if (i1 <= i0 || j1 <= j0) return false;
  if (runs_ != nullptr) {
    for (int i = std::max(i0, 0); i < i1; ++i) {
      const std::span<const KeySpan> row = stored_runs(h, i);
      const auto after =
          std::upper_bound(row.begin(), row.end(), j0, [](int j, const KeySpan& run) { return j < run.end; });
      if (after != row.end() && after->begin < j1) return true;
    }
    return false;
  }
  if (causal_ && j0 > i1 - 1) return false;
  // The rows' spans grow with the row and overlap from one row to the next, so their union is
  // one span: from the first row's start to the last row's end (everything, cut at the
  // diagonal, when a global row is among them). Every column inside it is seen by some row.
  long long begin = 0;
  long long end = cols_;
  if (window_ >= 0 && !global_row_in(i0, i1)) {
    begin = std::max(0LL, static_cast<long long>(i0) - window_);
    end = std::min(static_cast<long long>(cols_), static_cast<long long>(i1) + window_);
  }
  if (causal_) end = std::min(end, static_cast<long long>(i1));
  if (j0 < end && j1 > begin) return true;
  // A global column is seen by every row, except rows above it when causal.
  return global_col_in(j0, causal_ ? std::min(j1, i1) : j1);
}

BlockVisibility Mask::classify_block(int h, int i0, int i1, int j0, int j1) const {
  if (!block_visible(h, i0, i1, j0, j1)) return BlockVisibility::Hidden;
  i1 = std::min(i1, rows_);
  j1 = std::min(j1, cols_);
  if (runs_ != nullptr) {
    // Runs are maximal: the block is whole in a row only when one run covers it.
    for (int i = std::max(i0, 0); i < i1; ++i) {
      const std::span<const KeySpan> row = stored_runs(h, i);
      const auto after =
          std::upper_bound(row.begin(), row.end(), j0, [](int j, const KeySpan& run) { return j < run.end; });
      if (after == row.end() || after->begin > j0 || after->end < j1) return BlockVisibility::Partial;
    }
    return BlockVisibility::Full;
  }
  for (int i = i0; i < i1; ++i) {
    // Row i sees the block whole when its span covers it, apart from global columns it sees.
    const KeySpan row = span(i);
    const int covered_begin = row.empty() ? j1 : std::clamp(row.begin, j0, j1);
    const int covered_end = row.empty() ? j1 : std::clamp(row.end, covered_begin, j1);
    auto seen_outside = [&](int from, int to) {
      for (int j = from; j < to; ++j) {
        if (!visible(i, j)) return false;
      }
      return true;
    };
    if (!seen_outside(j0, covered_begin) || !seen_outside(covered_end, j1)) {
      return BlockVisibility::Partial;
    }
  }
  return BlockVisibility::Full;
}

bool Mask::global_row_in(int i0, int i1) const {
  if (global_rows_.empty()) return false;
  for (int i = std::max(i0, 0); i < std::min(i1, rows_); ++i) {
    if (global_rows_[static_cast<std::size_t>(i)] != 0) return true;
  }
  return false;
}

bool Mask::global_col_in(int j0, int j1) const {
  const auto first = std::lower_bound(global_col_list_.begin(), global_col_list_.end(), j0);
  return first != global_col_list_.end() && *first < j1;
}

void Mask::matrix_into(MaskMatrix& mask, int h) const {
  mask.reshape(rows_, cols_);
  std::vector<KeySpan> scratch;
  for (int i = 0; i < mask.rows; ++i) {
    std::uint8_t* row = mask.visible.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(mask.cols);
    std::memset(row, 0, static_cast<std::size_t>(mask.cols));
    for (const KeySpan& run : runs(h, i, scratch))
      std::memset(row + run.begin, 1, static_cast<std::size_t>(run.width()));
  }
}

MaskMatrix Mask::matrix(int h) const {
  MaskMatrix mask;
  matrix_into(mask, h);
  return mask;
}

int Mask::globals_texel_count(int rows, int cols) { return std::max(rows, cols) + 1 + (cols + 3) / 4; }

void Mask::write_table(std::span<std::uint32_t> texels) const {
  std::fill(texels.begin(), texels.end(), 0u);
  if (runs_ != nullptr) return write_runs_table(texels);
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

std::vector<std::uint32_t> Mask::table() const {
  std::vector<std::uint32_t> texels(static_cast<std::size_t>(table_texel_count()) * 4);
  write_table(texels);
  return texels;
}

MaskParams Mask::params(int head) const {
  if (runs_ != nullptr) {
    return {rows_, cols_, causal_ ? 1 : 0, window_, 0, 0, 0, runs_offset(), runs_->sets > 1 ? rows_ : 0, head};
  }
  int chunks = 0;
  int last_chunk = -1;
  for (const int j : global_col_list_) {
    if (j / 4 != last_chunk) ++chunks;
    last_chunk = j / 4;
  }
  return {rows_, cols_, causal_ ? 1 : 0, window_, has_globals_ ? 1 : 0, std::max(rows_, cols_) + 1, chunks, 0, 0, head};
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
