#include "core/overview/overview_export.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/error.h"
#include "core/export/numbers.h"

namespace attnviz::overview {
namespace {

using exporting::ExportFormat;

// The smallest and largest value shown in colour (blocks not hidden); {0, 0} for none.
std::pair<float, float> value_span(const PooledImage& image, bool positive_only) {
  float low = std::numeric_limits<float>::infinity();
  float high = -std::numeric_limits<float>::infinity();
  for (std::size_t p = 0; p < image.values.size(); ++p) {
    const float v = image.values[p];
    if (image.hidden[p] != 0 || (positive_only && !(v > 0.0f))) continue;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  return low <= high ? std::pair{low, high} : std::pair{0.0f, 0.0f};
}

bool log_colours(const Overview& overview, const OverviewExportOptions& options) {
  if (overview.quantity != Quantity::Weights) return false;
  if (options.scale == exporting::ColourScale::Linear) return false;
  if (options.scale == exporting::ColourScale::Log) return true;
  return !options.range || options.range->first > 0.0f;
}

// Weights on a log scale: four decades below the largest; linear: 0 to the largest. Scores:
// symmetric about 0 (rdbu's white is 0).
std::pair<float, float> colour_range(const Overview& overview, const PooledImage& image, bool log) {
  if (overview.quantity == Quantity::Weights) {
    const auto [low, high] = value_span(image, log);
    const float top = high > 0.0f ? high : 1.0f;
    if (log) return {std::max(low > 0.0f ? low : top * 1e-4f, top * 1e-4f), top};
    return {0.0f, top};
  }
  const auto [low, high] = value_span(image, false);
  const float reach = std::max({std::fabs(low), std::fabs(high), 1e-6f});
  return {-reach, reach};
}

std::string pooled_description(const Overview& overview, const Wording& wording) {
  const std::string what = overview.quantity == Quantity::Weights     ? wording.tr("weights")
                           : overview.quantity == Quantity::RawScores ? wording.tr("raw scores Q·Kᵀ")
                                                                      : wording.tr("scaled scores");
  const PixelGrid& g = overview.grid;
  if (g.exact()) return wording.tr("%1$s, every cell", {what});
  const std::string rows = std::to_string(g.block_rows);
  const std::string cols = std::to_string(g.block_cols);
  return overview.pooling == Pooling::Max ? wording.tr("%1$s, largest of each %2$s × %3$s block", {what, rows, cols})
                                          : wording.tr("%1$s, mean of each %2$s × %3$s block", {what, rows, cols});
}

constexpr double kLeastSideInches = 3.0;  // the pooled map's side, at the least

std::vector<std::string> block_starts(int count, int first, int block) {
  std::vector<std::string> labels;
  labels.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) labels.push_back(std::to_string(first + i * block));
  return labels;
}

std::string render_npy(const Overview& overview, const std::vector<std::size_t>& images, bool stacked) {
  const PixelGrid& g = overview.grid;
  std::vector<float> values;
  values.reserve(images.size() * static_cast<std::size_t>(g.pixels()));
  for (const std::size_t i : images) {
    const PooledImage& image = overview.heads[i];
    for (std::size_t p = 0; p < image.values.size(); ++p) {
      values.push_back(image.hidden[p] != 0 ? std::numeric_limits<float>::quiet_NaN() : image.values[p]);
    }
  }
  std::vector<std::size_t> shape = {static_cast<std::size_t>(g.rows), static_cast<std::size_t>(g.cols)};
  if (stacked) shape.insert(shape.begin(), images.size());
  return exporting::npy_float32(values, shape);
}

}  // namespace

exporting::HeatmapFigure overview_figure(const Overview& overview, std::size_t image,
                                         const exporting::ExportCaption& caption,
                                         const OverviewExportOptions& options) {
  const PooledImage& pooled = overview.heads[image];
  const PixelGrid& g = overview.grid;
  const Wording& wording = options.wording;
  exporting::HeatmapFigure figure;
  figure.wording = wording;
  figure.title = options.title.value_or(caption.title);
  figure.subtitle = pooled_description(overview, wording) + " · " +
                    wording.tr("head %1$s", {std::to_string(pooled.head)}) + " · " +
                    wording.tr("mask: %1$s", {caption.mask});
  if (overview.quantity != Quantity::RawScores) figure.subtitle += " · " + caption.scale;
  if (!caption.positions.empty()) figure.subtitle += " · " + caption.positions;
  figure.subtitle += " · " + wording.tr("rows %1$s–%2$s, columns %3$s–%4$s",
                                        {std::to_string(g.window.row_begin), std::to_string(g.window.row_end - 1),
                                         std::to_string(g.window.col_begin), std::to_string(g.window.col_end - 1)});
  const bool tokens = g.exact() && static_cast<int>(options.row_tokens.size()) >= g.window.row_end &&
                      static_cast<int>(options.col_tokens.size()) >= g.window.col_end;
  if (tokens) {
    figure.row_labels.assign(options.row_tokens.begin() + g.window.row_begin,
                             options.row_tokens.begin() + g.window.row_end);
    figure.col_labels.assign(options.col_tokens.begin() + g.window.col_begin,
                             options.col_tokens.begin() + g.window.col_end);
  } else {
    figure.row_labels = block_starts(g.rows, g.window.row_begin, g.block_rows);
    figure.col_labels = block_starts(g.cols, g.window.col_begin, g.block_cols);
  }
  figure.row_labels_are_positions = figure.col_labels_are_positions = !tokens;
  figure.cells_are_blocks = !g.exact();
  figure.first_row_index = g.exact() ? g.window.row_begin : 0;
  figure.first_col_index = g.exact() ? g.window.col_begin : 0;
  figure.row_axis_title = g.exact() ? wording.tr("query tokens") : wording.tr("query tokens (first of each block)");
  figure.col_axis_title = g.exact() ? wording.tr("key tokens") : wording.tr("key tokens (first of each block)");
  exporting::FigurePanel panel;
  panel.values = Matrix(g.rows, g.cols);
  panel.values.data = pooled.values;
  panel.masked = pooled.hidden;
  figure.panels.push_back(std::move(panel));

  const bool weights = overview.quantity == Quantity::Weights;
  figure.colormap = options.colormap.value_or(weights ? exporting::ColormapId::Viridis : exporting::ColormapId::RdBu);
  figure.log_scale = log_colours(overview, options);
  const auto [low, high] = options.range.value_or(colour_range(overview, pooled, figure.log_scale));
  figure.range_low = low;
  figure.range_high = high;
  figure.colorbar_label = weights ? wording.tr("weight") : wording.tr("score");
  if (figure.log_scale) figure.colorbar_label = wording.tr("%1$s (log scale)", {figure.colorbar_label});
  figure.masked_style = exporting::MaskedCellStyle::Replace;
  figure.masked_legend = g.exact() ? wording.tr("masked: the query cannot see this key")
                                   : wording.tr("hidden: the mask hides every cell of the block");
  figure.values = exporting::ValuesMode::Off;
  figure.dpi = options.dpi;
  // Each block a whole number of image pixels, and the map at least three inches across: a
  // 64- or 256-pixel overview was a stamp under a title several times its width.
  const int side = std::max(g.rows, g.cols);
  const int least = std::max(exporting::min_matrix_side_px(options.dpi),
                             static_cast<int>(std::lround(kLeastSideInches * options.dpi)));
  figure.cell_px = std::max(1, (least + side - 1) / side);
  if (!g.exact()) {
    figure.notes.push_back(wording.tr(
        "An overview: each pixel block pools %1$s × %2$s cells, computed exactly (tiled, never holding the whole "
        "matrix).",
        {std::to_string(g.block_rows), std::to_string(g.block_cols)}));
  }
  return figure;
}

std::vector<std::string> overview_file_names(Quantity quantity, Pooling pooling, const std::vector<int>& heads,
                                             const OverviewExportOptions& options) {
  const std::string stem = std::string("overview_") + quantity_name(quantity) + "_" + pooling_name(pooling);
  if (options.format != ExportFormat::Png && options.format != ExportFormat::Svg &&
      options.format != ExportFormat::Npy) {
    throw InputError(
        options.origin, "--format",
        std::string("an overview is written as png, svg or npy, not ") + exporting::format_name(options.format));
  }
  if (options.format == ExportFormat::Npy && options.one_array) return {stem + ".npy"};
  std::vector<std::string> names;
  for (const int head : heads)
    names.push_back(stem + "_head" + std::to_string(head) + "." + exporting::format_name(options.format));
  return names;
}

std::vector<exporting::ExportedFile> render_overview(const Overview& overview, const exporting::ExportCaption& caption,
                                                     const OverviewExportOptions& options) {
  std::vector<int> heads;
  for (const PooledImage& image : overview.heads) heads.push_back(image.head);
  const std::vector<std::string> names = overview_file_names(overview.quantity, overview.pooling, heads, options);
  std::vector<exporting::ExportedFile> files;
  if (options.format == ExportFormat::Npy && options.one_array) {
    std::vector<std::size_t> all(overview.heads.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    files.push_back({names.front(), render_npy(overview, all, true), {}});
    return files;
  }
  for (std::size_t i = 0; i < overview.heads.size(); ++i) {
    if (options.format == ExportFormat::Npy) {
      files.push_back({names[i], render_npy(overview, {i}, false), {}});
    } else {
      files.push_back(exporting::render_figure_image(overview_figure(overview, i, caption, options), options.format,
                                                     names[i], options.origin));
    }
  }
  return files;
}

}  // namespace attnviz::overview
