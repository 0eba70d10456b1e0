#pragma once
// Internal to core/export: what each quantity is, and the matrix an export shows for it.

#include <optional>
#include <string>
#include <vector>

#include "core/export/export.h"

namespace attnviz::exporting {

struct QuantityInfo {
  const char* name;            // file names, --what
  const char* description;     // subtitle
  const char* colorbar_label;
  ColormapId default_colormap;
  MaskedCellStyle masked_style;
  const char* masked_legend;
  bool per_head;               // false: one matrix for all heads (the mask)
  const char* json_key;        // the key in the JSON heads list ("scores", "weights", ...)
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

// The heads the request names, checked against the result (all of them when unset).
std::vector<int> requested_heads(const ExportRequest& request, const ExportSource& source);

// The result the quantity is read from (the Vulkan one for diff, for tokens and shapes).
const Result& primary_result(const ExportSource& source, Quantity quantity, const std::string& origin);

}  // namespace attnviz::exporting
