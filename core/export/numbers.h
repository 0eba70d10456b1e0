#pragma once
// The numbers behind a heatmap, in formats other programs read: CSV (RFC 4180, a header row of
// key tokens and a first column of query tokens) and NPY (numpy's format v1.0, float32, C order).

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/matrix.h"

namespace attnviz::exporting {

// Values in shortest round-trip form ("0.3374"), −∞ as "-inf", NaN as "nan"; fields with a
// comma, quote, CR or LF are quoted, quotes doubled; lines end with CRLF as RFC 4180 says.
// The top-left cell holds `corner` (e.g. "query \ key").
std::string matrix_to_csv(const Matrix& matrix, const std::vector<std::string>& row_labels,
                          const std::vector<std::string>& col_labels, std::string_view corner = "query \\ key");

// One CSV field, quoted when RFC 4180 requires it.
std::string csv_field(std::string_view text);

// NPY v1.0: magic, header {'descr': '<f4', 'fortran_order': False, 'shape': (...), } padded
// to a multiple of 64 bytes, then the values little-endian in C order.
// values.size() must equal the product of shape.
std::string npy_float32(std::span<const float> values, const std::vector<std::size_t>& shape);

// The NPY v1.0 preamble (magic, version, header length, header) for `descr` ("<f4", "|u1") and
// `shape`: the data follows it in C order. For files written a row at a time.
std::string npy_header(std::string_view descr, const std::vector<std::size_t>& shape);
// Appends `values` to `out` as little-endian float32, the NPY "<f4" bytes.
void append_float32_le(std::span<const float> values, std::string& out);

}  // namespace attnviz::exporting
