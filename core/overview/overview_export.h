#pragma once
// An overview to files (`attnviz export --overview PIXELS`): PNG and SVG through core/export's
// figure, writers and colormaps (one image pixel per pixel block, hidden blocks hatched), NPY
// as float32 heads × rows × cols with NaN for hidden blocks.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/export/export.h"
#include "core/overview/overview.h"

namespace attnviz::overview {

struct OverviewExportOptions {
  exporting::ExportFormat format = exporting::ExportFormat::Png;  // png, svg or npy
  std::optional<exporting::ColormapId> colormap;                  // default: viridis for weights, rdbu for scores
  std::optional<std::pair<float, float>> range;                   // default: from the image
  exporting::ColourScale scale = exporting::ColourScale::Auto;    // auto: log for the weights
  std::optional<std::string> title;
  int dpi = 300;
  bool one_array = true;  // NPY: every head in one array (else a file per head)
  // The query and key tokens: an image of exact cells labels its rows and columns with them
  // (pooled blocks are labelled with their first position). Empty: positions throughout.
  std::vector<std::string> row_tokens;
  std::vector<std::string> col_tokens;
  std::string origin = "<export>";
  Wording wording{};  // the language of the figure's words (the caption comes worded by its maker)
};

// The files: "overview_weights_max_head0.png" per head for images, "overview_weights_max.npy"
// (or one per head). Throws InputError(origin, ...) for a format other than png, svg and npy.
std::vector<exporting::ExportedFile> render_overview(const Overview& overview, const exporting::ExportCaption& caption,
                                                     const OverviewExportOptions& options);

// The names render_overview gives the files of these heads, in its order (a command checks its
// --out against them before computing). Throws as render_overview does for another format.
std::vector<std::string> overview_file_names(Quantity quantity, Pooling pooling, const std::vector<int>& heads,
                                             const OverviewExportOptions& options);

// The figure of one head (for tests and a window that draws it itself).
exporting::HeatmapFigure overview_figure(const Overview& overview, std::size_t image,
                                         const exporting::ExportCaption& caption, const OverviewExportOptions& options);

}  // namespace attnviz::overview
