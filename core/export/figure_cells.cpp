#include "core/export/figure_cells.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/export/figure_axis_labels.h"

namespace attnviz::exporting {
namespace {

constexpr double kMinValuePt = 5.0;
constexpr double kMinMatrixSidePt = 48.0;  // two thirds of an inch
constexpr int kMaxMatrixPixels = 6000;     // the default cell size keeps a matrix side below this

std::string value_text(const HeatmapFigure& figure, float value) {
  return with_minus_signs(figure.value_scientific ? scientific_text(value) : fixed_text(value, figure.value_decimals));
}

bool shows_value(const FigurePanel& panel, std::size_t index) {
  const bool masked = !panel.masked.empty() && panel.masked[index] != 0;
  const float value = panel.values.data[index];
  return std::isfinite(value) && !masked;
}

std::vector<TextItem> value_texts(const HeatmapFigure& figure, const FigurePanel& panel, const CellBlock& block,
                                  const FigureCanvas& canvas, double size) {
  std::vector<TextItem> texts;
  for (int r = 0; r < block.rows; ++r) {
    for (int c = 0; c < block.cols; ++c) {
      const std::size_t index = panel.values.index(r, c);
      if (!shows_value(panel, index)) continue;
      const CellLook look = cell_look(block, r, c);
      const Rgb colour = contrasting_text_colour(look.fill);
      const double centre_x = block.x + (c + 0.5) * block.cell;
      const double centre_y = block.y + (r + 0.5) * block.cell;
      texts.push_back({value_text(figure, panel.values.data[index]), static_cast<float>(centre_x),
                       static_cast<float>(canvas.centred_baseline(centre_y, size)), static_cast<float>(size),
                       TextAnchor::Middle, false, false, colour});
    }
  }
  return texts;
}

}  // namespace

int min_matrix_side_px(int dpi) { return static_cast<int>(std::lround(kMinMatrixSidePt * dpi / 72.0)); }

int choose_cell_px(const HeatmapFigure& figure, const FigureCanvas& canvas, int grid_columns) {
  if (figure.cell_px) return *figure.cell_px;
  const Matrix& first = figure.panels.front().values;
  const int n = std::max({first.rows, first.cols, 1});
  // Big enough for a value in each cell of a small matrix, small enough for long sequences;
  // a grid shares about the width of one figure among its columns.
  const double single = n <= 12 ? 28.0 : n <= 24 ? 22.0 : std::max(0.25, 640.0 / n);
  const double points = grid_columns == 1 ? single : std::min(single, std::max(0.25, 720.0 / (n * grid_columns)));
  int cell = std::min(canvas.px(points), std::max(1, kMaxMatrixPixels / (n * grid_columns)));
  // Cells a little wider (up to a quarter) when that keeps the column labels upright with
  // half an em between them: "고파서 치킨을" upright reads better than sideways or run together.
  const double widest = widest_column_label(figure, canvas, canvas.size_px(kLabelPt));
  const double wanted = widest + label_gap(canvas.size_px(kLabelPt));
  if (n <= 24 && wanted > cell && wanted <= 1.25 * cell) cell = static_cast<int>(std::ceil(wanted));
  // A matrix of one or two tokens still gets room for its colorbar and axis titles.
  const int min_side = min_matrix_side_px(figure.dpi);
  if (cell * n < min_side) cell = (min_side + n - 1) / n;
  return cell;
}

CellValues choose_cell_values(const HeatmapFigure& figure, const FigureCanvas& canvas, int cell) {
  CellValues values;
  if (figure.binary || figure.values == ValuesMode::Off) return values;
  double widest = 0.0;
  const double full_size = canvas.size_px(kValuePt);
  for (const FigurePanel& panel : figure.panels) {
    for (std::size_t i = 0; i < panel.values.data.size(); ++i) {
      if (shows_value(panel, i))
        widest = std::max(widest, canvas.width(value_text(figure, panel.values.data[i]), full_size));
    }
  }
  if (widest <= 0.0) return values;
  const double full_height = canvas.line_height(full_size);
  values.size = full_size * std::min({1.0, 0.86 * cell / widest, 0.8 * cell / full_height});
  const double readable = std::max(canvas.size_px(kMinValuePt), 7.0);
  const Matrix& first = figure.panels.front().values;
  const int n = std::max(first.rows, first.cols);
  values.shown = figure.values == ValuesMode::On ? values.size >= 4.0 : n <= 24 && values.size >= readable;
  if (figure.values == ValuesMode::On && !values.shown) {
    // The cell size at which the numbers reach the smallest readable size.
    const double factor = readable / full_size;
    const int needed = static_cast<int>(std::ceil(std::max(factor * widest / 0.86, factor * full_height / 0.8)));
    values.warning = "--values on: numbers left out, cells of " + std::to_string(cell) +
                     " pixels are too small for them; they need --cell " + std::to_string(needed) +
                     " or more, or fewer rows and columns (--rows, --cols)";
  }
  return values;
}

bool any_cell_masked(const HeatmapFigure& figure) {
  return std::any_of(figure.panels.begin(), figure.panels.end(), [](const FigurePanel& panel) {
    const bool masked = std::find(panel.masked.begin(), panel.masked.end(), 1) != panel.masked.end();
    const auto not_finite = [](float v) { return !std::isfinite(v); };
    return masked || std::any_of(panel.values.data.begin(), panel.values.data.end(), not_finite);
  });
}

Rgb visible_colour(const HeatmapFigure& figure) { return colormap(figure.colormap).at(0.75f); }

void draw_cells(FigureCanvas& canvas, const HeatmapFigure& figure, const FigurePanel& panel, int x, int y, int cell,
                const CellValues& values) {
  CellBlock block;
  block.x = x;
  block.y = y;
  block.cell = cell;
  block.rows = panel.values.rows;
  block.cols = panel.values.cols;
  block.values = panel.values.data;
  block.masked = panel.masked;
  block.colormap = figure.colormap;
  block.low = figure.range_low;
  block.high = figure.range_high;
  block.log_scale = figure.log_scale;
  block.binary = figure.binary;
  if (figure.binary && cell >= 6) block.gap = std::max(1, canvas.px(0.75));
  block.visible_colour = visible_colour(figure);
  block.masked_style = figure.masked_style;
  // A thin frame, then the cells over it.
  const int frame = std::max(1, canvas.px(0.6));
  const int w = block.cols * cell;
  const int h = block.rows * cell;
  canvas.add_shape(FillRect{x - frame, y - frame, w + 2 * frame, h + 2 * frame, kFrameColour});
  std::vector<TextItem> texts;
  if (values.shown) texts = value_texts(figure, panel, block, canvas, values.size);
  canvas.add_shape(std::move(block));
  for (TextItem& text : texts) canvas.add_shape(std::move(text));
}

}  // namespace attnviz::exporting
