#include "core/model/weights.h"

#include <cstring>

#include "core/model/dequantize.h"

namespace attnviz::model {

void StoredRows::row(int r, int count, float* out) const {
  const std::int64_t stored_row = row_map ? row_map[r] : r;
  dequantize(type, {data + static_cast<std::uint64_t>(stored_row) * row_bytes, static_cast<std::size_t>(row_bytes)},
             static_cast<std::uint64_t>(count), out);
}

void Linear::output_weights(int output, float* out_values) const {
  if (!weight) {
    stored.row(output, in, out_values);
    return;
  }
  for (int i = 0; i < in; ++i) {
    out_values[i] =
        out_by_in ? weight[static_cast<long>(output) * stride + i] : weight[static_cast<long>(i) * stride + output];
  }
}

void Table::row(int r, float* out) const {
  if (data)
    std::memcpy(out, data + static_cast<long>(r) * cols, sizeof(float) * static_cast<std::size_t>(cols));
  else
    stored.row(r, cols, out);
}

}  // namespace attnviz::model
