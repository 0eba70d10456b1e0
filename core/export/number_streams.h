#pragma once
// Internal to core/export: the numbers formats (NPY, CSV, JSON) written a row at a time to a
// sink, in pieces of about 1 MiB: besides the Result an export holds one row and one piece,
// however large the matrices (docs/export.md "Files").

#include <functional>
#include <string_view>
#include <vector>

#include "core/export/export.h"

namespace attnviz::exporting {

using ByteSink = std::function<void(std::string_view)>;

// One head's N × M array, or with `heads_axis` one heads × N × M array (--heads all promises
// the heads axis, even for one head).
void stream_npy(const ExportRequest& request, const ExportSource& source, Quantity quantity,
                const std::vector<int>& heads, bool heads_axis, const ByteSink& sink);
void stream_csv(const ExportRequest& request, const ExportSource& source, Quantity quantity, int head,
                const ByteSink& sink);
// "attnviz-export/1" (docs/export.md): the heads' matrices, or the mask.
void stream_json(const ExportRequest& request, const ExportSource& source, Quantity quantity,
                 const std::vector<int>& heads, const ByteSink& sink);

}  // namespace attnviz::exporting
