#include "core/vk/host_packing.h"

#include <algorithm>
#include <cstring>

namespace attnviz::vk {

void pack_rows(const Matrix& m, std::int64_t pitch, std::byte* out) {
  auto* floats = reinterpret_cast<float*>(out);
  for (int r = 0; r < m.rows; ++r) {
    float* row = floats + r * pitch;
    std::memcpy(row, m.row(r), static_cast<std::size_t>(m.cols) * sizeof(float));
    std::fill(row + m.cols, row + pitch, 0.0f);
  }
}

void pack_column_blocks(const Matrix& w, int batches, int block, std::int64_t pitch, std::byte* out) {
  auto* floats = reinterpret_cast<float*>(out);
  for (int b = 0; b < batches; ++b) {
    for (int r = 0; r < w.rows; ++r) {
      float* row = floats + (static_cast<std::int64_t>(b) * w.rows + r) * pitch;
      std::memcpy(row, w.row(r) + static_cast<std::ptrdiff_t>(b) * block, static_cast<std::size_t>(block) * sizeof(float));
      std::fill(row + block, row + pitch, 0.0f);
    }
  }
}

GlobalsTable build_globals(const MaskSetting& mask, int rows, int cols, int entries) {
  GlobalsTable table;
  table.texels.assign(static_cast<std::size_t>(entries) * 4, 0u);
  const int tokens = std::max(rows, cols);
  table.list_offset = tokens + 1;
  // DESIGN.md: global tokens need a window; without one they change nothing.
  if (!mask.window || mask.global.empty()) return table;
  std::vector<std::uint32_t> row_flag(static_cast<std::size_t>(tokens) + 1, 0u);
  std::vector<std::uint32_t> col_flag(static_cast<std::size_t>(tokens) + 1, 0u);
  for (int g : mask.global) {
    if (g >= 0 && g < rows) row_flag[static_cast<std::size_t>(g)] = 1;
    if (g >= 0 && g < cols) col_flag[static_cast<std::size_t>(g)] = 1;
  }
  std::uint32_t rows_before = 0;
  std::uint32_t cols_before = 0;
  int last_chunk = -1;
  for (int t = 0; t <= tokens; ++t) {
    std::uint32_t* texel = &table.texels[static_cast<std::size_t>(t) * 4];
    texel[0] = row_flag[static_cast<std::size_t>(t)];
    texel[1] = col_flag[static_cast<std::size_t>(t)];
    texel[2] = rows_before;
    texel[3] = cols_before;
    rows_before += row_flag[static_cast<std::size_t>(t)];
    cols_before += col_flag[static_cast<std::size_t>(t)];
    if (col_flag[static_cast<std::size_t>(t)] != 0 && t / 4 != last_chunk) {
      last_chunk = t / 4;
      table.texels[static_cast<std::size_t>(table.list_offset + table.list_count) * 4] = static_cast<std::uint32_t>(last_chunk);
      ++table.list_count;
    }
  }
  table.has_globals = rows_before + cols_before > 0;
  return table;
}

void unpack_rows(const std::byte* data, std::int64_t first, std::int64_t pitch, Matrix& out) {
  const auto* floats = reinterpret_cast<const float*>(data) + first;
  const auto row_bytes = static_cast<std::size_t>(out.cols) * sizeof(float);
  for (int r = 0; r < out.rows; ++r) std::memcpy(out.row(r), floats + r * pitch, row_bytes);
}

}  // namespace attnviz::vk
