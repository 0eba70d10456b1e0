#pragma once
// export --model: one layer's heatmaps and matrices, or the attention rollout, of a pretrained
// model's forward pass, through the same ExportRequest as a scenario's.

#include <iosfwd>

#include "app/cli/args.h"
#include "core/export/export.h"

namespace attnviz::cli {

// `rollout`: --what named rollout (taken out of request.what, which may then be empty).
int run_model_export(const ParsedArgs& parsed, exporting::ExportRequest request, bool rollout, std::ostream& out,
                     std::ostream& err);

}  // namespace attnviz::cli
