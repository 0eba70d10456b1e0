#include "core/export/numbers.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "core/common/float_text.h"

namespace attnviz::exporting {
namespace {

std::string value_field(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  return format_float(value);
}

}  // namespace

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string matrix_to_csv(const Matrix& matrix, const std::vector<std::string>& row_labels,
                          const std::vector<std::string>& col_labels, std::string_view corner) {
  if (static_cast<int>(row_labels.size()) != matrix.rows || static_cast<int>(col_labels.size()) != matrix.cols) {
    throw std::invalid_argument("matrix_to_csv needs one label per row and per column");
  }
  std::string out = csv_field(corner);
  for (const std::string& label : col_labels) out += "," + csv_field(label);
  out += "\r\n";
  for (int r = 0; r < matrix.rows; ++r) {
    out += csv_field(row_labels[static_cast<std::size_t>(r)]);
    for (int c = 0; c < matrix.cols; ++c) out += "," + value_field(matrix.at(r, c));
    out += "\r\n";
  }
  return out;
}

std::string npy_header(std::string_view descr, const std::vector<std::size_t>& shape) {
  // Python tuple syntax: "(3, 4)", and "(3,)" for one dimension.
  std::string dims;
  for (std::size_t i = 0; i < shape.size(); ++i) dims += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dims += ",";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // magic (6) + version (2) + header length (2) + header, padded with spaces and '\n' to 64.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';

  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xFFu);
  out += static_cast<char>((header.size() >> 8) & 0xFFu);
  out += header;
  return out;
}

void append_float32_le(std::span<const float> values, std::string& out) {
  const std::size_t start = out.size();
  out.resize(start + values.size() * sizeof(float));
  if constexpr (std::endian::native == std::endian::little) {
    if (!values.empty()) std::memcpy(out.data() + start, values.data(), values.size() * sizeof(float));
    return;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto bits = std::bit_cast<std::uint32_t>(values[i]);
    bits = (bits >> 24) | ((bits >> 8) & 0xFF00u) | ((bits << 8) & 0xFF0000u) | (bits << 24);
    std::memcpy(out.data() + start + i * sizeof(float), &bits, sizeof bits);
  }
}

std::string npy_float32(std::span<const float> values, const std::vector<std::size_t>& shape) {
  const std::size_t count = std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
  if (count != values.size()) throw std::invalid_argument("npy_float32: the shape does not match the value count");
  std::string out = npy_header("<f4", shape);
  append_float32_le(values, out);
  return out;
}

}  // namespace attnviz::exporting
