#pragma once
// Row-major float32 matrices: the one storage layout shared by scenarios, results, the
// Eigen path, the Vulkan buffers and export. Element (r, c) lives at data[r * cols + c].

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attnviz {

struct Matrix {
  int rows = 0;
  int cols = 0;
  std::vector<float> data;

  Matrix() = default;
  Matrix(int row_count, int col_count, float fill = 0.0f)
      : rows(row_count),
        cols(col_count),
        data(static_cast<std::size_t>(row_count) * static_cast<std::size_t>(col_count), fill) {}

  // Sets the shape, keeping the storage when it is large enough, so a recompute of the same
  // shape writes into memory it has touched before (a fresh page costs a fault per 4 KiB,
  // more than the arithmetic for large results). Values are unspecified afterwards.
  void reshape(int row_count, int col_count);

  [[nodiscard]] bool empty() const { return data.empty(); }
  [[nodiscard]] std::size_t size() const { return data.size(); }
  [[nodiscard]] std::size_t index(int r, int c) const {
    return static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c);
  }
  float& at(int r, int c) { return data[index(r, c)]; }
  [[nodiscard]] float at(int r, int c) const { return data[index(r, c)]; }
  float* row(int r) { return data.data() + index(r, 0); }
  [[nodiscard]] const float* row(int r) const { return data.data() + index(r, 0); }

  // Value equality (so 0.0f == -0.0f); tests that need bit equality compare bytes.
  friend bool operator==(const Matrix&, const Matrix&) = default;
};

// A visibility mask: visible[r * cols + c] is 1 when query r may see key c.
struct MaskMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<std::uint8_t> visible;

  void reshape(int row_count, int col_count);  // as Matrix::reshape

  [[nodiscard]] bool at(int r, int c) const {
    return visible[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)] != 0;
  }
  friend bool operator==(const MaskMatrix&, const MaskMatrix&) = default;
};

// Asks the kernel for transparent huge pages over the whole 2 MiB pages inside [data,
// data + bytes): a hint for large buffers about to be written (no effect elsewhere).
void prefer_huge_pages(const void* data, std::size_t bytes);

}  // namespace attnviz
