#pragma once
// The mask of a problem: which key j (column) query i (row) may see. Built once from the
// Scenario's MaskSetting and the problem's size, and handed as it is to every consumer: the
// Eigen path (spans and extra global keys), the Result's N × M bitmap, the Vulkan kernels
// (params() in their push constants, the global-token table in a texel buffer) and the
// heatmaps' hatching (the same two, in a fragment shader). A new kind of mask changes this
// class and shaders/common/mask.glsl, nothing else.
//
// visible(i, j) = (no window, or |i−j| ≤ r, or i is global, or j is global)
//                 and (not causal, or j ≤ i)
// For cross-attention a global index g marks query row g (when g < N) and key column g
// (when g < M). Global indices without a window change nothing (docs/design.md: they need one).

#include <cstddef>
#include <cstdint>
#include <span>
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

// The mask as a shader receives it: the member `MaskParams mask` of every masked kernel's
// push-constant block and of the heatmap's. Mirrors struct MaskParams in
// shaders/common/mask.glsl member for member (seven 32-bit ints, no padding, in std430).
struct MaskParams {
  std::int32_t rows;         // N
  std::int32_t cols;         // M
  std::int32_t causal;       // 0 or 1
  std::int32_t window;       // radius r, or -1 without a window
  std::int32_t has_globals;  // 0 or 1: some global row or column inside the problem
  std::int32_t list_offset;  // first texel of the global column chunk list
  std::int32_t list_count;   // number of column chunks (4 columns each) holding a global column
};
static_assert(sizeof(MaskParams) == 7 * 4);

// What the mask leaves of a block of cells (a tile of the tiled algorithm, of the kernels'
// skipping): nothing, some of it, or all of it.
enum class BlockVisibility { Hidden, Partial, Full };
static_assert(offsetof(MaskParams, causal) == 8 && offsetof(MaskParams, window) == 12 &&
              offsetof(MaskParams, has_globals) == 16 && offsetof(MaskParams, list_count) == 24);

class Mask {
 public:
  Mask() = default;  // 0 × 0
  Mask(const MaskSetting& setting, int rows, int cols);

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
  // for_each_extra_key() visits. Both backends read only these keys.
  [[nodiscard]] KeySpan span(int i) const;
  // The global key columns, ascending; row i sees those outside span(i) that are ≤ i when
  // causal (none for a global row: its span holds every key it sees).
  [[nodiscard]] const std::vector<int>& global_columns() const { return global_col_list_; }

  // Blocks of rows [i0, i1) × columns [j0, j1), cut at the mask's edges. block_visible() is
  // the test every kernel skips hidden blocks by: shaders/common/mask.glsl's
  // mask_block_visible() computes the same, from the same spans and global tables, so the
  // CPU and the GPU skip the same tiles. It is exact: false only when every cell is hidden.
  [[nodiscard]] bool block_visible(int i0, int i1, int j0, int j1) const;
  // Hidden (block_visible() is false), Full (every cell visible) or Partial.
  [[nodiscard]] BlockVisibility classify_block(int i0, int i1, int j0, int j1) const;
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
  [[nodiscard]] bool causal() const { return causal_; }
  [[nodiscard]] int window() const { return window_; }  // -1: no window
  [[nodiscard]] bool has_globals() const { return has_globals_; }

  // The rows × cols bitmap (1 = visible), into `out` reusing its storage.
  void matrix_into(MaskMatrix& out) const;
  [[nodiscard]] MaskMatrix matrix() const;

  // The global-token table the shaders read (shaders/common/mask.glsl), as RGBA32UI texels of
  // four uint32 each:
  //   texel t (0 ≤ t ≤ max(rows, cols)) = (t is a global row, t is a global column,
  //                                         global rows before t, global columns before t)
  //   texel params().list_offset + k      = (k-th column chunk holding a global column, 0, 0, 0)
  // Zero apart from the list offset when there are no global tokens.
  [[nodiscard]] static int globals_texel_count(int rows, int cols);
  [[nodiscard]] int globals_texel_count() const { return globals_texel_count(rows_, cols_); }
  // Writes the table into `texels` (4 · globals_texel_count() values).
  void write_globals_table(std::span<std::uint32_t> texels) const;
  [[nodiscard]] std::vector<std::uint32_t> globals_table() const;

  [[nodiscard]] MaskParams params() const;

 private:
  [[nodiscard]] bool global_row_in(int i0, int i1) const;  // any global row in [i0, i1)?
  [[nodiscard]] bool global_col_in(int j0, int j1) const;  // any global column in [j0, j1)?

  int rows_ = 0;
  int cols_ = 0;
  bool causal_ = false;
  int window_ = -1;
  bool has_globals_ = false;
  std::vector<unsigned char> global_rows_;  // rows flags, empty without global tokens
  std::vector<unsigned char> global_cols_;  // cols flags, empty without global tokens
  std::vector<int> global_col_list_;
};

// Mask(setting, rows, cols).matrix().
MaskMatrix build_mask(const MaskSetting& setting, int rows, int cols);
std::vector<int> fully_masked_rows(const MaskMatrix& mask);

}  // namespace attnviz
