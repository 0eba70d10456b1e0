#pragma once
// Host-side conversions between the Problem / Result matrices and the padded device layout
// of attention_layout.h.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/common/matrix.h"
#include "core/scenario/scenario.h"
#include "core/vk/attention_layout.h"

namespace attnviz::vk {

// rows × cols → rows × pitch floats at `out` (padding zeroed).
void pack_rows(const Matrix& m, std::int64_t pitch, std::byte* out);

// Columns [b·block, (b+1)·block) of `w` become batch b: w.rows × pitch floats each, one after
// another (the per-head blocks of W_Q, W_K, W_V).
void pack_column_blocks(const Matrix& w, int batches, int block, std::int64_t pitch, std::byte* out);

// The global-token texels of shaders/common/mask.glsl for a rows × cols problem.
struct GlobalsTable {
  std::vector<std::uint32_t> texels;  // 4 uint32 per entry, layout.globals_entries entries
  bool has_globals = false;
  int list_offset = 0;
  int list_count = 0;
};
GlobalsTable build_globals(const MaskSetting& mask, int rows, int cols, int entries);

// out.rows × out.cols floats read from `data` with row pitch `pitch` (floats), starting
// `first` floats in (`out` keeps its shape and storage).
void unpack_rows(const std::byte* data, std::int64_t first, std::int64_t pitch, Matrix& out);

}  // namespace attnviz::vk
