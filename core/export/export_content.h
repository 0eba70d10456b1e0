#pragma once
// Internal to core/export: what each quantity is, and the matrix an export shows for it.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/export/export.h"

namespace attnviz::exporting {

struct QuantityInfo {
  const char* name;         // file names, --what
  const char* description;  // subtitle
  const char* colorbar_label;
  ColormapId default_colormap;
  MaskedCellStyle masked_style;
  const char* masked_legend;
  bool per_head;         // false: one matrix for all heads (the mask)
  const char* json_key;  // the key in the JSON heads list ("scores", "weights", ...)
};

const QuantityInfo& info(Quantity quantity);

struct SelectedMatrix {
  Matrix values;
  std::vector<std::uint8_t> masked;  // rows × cols, 1 = masked; empty: the mask does not apply
  std::vector<std::string> row_labels;
  std::vector<std::string> col_labels;
  std::string row_axis_title;
  std::string col_axis_title;
  std::optional<CellWindow> window;  // the request's window with its ends resolved, when one was given
};

// The matrix of `quantity` for `head` (ignored for the mask), cut to request.window.
// Throws InputError(request.origin, ...) when the head, the window or the sources do not fit.
SelectedMatrix select_matrix(const ExportRequest& request, const ExportSource& source, Quantity quantity, int head);

// The same matrix read one row at a time from the Result, so that numbers (NPY, CSV, JSON) are
// streamed to their file with one row in memory instead of a copy of the matrix (a head of
// 4096 tokens is 64 MiB; `--heads all` of eight of them was half a gigabyte on top of the
// result). Throws as select_matrix does.
class MatrixRows {
 public:
  MatrixRows(const ExportRequest& request, const ExportSource& source, Quantity quantity, int head);

  [[nodiscard]] int rows() const { return row_end_ - row_begin_; }
  [[nodiscard]] int cols() const { return col_end_ - col_begin_; }
  [[nodiscard]] const std::vector<std::string>& row_labels() const { return row_labels_; }
  [[nodiscard]] const std::vector<std::string>& col_labels() const { return col_labels_; }
  [[nodiscard]] const std::optional<CellWindow>& window() const { return window_; }

  // Row r of the window as the export shows it: cols() values, valid until the next call.
  std::span<const float> row(int r);

 private:
  const Result* result_ = nullptr;
  const ExportSource* source_ = nullptr;
  Quantity quantity_;
  int head_ = 0;
  int row_begin_ = 0, row_end_ = 0, col_begin_ = 0, col_end_ = 0;
  std::vector<std::string> row_labels_;
  std::vector<std::string> col_labels_;
  std::optional<CellWindow> window_;
  std::vector<float> buffer_;
};

// The heads the request names, checked against the result (all of them when unset).
std::vector<int> requested_heads(const ExportRequest& request, const ExportSource& source);

// The result the quantity is read from (the Vulkan one for diff, for tokens and shapes).
const Result& primary_result(const ExportSource& source, Quantity quantity, const std::string& origin);

}  // namespace attnviz::exporting
