#pragma once
// The mask of a problem: which key j (column) query i (row) of head h may see. Built once from
// the Scenario's MaskSetting and the problem's size, and handed as it is to every consumer:
// the Eigen path (each row's runs of visible keys), the Result's N × M bitmaps, the Vulkan
// kernels (params() in their push constants, table() in a texel buffer) and the heatmaps'
// hatching (the same two, in a fragment shader). A new kind of mask changes this class and
// shaders/common/mask.glsl, nothing else.
//
// Two kinds:
// - the named fields (docs/design.md "Masks"), arithmetic on the shaders' side:
//     visible(i, j) = (no window, or |i−j| ≤ r, or i is global, or j is global)
//                     and (not causal, or j ≤ i)
//   For cross-attention a global index g marks query row g (when g < N) and key column g
//   (when g < M). Global indices without a window change nothing.
// - with an expression (docs/design.md "Mask expressions"): the fields AND the expression,
//   held as each row's sorted runs of visible keys [begin, end), found by interval bisection
//   (core/maskexpr/runs.h) inside the fields' own runs; one set of rows per head when the
//   expression uses h, else one for all heads.

#include <cstddef>
#include <cstdint>
#include <memory>
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
// shaders/common/mask.glsl member for member (ten 32-bit ints, no padding, in std430).
struct MaskParams {
  std::int32_t rows;         // N
  std::int32_t cols;         // M
  std::int32_t causal;       // 0 or 1
  std::int32_t window;       // radius r, or -1 without a window
  std::int32_t has_globals;  // 0 or 1: some global row or column inside the problem
  std::int32_t list_offset;  // first texel of the global column chunk list
  std::int32_t list_count;   // number of column chunks (4 columns each) holding a global column
  std::int32_t runs_offset;  // with an expression: the table's uint index of run 0; 0 without
  std::int32_t head_stride;  // with an expression: rows per head in the run index (N, or 0
                             // when every head has the same rows)
  std::int32_t head;         // the head a heatmap shows (kernels pass their own head)
};
static_assert(sizeof(MaskParams) == 10 * 4);

// What the mask leaves of a block of cells (a tile of the tiled algorithm, of the kernels'
// skipping, of the block-sparsity overlay): nothing, some of it, or all of it. The values
// are the codes of `attnviz compute --blocks` (0 empty, 1 partial, 2 full).
enum class BlockVisibility : std::uint8_t { Hidden = 0, Partial = 1, Full = 2 };
static_assert(offsetof(MaskParams, causal) == 8 && offsetof(MaskParams, window) == 12 &&
              offsetof(MaskParams, has_globals) == 16 && offsetof(MaskParams, list_count) == 24 &&
              offsetof(MaskParams, runs_offset) == 28 && offsetof(MaskParams, head) == 36);

// Every size × size tile of one head's mask, row-major (tiles at the right and bottom edges
// hold the cells that exist), and how many there are of each kind.
struct BlockGrid {
  int size = 0;
  int tile_rows = 0;  // ceil(N / size)
  int tile_cols = 0;  // ceil(M / size)
  std::vector<BlockVisibility> tiles;
  long long empty = 0, partial = 0, full = 0;
  [[nodiscard]] BlockVisibility at(int tr, int tc) const {
    return tiles[static_cast<std::size_t>(tr) * static_cast<std::size_t>(tile_cols) + static_cast<std::size_t>(tc)];
  }
  [[nodiscard]] long long total() const { return empty + partial + full; }
};

class Mask {
 public:
  Mask() = default;  // 0 × 0
  // `heads`: the query heads H (an expression using h gives each its own rows). Throws
  // InputError (origin "<mask>") for an expression that does not parse, or whose rows hold more
  // runs than a mask can: callers check the scenario first (build_problem) and name their own
  // origin for what only this size reveals (the scenario file, "<gui>").
  Mask(const MaskSetting& setting, int rows, int cols, int heads = 1);

  // With an expression: rows are held as runs (general()), possibly per head.
  [[nodiscard]] bool general() const { return runs_ != nullptr; }
  [[nodiscard]] bool depends_on_head() const { return runs_ != nullptr && runs_->sets > 1; }
  [[nodiscard]] int heads() const { return heads_; }

  [[nodiscard]] bool visible(int i, int j) const { return visible(0, i, j); }  // head 0
  [[nodiscard]] bool visible(int h, int i, int j) const {
    if (runs_ != nullptr) return runs_visible(h, i, j);
    if (causal_ && j > i) return false;
    if (window_ < 0) return true;
    const int distance = i > j ? i - j : j - i;
    return distance <= window_ || is_global_row(i) || is_global_col(j);
  }
  [[nodiscard]] bool is_global_row(int i) const {
    return !global_rows_.empty() && global_rows_[static_cast<std::size_t>(i)] != 0;
  }
  [[nodiscard]] bool is_global_col(int j) const {
    return !global_cols_.empty() && global_cols_[static_cast<std::size_t>(j)] != 0;
  }

  // Row i of head h as ascending runs of visible keys, a gap between any two: the stored
  // runs with an expression, else made into `scratch` from span() and the extra keys.
  [[nodiscard]] std::span<const KeySpan> runs(int h, int i, std::vector<KeySpan>& scratch) const;

  // The named fields only (not general()): what row i sees is one span of keys (the band, cut
  // at the diagonal when causal; every key for a global row or without a window) plus, outside
  // it, the global columns that for_each_extra_key() visits.
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

  // Blocks of rows [i0, i1) × columns [j0, j1) of head h, cut at the mask's edges.
  // block_visible() is the test every kernel skips hidden blocks by:
  // shaders/common/mask.glsl's mask_block_visible() computes the same, from the same spans,
  // global tables and runs, so the CPU and the GPU skip the same tiles. It is exact: false
  // only when every cell is hidden.
  [[nodiscard]] bool block_visible(int i0, int i1, int j0, int j1) const { return block_visible(0, i0, i1, j0, j1); }
  [[nodiscard]] bool block_visible(int h, int i0, int i1, int j0, int j1) const;
  // Hidden (block_visible() is false), Full (every cell visible) or Partial.
  [[nodiscard]] BlockVisibility classify_block(int i0, int i1, int j0, int j1) const {
    return classify_block(0, i0, i1, j0, j1);
  }
  [[nodiscard]] BlockVisibility classify_block(int h, int i0, int i1, int j0, int j1) const;
  // Every size × size tile of head h at once (the same answers as classify_block, from the
  // rows' runs: the cost follows N · (runs per row + M / size)).
  [[nodiscard]] BlockGrid block_grid(int h, int size) const;

  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] int cols() const { return cols_; }
  [[nodiscard]] bool causal() const { return causal_; }
  [[nodiscard]] int window() const { return window_; }  // -1: no window
  [[nodiscard]] bool has_globals() const { return has_globals_; }

  // The rows × cols bitmap of head h (1 = visible), into `out` reusing its storage.
  void matrix_into(MaskMatrix& out, int h = 0) const;
  [[nodiscard]] MaskMatrix matrix(int h = 0) const;

  // The table the shaders read (shaders/common/mask.glsl), as RGBA32UI texels of four uint32:
  // - named fields, the global-token table:
  //     texel t (0 ≤ t ≤ max(rows, cols)) = (t is a global row, t is a global column,
  //                                           global rows before t, global columns before t)
  //     texel params().list_offset + k      = (k-th column chunk holding a global column, 0, 0, 0)
  //   zero apart from the list offset when there are no global tokens;
  // - with an expression, a list of uint32 (four per texel): entry s·N + i (s the head's set,
  //   0 ≤ i ≤ N) is row i's first run, so row i's runs are entries [index(i), index(i + 1));
  //   run r is the entry params().runs_offset + r, begin | (end − 1) << 16 (runs are never
  //   empty, so 16 bits each hold keys up to 65,536, the overview's longest text).
  [[nodiscard]] static int globals_texel_count(int rows, int cols);
  [[nodiscard]] int table_texel_count() const;
  [[nodiscard]] int globals_texel_count() const { return table_texel_count(); }
  // Writes the table into `texels` (at least 4 · table_texel_count() values; the rest zeroed).
  void write_table(std::span<std::uint32_t> texels) const;
  void write_globals_table(std::span<std::uint32_t> texels) const { write_table(texels); }
  [[nodiscard]] std::vector<std::uint32_t> table() const;
  [[nodiscard]] std::vector<std::uint32_t> globals_table() const { return table(); }

  // `head`: the head a heatmap shows (its rows when the mask depends on the head).
  [[nodiscard]] MaskParams params(int head = 0) const;

 private:
  struct Runs {
    int sets = 1;                      // 1, or one per head
    std::vector<std::uint32_t> first;  // sets · rows + 1: row (s, i)'s runs start at first[s·rows + i]
    std::vector<KeySpan> runs;
  };

  [[nodiscard]] bool global_row_in(int i0, int i1) const;  // any global row in [i0, i1)?
  [[nodiscard]] bool global_col_in(int j0, int j1) const;  // any global column in [j0, j1)?
  void field_runs(int i, std::vector<KeySpan>& out) const;
  [[nodiscard]] KeySpan span_of_fields(int i) const;  // the named fields' row i, appended
  void build_runs(const MaskSetting& setting);
  [[nodiscard]] std::span<const KeySpan> stored_runs(int h, int i) const;
  [[nodiscard]] bool runs_visible(int h, int i, int j) const;
  [[nodiscard]] int runs_offset() const;
  void write_runs_table(std::span<std::uint32_t> texels) const;

  int rows_ = 0;
  int cols_ = 0;
  int heads_ = 1;
  bool causal_ = false;
  int window_ = -1;
  bool has_globals_ = false;
  std::vector<unsigned char> global_rows_;  // rows flags, empty without global tokens
  std::vector<unsigned char> global_cols_;  // cols flags, empty without global tokens
  std::vector<int> global_col_list_;
  std::shared_ptr<const Runs> runs_;  // with an expression; shared by copies
};

struct Result;
// result.mask and result.masked_rows (head 0's), and each head's own mask and masked rows
// when the mask depends on the head (cleared otherwise). result.heads must be sized first.
void fill_result_masks(const Mask& mask, Result& result);

// Each head's block_grid(h, size) into result.heads[h].blocks (`attnviz compute --blocks`).
void add_block_counts(const Mask& mask, int size, Result& result);

// Mask(setting, rows, cols).matrix().
MaskMatrix build_mask(const MaskSetting& setting, int rows, int cols);
std::vector<int> fully_masked_rows(const MaskMatrix& mask);

}  // namespace attnviz
