#include "core/export/figure.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/export/figure_axis_labels.h"
#include "core/export/figure_canvas.h"
#include "core/export/figure_cells.h"
#include "core/export/figure_colorbar.h"
#include "core/export/figure_text_block.h"

namespace attnviz::exporting {
namespace {

constexpr double kMinTextWidthPt = 200.0;  // titles and notes wrap at the figure's width, but not narrower

// The top-level layout: sizes are chosen first (cells, labels, values, colorbar), then the parts
// are drawn top to bottom: title block, panels in their grid, colorbar beside them, legend and
// notes below. Each part lives in its own figure_*.cpp.
class FigureBuilder {
 public:
  FigureBuilder(const HeatmapFigure& figure, const FontPair& fonts) : figure_(figure), canvas_(fonts, figure.dpi) {}

  LaidOutFigure build() {
    validate();
    choose_sizes();
    lay_out_panel_frame();
    choose_colorbar();
    place();
    return {std::move(canvas_.scene()), std::move(geometry_), std::move(warnings_)};
  }

 private:
  void validate() const {
    if (figure_.panels.empty()) throw std::invalid_argument("a figure needs at least one panel");
    const Matrix& first = figure_.panels.front().values;
    for (const FigurePanel& panel : figure_.panels) {
      if (panel.values.rows != first.rows || panel.values.cols != first.cols) {
        throw std::invalid_argument("all panels of a figure need the same shape");
      }
    }
    if (static_cast<int>(figure_.row_labels.size()) != first.rows ||
        static_cast<int>(figure_.col_labels.size()) != first.cols) {
      throw std::invalid_argument("a figure needs one label per row and per column");
    }
  }

  [[nodiscard]] int px(double points) const { return canvas_.px(points); }
  [[nodiscard]] int rows() const { return figure_.panels.front().values.rows; }
  [[nodiscard]] int cols() const { return figure_.panels.front().values.cols; }
  [[nodiscard]] int grid_columns() const {
    return std::clamp(figure_.grid_columns, 1, static_cast<int>(figure_.panels.size()));
  }
  [[nodiscard]] int grid_rows() const {
    return (static_cast<int>(figure_.panels.size()) + grid_columns() - 1) / grid_columns();
  }
  [[nodiscard]] int grid_width() const { return grid_columns() * panel_width_ + (grid_columns() - 1) * gap_x(); }
  [[nodiscard]] int gap_x() const { return px(22.0); }
  [[nodiscard]] int gap_y() const { return px(16.0); }

  // Cells, then the labels and values that fit them; the notes follow in this order.
  void choose_sizes() {
    cell_ = choose_cell_px(figure_, canvas_, grid_columns());
    geometry_.cell_px = cell_;
    labels_ = choose_axis_labels(figure_, canvas_, cell_);
    geometry_.label_step = labels_.step;
    geometry_.column_labels_vertical = labels_.columns_vertical;
    if (!labels_.note.empty()) notes_.push_back(labels_.note);
    values_ = choose_cell_values(figure_, canvas_, cell_);
    geometry_.values_shown = values_.shown;
    if (!values_.warning.empty()) warnings_.push_back(values_.warning);
    overflow_ = find_values_beyond_range(figure_);
    geometry_.extends_low = overflow_.below;
    geometry_.extends_high = overflow_.above;
    notes_.insert(notes_.end(), overflow_.notes.begin(), overflow_.notes.end());
  }

  // Offsets of the matrix inside a panel, and the panel's size.
  void lay_out_panel_frame() {
    const int gap = px(3.0);
    const bool has_heading = !figure_.panels.front().heading.empty();
    double top = 0.0;
    if (has_heading) top += canvas_.line_height(canvas_.size_px(kHeadingPt), true) + gap;
    if (!figure_.col_axis_title.empty()) top += canvas_.line_height(canvas_.size_px(kAxisTitlePt)) + gap;
    top += labels_.column_band + gap;
    // The colorbar starts level with the matrix; its upper triangle needs room above.
    if (overflow_.above) top = std::max(top, static_cast<double>(extension_height(canvas_) + 2 * px(0.6)));
    double left = 0.0;
    if (!figure_.row_axis_title.empty()) left += canvas_.line_height(canvas_.size_px(kAxisTitlePt)) + gap;
    left += labels_.row_band + gap;
    matrix_left_ = static_cast<int>(std::ceil(left));
    matrix_top_ = static_cast<int>(std::ceil(top));
    // Titles centred over the matrix must not start left of the panel.
    const double matrix_width = static_cast<double>(cols()) * cell_;
    const double widest_title = widest_panel_title();
    const double overhang = widest_title / 2.0 - (matrix_left_ + matrix_width / 2.0);
    if (overhang > 0) matrix_left_ += static_cast<int>(std::ceil(overhang));
    panel_width_ = std::max(matrix_left_ + static_cast<int>(matrix_width),
                            static_cast<int>(std::ceil(matrix_left_ + matrix_width / 2.0 + widest_title / 2.0)));
    // The row axis title, upright beside the matrix, hangs down from its top when longer than
    // the matrix is tall (tiny cells) instead of running into the column labels.
    const double matrix_height = static_cast<double>(rows()) * cell_;
    const double row_title_width = canvas_.width(figure_.row_axis_title, canvas_.size_px(kAxisTitlePt));
    row_title_hangs_ = row_title_width > matrix_height;
    const double row_title_length = row_title_hangs_ ? row_title_width : 0.0;
    panel_height_ = matrix_top_ + static_cast<int>(std::ceil(std::max(matrix_height, row_title_length)));
  }

  // The widest of the texts centred over a matrix: panel headings and the column axis title.
  [[nodiscard]] double widest_panel_title() const {
    double widest = 0.0;
    for (const FigurePanel& panel : figure_.panels) {
      widest = std::max<double>(widest, canvas_.width(panel.heading, canvas_.size_px(kHeadingPt), true));
    }
    return std::max<double>(widest, canvas_.width(figure_.col_axis_title, canvas_.size_px(kAxisTitlePt)));
  }

  // The colorbar spans the grid's matrices; titles and notes wrap at the width of grid and colorbar.
  void choose_colorbar() {
    if (!figure_.binary) {
      const int grid_span = (grid_rows() - 1) * (panel_height_ + gap_y()) + rows() * cell_;
      colorbar_ = plan_colorbar(figure_, canvas_, grid_span);
      geometry_.tick_exponent = colorbar_.tick_exponent;
    }
    const int body_width = grid_width() + colorbar_.width;
    text_width_ = std::max(static_cast<double>(body_width), canvas_.size_px(kMinTextWidthPt));
  }

  void place() {
    Scene& scene = canvas_.scene();
    scene.dpi = figure_.dpi;
    scene.title = figure_.title + (figure_.subtitle.empty() ? "" : " — " + figure_.subtitle);
    scene.font_families = canvas_.font_families();
    scene.hatch_period = std::max(4, px(4.0));
    scene.hatch_width = std::max(1, scene.hatch_period / 3);
    const int margin = px(14.0);
    const double below_title =
        draw_title_block(canvas_, figure_, margin, text_width_, geometry_.title_lines) + px(10.0);
    const int top = static_cast<int>(std::ceil(below_title));
    const int panels_bottom = place_panels(margin, top);
    int bottom = panels_bottom;
    if (!figure_.binary) {
      const PlacedColorbar placed = draw_colorbar(canvas_, figure_, colorbar_, overflow_, margin + grid_width(),
                                                  geometry_.panels.front().matrix_y);
      geometry_.colorbar = placed.ramp;
      bottom = std::max(bottom, placed.bottom);
    }
    draw_legend_and_notes(canvas_, figure_, any_cell_masked(figure_), notes_, margin, bottom + px(12.0), text_width_);
    scene.width = canvas_.right() + margin;
    scene.height = canvas_.bottom() + margin;
  }

  // The panels in their grid from (left, top); returns the bottom of the lowest.
  int place_panels(int left, int top) {
    int panels_bottom = top;
    for (std::size_t i = 0; i < figure_.panels.size(); ++i) {
      const int column = static_cast<int>(i) % grid_columns();
      const int row = static_cast<int>(i) / grid_columns();
      const int origin_x = left + column * (panel_width_ + gap_x());
      const int origin_y = top + row * (panel_height_ + gap_y());
      place_panel(figure_.panels[i], origin_x, origin_y);
      panels_bottom = std::max(panels_bottom, origin_y + panel_height_);
      canvas_.include(origin_x + panel_width_, origin_y + panel_height_);
    }
    return panels_bottom;
  }

  void place_panel(const FigurePanel& panel, int origin_x, int origin_y) {
    const int gap = px(3.0);
    const int matrix_x = origin_x + matrix_left_;
    const int matrix_y = origin_y + matrix_top_;
    geometry_.panels.push_back({matrix_x, matrix_y, rows(), cols()});
    place_titles(panel, origin_x, origin_y, matrix_x, matrix_y, gap);
    draw_axis_labels(canvas_, labels_, cell_, matrix_x, matrix_y, gap);
    draw_cells(canvas_, figure_, panel, matrix_x, matrix_y, cell_, values_);
  }

  // The panel's heading and column axis title centred over the matrix, the row axis title beside it.
  void place_titles(const FigurePanel& panel, int origin_x, int origin_y, int matrix_x, int matrix_y, int gap) {
    const double centre_x = matrix_x + cols() * cell_ / 2.0;
    double y = origin_y;
    if (!panel.heading.empty()) {
      const double size = canvas_.size_px(kHeadingPt);
      canvas_.add_text(panel.heading, centre_x, y + canvas_.ascent(size, true), size, TextAnchor::Middle, kTextColour,
                       true);
      y += canvas_.line_height(size, true) + gap;
    }
    const double size = canvas_.size_px(kAxisTitlePt);
    if (!figure_.col_axis_title.empty()) {
      canvas_.add_text(figure_.col_axis_title, centre_x, y + canvas_.ascent(size), size, TextAnchor::Middle,
                       kMutedText);
    }
    if (figure_.row_axis_title.empty()) return;
    // Vertical, reading upward, centred on the matrix (or hanging from its top when longer).
    const double x = origin_x + canvas_.ascent(size);
    if (row_title_hangs_) {
      canvas_.add_text(figure_.row_axis_title, x, matrix_y, size, TextAnchor::End, kMutedText, false, true);
    } else {
      canvas_.add_text(figure_.row_axis_title, x, matrix_y + rows() * cell_ / 2.0, size, TextAnchor::Middle, kMutedText,
                       false, true);
    }
  }

  const HeatmapFigure& figure_;
  FigureCanvas canvas_;
  FigureGeometry geometry_;
  std::vector<std::string> warnings_;
  std::vector<std::string> notes_;  // the layout's own, after the figure's

  int cell_ = 1;
  AxisLabels labels_;
  CellValues values_;
  RangeOverflow overflow_;
  ColorbarPlan colorbar_;
  int matrix_left_ = 0;
  int matrix_top_ = 0;
  int panel_width_ = 0;
  int panel_height_ = 0;
  bool row_title_hangs_ = false;
  double text_width_ = 0.0;
};

}  // namespace

bool shown_in_colour(const HeatmapFigure& figure, const FigurePanel& panel, std::size_t index) {
  const bool hidden =
      !panel.masked.empty() && panel.masked[index] != 0 && figure.masked_style == MaskedCellStyle::Replace;
  return std::isfinite(panel.values.data[index]) && !hidden;
}

LaidOutFigure lay_out(const HeatmapFigure& figure, const FontPair& fonts) {
  return FigureBuilder(figure, fonts).build();
}

}  // namespace attnviz::exporting
