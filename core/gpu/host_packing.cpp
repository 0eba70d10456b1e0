#include "core/gpu/host_packing.h"

#include <algorithm>
#include <cstring>

namespace attnviz::gpu {

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
      std::memcpy(row, w.row(r) + static_cast<std::ptrdiff_t>(b) * block,
                  static_cast<std::size_t>(block) * sizeof(float));
      std::fill(row + block, row + pitch, 0.0f);
    }
  }
}

void unpack_rows(const std::byte* data, std::int64_t first, std::int64_t pitch, Matrix& out) {
  const auto* floats = reinterpret_cast<const float*>(data) + first;
  const auto row_bytes = static_cast<std::size_t>(out.cols) * sizeof(float);
  for (int r = 0; r < out.rows; ++r) std::memcpy(out.row(r), floats + r * pitch, row_bytes);
}

void unpack_flags(const std::byte* data, std::int64_t first, std::int64_t pitch, MaskMatrix& out) {
  const auto* floats = reinterpret_cast<const float*>(data) + first;
  for (int r = 0; r < out.rows; ++r) {
    std::uint8_t* flags = out.visible.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(out.cols);
    for (int c = 0; c < out.cols; ++c) flags[c] = floats[r * pitch + c] != 0.0f ? 1 : 0;
  }
}

}  // namespace attnviz::gpu
