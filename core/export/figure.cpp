#include "core/export/figure.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/export/number_format.h"

namespace attnviz::exporting {
namespace {

constexpr Rgb kTextColour{0.08f, 0.08f, 0.08f};
constexpr Rgb kMutedText{0.30f, 0.30f, 0.30f};
constexpr Rgb kFrameColour{0.25f, 0.25f, 0.25f};

// Type sizes in points; pixels follow from the dpi.
constexpr double kTitlePt = 13.0;
constexpr double kSubtitlePt = 9.0;
constexpr double kHeadingPt = 10.0;
constexpr double kAxisTitlePt = 9.0;
constexpr double kLabelPt = 9.0;
constexpr double kMinLabelPt = 5.0;
constexpr double kValuePt = 8.0;
constexpr double kMinValuePt = 5.0;
constexpr double kTickPt = 8.0;
constexpr double kLegendPt = 8.0;
constexpr int kMaxMatrixPixels = 6000;  // the default cell size keeps a matrix side below this
constexpr int kMaxLabelCodePoints = 20;

std::string shorten(const std::string& label) {
  const std::vector<char32_t> code_points = decode_utf8(label);
  if (code_points.size() <= static_cast<std::size_t>(kMaxLabelCodePoints)) return label;
  // Cut at a code point boundary: count lead bytes.
  std::size_t bytes = 0;
  int kept = 0;
  while (bytes < label.size() && kept < kMaxLabelCodePoints - 1) {
    ++bytes;
    while (bytes < label.size() && (static_cast<unsigned char>(label[bytes]) & 0xC0u) == 0x80u) ++bytes;
    ++kept;
  }
  return label.substr(0, bytes) + "…";
}

class FigureBuilder {
 public:
  FigureBuilder(const HeatmapFigure& figure, const FontPair& fonts)
      : figure_(figure), fonts_(fonts), px_per_pt_(figure.dpi / 72.0) {}

  LaidOutFigure build() {
    validate();
    choose_cell_size();
    choose_label_size();
    choose_values();
    lay_out_panel_frame();
    place();
    return {std::move(scene_), std::move(geometry_)};
  }

 private:
  struct Extent {
    int right = 0;
    int bottom = 0;
    void include(double x, double y) {
      right = std::max(right, static_cast<int>(std::ceil(x)));
      bottom = std::max(bottom, static_cast<int>(std::ceil(y)));
    }
  };

  [[nodiscard]] double size_px(double points) const { return points * px_per_pt_; }
  [[nodiscard]] int px(double points) const { return std::max(1, static_cast<int>(std::lround(points * px_per_pt_))); }
  [[nodiscard]] const Font& font(bool bold) const { return bold ? *fonts_.bold : *fonts_.regular; }
  [[nodiscard]] double ascent(double size, bool bold = false) const { return font(bold).ascent(static_cast<float>(size)); }
  [[nodiscard]] double descent(double size, bool bold = false) const { return font(bold).descent(static_cast<float>(size)); }
  [[nodiscard]] double line_height(double size, bool bold = false) const { return ascent(size, bold) + descent(size, bold); }
  [[nodiscard]] double width(const std::string& text, double size, bool bold = false) const {
    return font(bold).measure(text, static_cast<float>(size));
  }
  // Baseline that centres the text's ascent-to-descent box on `centre`.
  [[nodiscard]] double centred_baseline(double centre, double size, bool bold = false) const {
    return centre + (ascent(size, bold) - descent(size, bold)) / 2.0;
  }

  void add_text(std::string text, double x, double y, double size, TextAnchor anchor, Rgb colour, bool bold = false,
                bool vertical = false) {
    scene_.shapes.emplace_back(TextItem{std::move(text), static_cast<float>(x), static_cast<float>(y),
                                        static_cast<float>(size), anchor, vertical, bold, colour});
  }

  void validate() const {
    if (figure_.panels.empty()) throw std::invalid_argument("a figure needs at least one panel");
    const Matrix& first = figure_.panels.front().values;
    for (const FigurePanel& panel : figure_.panels) {
      if (panel.values.rows != first.rows || panel.values.cols != first.cols) {
        throw std::invalid_argument("all panels of a figure need the same shape");
      }
    }
    if (static_cast<int>(figure_.row_labels.size()) != first.rows || static_cast<int>(figure_.col_labels.size()) != first.cols) {
      throw std::invalid_argument("a figure needs one label per row and per column");
    }
  }

  [[nodiscard]] int rows() const { return figure_.panels.front().values.rows; }
  [[nodiscard]] int cols() const { return figure_.panels.front().values.cols; }

  void choose_cell_size() {
    const int n = std::max({rows(), cols(), 1});
    if (figure_.cell_px) {
      cell_ = *figure_.cell_px;
    } else {
      // Big enough for a value in each cell of a small matrix, small enough for long sequences;
      // a grid shares about the width of one figure among its columns.
      const int columns = std::clamp(figure_.grid_columns, 1, static_cast<int>(figure_.panels.size()));
      const double single = n <= 12 ? 28.0 : n <= 24 ? 22.0 : std::max(0.25, 640.0 / n);
      const double points = columns == 1 ? single : std::min(single, std::max(0.25, 720.0 / (n * columns)));
      cell_ = std::min(px(points), std::max(1, kMaxMatrixPixels / (n * columns)));
    }
    geometry_.cell_px = cell_;
  }

  void choose_label_size() {
    for (const std::string& label : figure_.row_labels) row_labels_.push_back(shorten(label));
    for (const std::string& label : figure_.col_labels) col_labels_.push_back(shorten(label));
    label_size_ = size_px(kLabelPt);
    const double wanted_pitch = 1.1;  // line heights per label
    if (line_height(label_size_) * wanted_pitch > cell_) label_size_ *= cell_ / (line_height(label_size_) * wanted_pitch);
    const double min_size = std::max(size_px(kMinLabelPt), 7.0);
    if (label_size_ < min_size) {
      label_size_ = min_size;
      label_step_ = static_cast<int>(std::ceil(line_height(label_size_) * wanted_pitch / cell_));
    }
    geometry_.label_step = label_step_;
    for (const std::string& label : row_labels_) row_band_ = std::max(row_band_, width(label, label_size_));
    double widest_column = 0.0;
    for (const std::string& label : col_labels_) widest_column = std::max(widest_column, width(label, label_size_));
    columns_vertical_ = label_step_ > 1 || widest_column > cell_ - size_px(2.0);
    column_band_ = columns_vertical_ ? widest_column : line_height(label_size_);
    geometry_.column_labels_vertical = columns_vertical_;
  }

  [[nodiscard]] std::string value_text(float value) const { return fixed_text(value, figure_.value_decimals); }

  [[nodiscard]] bool shows_value(const FigurePanel& panel, std::size_t index) const {
    const bool masked = !panel.masked.empty() && panel.masked[index] != 0;
    const float value = panel.values.data[index];
    return std::isfinite(value) && !masked;
  }

  void choose_values() {
    if (figure_.binary || figure_.values == ValuesMode::Off) return;
    double widest = 0.0;
    value_size_ = size_px(kValuePt);
    for (const FigurePanel& panel : figure_.panels) {
      for (std::size_t i = 0; i < panel.values.data.size(); ++i) {
        if (shows_value(panel, i)) widest = std::max(widest, width(value_text(panel.values.data[i]), value_size_));
      }
    }
    if (widest <= 0.0) return;
    value_size_ *= std::min({1.0, 0.86 * cell_ / widest, 0.8 * cell_ / line_height(value_size_)});
    const double readable = std::max(size_px(kMinValuePt), 7.0);
    const int n = std::max(rows(), cols());
    values_shown_ = figure_.values == ValuesMode::On ? value_size_ >= 4.0 : n <= 24 && value_size_ >= readable;
    geometry_.values_shown = values_shown_;
  }

  // Offsets of the matrix inside a panel, and the panel's size.
  void lay_out_panel_frame() {
    const int gap = px(3.0);
    const bool has_heading = !figure_.panels.front().heading.empty();
    double top = 0.0;
    if (has_heading) top += line_height(size_px(kHeadingPt), true) + gap;
    if (!figure_.col_axis_title.empty()) top += line_height(size_px(kAxisTitlePt)) + gap;
    top += column_band_ + gap;
    double left = 0.0;
    if (!figure_.row_axis_title.empty()) left += line_height(size_px(kAxisTitlePt)) + gap;
    left += row_band_ + gap;
    matrix_left_ = static_cast<int>(std::ceil(left));
    matrix_top_ = static_cast<int>(std::ceil(top));
    // Titles centred over the matrix must not start left of the panel.
    const double matrix_width = static_cast<double>(cols()) * cell_;
    double widest_title = width(figure_.panels.front().heading, size_px(kHeadingPt), true);
    for (const FigurePanel& panel : figure_.panels) widest_title = std::max<double>(widest_title, width(panel.heading, size_px(kHeadingPt), true));
    widest_title = std::max<double>(widest_title, width(figure_.col_axis_title, size_px(kAxisTitlePt)));
    const double overhang = widest_title / 2.0 - (matrix_left_ + matrix_width / 2.0);
    if (overhang > 0) matrix_left_ += static_cast<int>(std::ceil(overhang));
    panel_width_ = std::max(matrix_left_ + static_cast<int>(matrix_width),
                            static_cast<int>(std::ceil(matrix_left_ + matrix_width / 2.0 + widest_title / 2.0)));
    panel_height_ = matrix_top_ + rows() * cell_;
  }

  void place() {
    scene_.dpi = figure_.dpi;
    scene_.title = figure_.title + (figure_.subtitle.empty() ? "" : " — " + figure_.subtitle);
    scene_.hatch_period = std::max(4, px(4.0));
    scene_.hatch_width = std::max(1, scene_.hatch_period / 3);
    const int margin = px(14.0);
    double y = margin;
    if (!figure_.title.empty()) {
      add_text(figure_.title, margin, y + ascent(size_px(kTitlePt), true), size_px(kTitlePt), TextAnchor::Start, kTextColour, true);
      extent_.include(margin + width(figure_.title, size_px(kTitlePt), true), y);
      y += line_height(size_px(kTitlePt), true) + px(2.0);
    }
    if (!figure_.subtitle.empty()) {
      add_text(figure_.subtitle, margin, y + ascent(size_px(kSubtitlePt)), size_px(kSubtitlePt), TextAnchor::Start, kMutedText);
      extent_.include(margin + width(figure_.subtitle, size_px(kSubtitlePt)), y);
      y += line_height(size_px(kSubtitlePt));
    }
    y += px(10.0);

    const int grid_columns = std::clamp(figure_.grid_columns, 1, static_cast<int>(figure_.panels.size()));
    const int gap_x = px(22.0);
    const int gap_y = px(16.0);
    const int top = static_cast<int>(std::ceil(y));
    int panels_bottom = top;
    for (std::size_t i = 0; i < figure_.panels.size(); ++i) {
      const int column = static_cast<int>(i) % grid_columns;
      const int row = static_cast<int>(i) / grid_columns;
      const int origin_x = margin + column * (panel_width_ + gap_x);
      const int origin_y = top + row * (panel_height_ + gap_y);
      place_panel(figure_.panels[i], origin_x, origin_y);
      panels_bottom = std::max(panels_bottom, origin_y + panel_height_);
      extent_.include(origin_x + panel_width_, origin_y + panel_height_);
    }
    int bottom = panels_bottom;
    if (!figure_.binary) bottom = std::max(bottom, place_colorbar(margin + grid_columns * panel_width_ + (grid_columns - 1) * gap_x));
    place_legend(margin, bottom + px(12.0));
    scene_.width = extent_.right + margin;
    scene_.height = extent_.bottom + margin;
  }

  void place_panel(const FigurePanel& panel, int origin_x, int origin_y) {
    const int gap = px(3.0);
    const int matrix_x = origin_x + matrix_left_;
    const int matrix_y = origin_y + matrix_top_;
    const int matrix_w = cols() * cell_;
    const int matrix_h = rows() * cell_;
    geometry_.panels.push_back({matrix_x, matrix_y, rows(), cols()});
    const double centre_x = matrix_x + matrix_w / 2.0;

    double y = origin_y;
    if (!panel.heading.empty()) {
      const double size = size_px(kHeadingPt);
      add_text(panel.heading, centre_x, y + ascent(size, true), size, TextAnchor::Middle, kTextColour, true);
      y += line_height(size, true) + gap;
    }
    if (!figure_.col_axis_title.empty()) {
      const double size = size_px(kAxisTitlePt);
      add_text(figure_.col_axis_title, centre_x, y + ascent(size), size, TextAnchor::Middle, kMutedText);
    }
    if (!figure_.row_axis_title.empty()) {
      const double size = size_px(kAxisTitlePt);
      // Vertical, reading upward, centred on the matrix: the baseline is a vertical line.
      add_text(figure_.row_axis_title, origin_x + ascent(size), matrix_y + matrix_h / 2.0, size,
               TextAnchor::Middle, kMutedText, false, true);
    }
    place_labels(matrix_x, matrix_y, gap);

    // A thin frame, then the cells over it.
    const int frame = std::max(1, px(0.6));
    scene_.shapes.emplace_back(FillRect{matrix_x - frame, matrix_y - frame, matrix_w + 2 * frame, matrix_h + 2 * frame, kFrameColour});
    CellBlock block;
    block.x = matrix_x;
    block.y = matrix_y;
    block.cell = cell_;
    block.rows = rows();
    block.cols = cols();
    block.values = panel.values.data;
    block.masked = panel.masked;
    block.colormap = figure_.colormap;
    block.low = figure_.range_low;
    block.high = figure_.range_high;
    block.binary = figure_.binary;
    if (figure_.binary && cell_ >= 6) block.gap = std::max(1, px(0.75));
    block.visible_colour = visible_colour();
    block.masked_style = figure_.masked_style;
    if (!panel.masked.empty() && std::find(panel.masked.begin(), panel.masked.end(), 1) != panel.masked.end()) any_masked_ = true;
    if (std::any_of(panel.values.data.begin(), panel.values.data.end(), [](float v) { return !std::isfinite(v); })) any_masked_ = true;
    std::vector<TextItem> values;
    if (values_shown_) values = value_texts(panel, block);
    scene_.shapes.emplace_back(std::move(block));
    for (TextItem& value : values) scene_.shapes.emplace_back(std::move(value));
  }

  void place_labels(int matrix_x, int matrix_y, int gap) {
    const double label_ascent = ascent(label_size_);
    const double label_descent = descent(label_size_);
    for (int r = 0; r < rows(); r += label_step_) {
      const double centre = matrix_y + (r + 0.5) * cell_;
      add_text(row_labels_[static_cast<std::size_t>(r)], matrix_x - gap, centred_baseline(centre, label_size_),
               label_size_, TextAnchor::End, kTextColour);
    }
    for (int c = 0; c < cols(); c += label_step_) {
      const double centre = matrix_x + (c + 0.5) * cell_;
      const std::string& label = col_labels_[static_cast<std::size_t>(c)];
      if (columns_vertical_) {
        // Reading upward from just above the matrix; the glyph box is centred on the column.
        add_text(label, centre + (label_ascent - label_descent) / 2.0, matrix_y - gap, label_size_, TextAnchor::Start, kTextColour, false, true);
      } else {
        add_text(label, centre, matrix_y - gap - label_descent, label_size_, TextAnchor::Middle, kTextColour);
      }
    }
  }

  [[nodiscard]] std::vector<TextItem> value_texts(const FigurePanel& panel, const CellBlock& block) const {
    std::vector<TextItem> texts;
    for (int r = 0; r < rows(); ++r) {
      for (int c = 0; c < cols(); ++c) {
        const std::size_t index = panel.values.index(r, c);
        if (!shows_value(panel, index)) continue;
        const CellLook look = cell_look(block, r, c);
        const Rgb colour = contrasting_text_colour(look.fill);
        const double centre_x = block.x + (c + 0.5) * cell_;
        const double centre_y = block.y + (r + 0.5) * cell_;
        texts.push_back({value_text(panel.values.data[index]), static_cast<float>(centre_x),
                         static_cast<float>(centred_baseline(centre_y, value_size_)), static_cast<float>(value_size_),
                         TextAnchor::Middle, false, false, colour});
      }
    }
    return texts;
  }

  [[nodiscard]] Rgb visible_colour() const { return colormap(figure_.colormap).at(0.75f); }

  // Returns the bottom of the colorbar and its labels.
  int place_colorbar(int panels_right) {
    const PanelGeometry& first = geometry_.panels.front();
    const PanelGeometry& last = geometry_.panels.back();
    const int x = panels_right + px(16.0);
    const int y = first.matrix_y;
    const int w = px(11.0);
    const int h = std::max(last.matrix_y + last.rows * cell_ - y, px(120.0));
    const int frame = std::max(1, px(0.6));
    scene_.shapes.emplace_back(FillRect{x - frame, y - frame, w + 2 * frame, h + 2 * frame, kFrameColour});
    const ColourRamp ramp{x, y, w, h, figure_.colormap};
    scene_.shapes.emplace_back(ramp);
    geometry_.colorbar = ramp;

    const double size = size_px(kTickPt);
    const double low = figure_.range_low;
    const double high = figure_.range_high;
    const std::vector<double> ticks = nice_ticks(low, high, std::clamp(h / px(36.0), 3, 8));
    const int decimals = tick_decimals(ticks);
    const int tick_w = std::max(1, px(0.75));
    double widest = 0.0;
    for (const double tick : ticks) {
      const double ty = y + h - (tick - low) / (high - low) * h;
      scene_.shapes.emplace_back(FillRect{x + w, static_cast<int>(std::lround(ty - tick_w / 2.0)), px(3.0), tick_w, kFrameColour});
      const std::string text = fixed_text(tick, decimals);
      add_text(text, x + w + px(5.0), centred_baseline(ty, size), size, TextAnchor::Start, kTextColour);
      widest = std::max(widest, width(text, size));
    }
    double right = x + w + px(5.0) + widest;
    if (!figure_.colorbar_label.empty()) {
      const double label_size = size_px(kAxisTitlePt);
      const double baseline_x = right + px(6.0) + ascent(label_size);
      add_text(figure_.colorbar_label, baseline_x, y + h / 2.0, label_size, TextAnchor::Middle, kTextColour, false, true);
      right = baseline_x + descent(label_size);
      extent_.include(right, y + h / 2.0 + width(figure_.colorbar_label, label_size) / 2.0);
    }
    extent_.include(right, y + h + frame);
    return y + h + frame;
  }

  void place_legend(int x, int y) {
    const double size = size_px(kLegendPt);
    const int swatch = px(10.0);
    const int frame = std::max(1, px(0.5));
    double cursor = x;
    bool any_item = false;
    auto item = [&](const std::string& text, const std::optional<Rgb>& fill, const std::optional<HatchStyle>& hatch) {
      scene_.shapes.emplace_back(FillRect{static_cast<int>(cursor) - frame, y - frame, swatch + 2 * frame, swatch + 2 * frame, kFrameColour});
      if (fill) scene_.shapes.emplace_back(FillRect{static_cast<int>(cursor), y, swatch, swatch, *fill});
      if (hatch) scene_.shapes.emplace_back(HatchRect{static_cast<int>(cursor), y, swatch, swatch, *hatch});
      const double text_x = cursor + swatch + px(4.0);
      add_text(text, text_x, centred_baseline(y + swatch / 2.0, size), size, TextAnchor::Start, kTextColour);
      cursor = text_x + width(text, size) + px(14.0);
      extent_.include(cursor - px(14.0), y + swatch + frame);
      any_item = true;
    };
    if (figure_.binary && !figure_.visible_legend.empty()) item(figure_.visible_legend, visible_colour(), std::nullopt);
    if (any_masked_ && !figure_.masked_legend.empty()) {
      if (figure_.masked_style == MaskedCellStyle::Overlay && !figure_.binary) {
        item(figure_.masked_legend, faded(colormap(figure_.colormap).at(0.8f)), overlay_hatch());
      } else {
        item(figure_.masked_legend, std::nullopt, masked_hatch());
      }
    }
    double line_y = any_item ? y + swatch + px(6.0) : y;
    for (const std::string& note : figure_.notes) {
      add_text(note, x, line_y + ascent(size), size, TextAnchor::Start, kMutedText);
      extent_.include(x + width(note, size), line_y + line_height(size));
      line_y += line_height(size) * 1.25;
    }
  }

  const HeatmapFigure& figure_;
  const FontPair& fonts_;
  double px_per_pt_;
  Scene scene_;
  FigureGeometry geometry_;
  Extent extent_;

  int cell_ = 1;
  std::vector<std::string> row_labels_;
  std::vector<std::string> col_labels_;
  double label_size_ = 12.0;
  int label_step_ = 1;
  double row_band_ = 0.0;
  double column_band_ = 0.0;
  bool columns_vertical_ = false;
  double value_size_ = 10.0;
  bool values_shown_ = false;
  int matrix_left_ = 0;
  int matrix_top_ = 0;
  int panel_width_ = 0;
  int panel_height_ = 0;
  bool any_masked_ = false;
};

}  // namespace

LaidOutFigure lay_out(const HeatmapFigure& figure, const FontPair& fonts) {
  return FigureBuilder(figure, fonts).build();
}

}  // namespace attnviz::exporting
