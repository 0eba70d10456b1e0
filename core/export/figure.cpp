#include "core/export/figure.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/export/number_format.h"
#include "core/export/text_wrap.h"

namespace attnviz::exporting {
namespace {

constexpr Rgb kTextColour{0.08f, 0.08f, 0.08f};
constexpr Rgb kMutedText{0.30f, 0.30f, 0.30f};
constexpr Rgb kFrameColour{0.25f, 0.25f, 0.25f};

// Type sizes in points (the em, as in CSS and word processors); pixels follow from the dpi.
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
constexpr double kExponentScale = 0.72;  // a raised exponent's size relative to its base
constexpr double kMinMatrixSidePt = 48.0;  // two thirds of an inch
constexpr double kMinColorbarPt = 72.0;
constexpr double kMinTextWidthPt = 200.0;  // titles and notes wrap at the figure's width, but not narrower
constexpr int kMaxMatrixPixels = 6000;    // the default cell size keeps a matrix side below this
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

// The smallest of 1, 2, 5, 10, 20, 50, … that is at least `raw`: labelled positions are then
// round numbers (0, 10, 20, …) a reader can count from.
int nice_step(int raw) {
  for (int decade = 1;; decade *= 10) {
    for (const int mantissa : {1, 2, 5}) {
      if (mantissa * decade >= raw) return mantissa * decade;
    }
  }
}

// "2nd", "10th": the steps nice_step gives.
std::string ordinal(int n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

// Shortest text that reads back as the float, as a reader writes it: "0.0001", "0.122", and
// "1e-8" rather than "1e-08" for values too small or large for plain decimals.
std::string short_number(double value) {
  char buffer[64];
  const auto single = static_cast<float>(value);
  const double magnitude = std::abs(value);
  const bool plain = magnitude == 0.0 || (magnitude >= 0.99999e-4 && magnitude < 1e6);  // 1e-4f is just under 1e-4
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, single, plain ? std::chars_format::fixed : std::chars_format::scientific);
  std::string text(buffer, result.ptr);
  if (const std::size_t e = text.find('e'); e != std::string::npos) {
    text = text.substr(0, e) + "e" + std::to_string(std::stoi(text.substr(e + 1)));
  }
  return text;
}

// A piece of text drawn at its own size, raised above the baseline by `raise` pixels: lets
// "×10" and a smaller "-8" above it read as a power of ten in any font.
struct Run {
  std::string text;
  double size = 0.0;
  double raise = 0.0;
};

class FigureBuilder {
 public:
  FigureBuilder(const HeatmapFigure& figure, const FontPair& fonts)
      : figure_(figure), fonts_(fonts), px_per_pt_(figure.dpi / 72.0) {}

  LaidOutFigure build() {
    validate();
    choose_cell_size();
    choose_label_size();
    choose_values();
    find_values_beyond_range();
    lay_out_panel_frame();
    choose_colorbar();
    place();
    return {std::move(scene_), std::move(geometry_), std::move(warnings_)};
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

  struct Label {
    int index = 0;  // row or column in the panel
    std::string text;
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
  // Lines no wider than the figure; with a `separator`, broken between the parts it joins first.
  [[nodiscard]] std::vector<std::string> wrapped(const std::string& text, double size, bool bold,
                                                 std::string_view separator = {}) const {
    const auto measure = [&](const std::string& line) { return width(line, size, bold); };
    return separator.empty() ? wrap_text(text, text_width_, measure) : wrap_parts(text, separator, text_width_, measure);
  }

  void add_text(std::string text, double x, double y, double size, TextAnchor anchor, Rgb colour, bool bold = false,
                bool vertical = false) {
    scene_.shapes.emplace_back(TextItem{std::move(text), static_cast<float>(x), static_cast<float>(y),
                                        static_cast<float>(size), anchor, vertical, bold, colour});
  }

  // A number with an optional raised exponent as runs at `size`.
  [[nodiscard]] std::vector<Run> power_runs(const PowerText& text, double size) const {
    std::vector<Run> runs{{text.base, size, 0.0}};
    if (!text.exponent.empty()) runs.push_back({text.exponent, size * kExponentScale, 0.42 * size});
    return runs;
  }
  [[nodiscard]] double runs_width(const std::vector<Run>& runs) const {
    double total = 0.0;
    for (const Run& run : runs) total += width(run.text, run.size);
    return total;
  }
  // Runs side by side from an anchor on the baseline; vertical runs read upward, as add_text's.
  void add_runs(const std::vector<Run>& runs, double x, double y, TextAnchor anchor, Rgb colour, bool vertical = false) {
    const double total = runs_width(runs);
    double along = anchor == TextAnchor::Start ? 0.0 : anchor == TextAnchor::Middle ? -total / 2.0 : -total;
    for (const Run& run : runs) {
      // In the text's frame: `along` the baseline, `raise` up from it.
      const double rx = vertical ? x - run.raise : x + along;
      const double ry = vertical ? y - along : y - run.raise;
      add_text(run.text, rx, ry, run.size, TextAnchor::Start, colour, false, vertical);
      along += width(run.text, run.size);
    }
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
  [[nodiscard]] int grid_columns() const { return std::clamp(figure_.grid_columns, 1, static_cast<int>(figure_.panels.size())); }
  [[nodiscard]] int grid_rows() const {
    return (static_cast<int>(figure_.panels.size()) + grid_columns() - 1) / grid_columns();
  }

  // Space between neighbouring upright column labels: half an em.
  [[nodiscard]] static double label_gap(double size) { return 0.5 * size; }
  [[nodiscard]] double widest_column_label(double size) const {
    double widest = 0.0;
    for (const std::string& label : figure_.col_labels) widest = std::max(widest, width(shorten(label), size));
    return widest;
  }

  void choose_cell_size() {
    const int n = std::max({rows(), cols(), 1});
    if (figure_.cell_px) {
      cell_ = *figure_.cell_px;
    } else {
      // Big enough for a value in each cell of a small matrix, small enough for long sequences;
      // a grid shares about the width of one figure among its columns.
      const int columns = grid_columns();
      const double single = n <= 12 ? 28.0 : n <= 24 ? 22.0 : std::max(0.25, 640.0 / n);
      const double points = columns == 1 ? single : std::min(single, std::max(0.25, 720.0 / (n * columns)));
      cell_ = std::min(px(points), std::max(1, kMaxMatrixPixels / (n * columns)));
      // Cells a little wider (up to a quarter) when that keeps the column labels upright with
      // half an em between them: "고파서 치킨을" upright reads better than sideways or run together.
      const double widest = widest_column_label(size_px(kLabelPt));
      const double wanted = widest + label_gap(size_px(kLabelPt));
      if (n <= 24 && wanted > cell_ && wanted <= 1.25 * cell_) cell_ = static_cast<int>(std::ceil(wanted));
      // A matrix of one or two tokens still gets room for its colorbar and axis titles.
      const int min_side = min_matrix_side_px(figure_.dpi);
      if (cell_ * n < min_side) cell_ = (min_side + n - 1) / n;
    }
    geometry_.cell_px = cell_;
  }

  // Every label_step-th token from position 0 of the whole sequence; prefixed with its position
  // when some are skipped, so a reader knows which token each one marks.
  [[nodiscard]] std::vector<Label> labels(const std::vector<std::string>& texts, int first_index, bool are_positions) const {
    std::vector<Label> out;
    for (int i = 0; i < static_cast<int>(texts.size()); ++i) {
      const int position = first_index + i;
      if (position % label_step_ != 0) continue;
      const std::string text = shorten(texts[static_cast<std::size_t>(i)]);
      out.push_back({i, label_step_ > 1 && !are_positions ? std::to_string(position) + " " + text : text});
    }
    return out;
  }

  void choose_label_size() {
    label_size_ = size_px(kLabelPt);
    const double wanted_pitch = 1.1;  // line heights per label
    if (line_height(label_size_) * wanted_pitch > cell_) label_size_ *= cell_ / (line_height(label_size_) * wanted_pitch);
    const double min_size = std::max(size_px(kMinLabelPt), 7.0);
    if (label_size_ < min_size) {
      label_size_ = min_size;
      label_step_ = nice_step(static_cast<int>(std::ceil(line_height(label_size_) * wanted_pitch / cell_)));
    }
    geometry_.label_step = label_step_;
    row_labels_ = labels(figure_.row_labels, figure_.first_row_index, false);
    col_labels_ = labels(figure_.col_labels, figure_.first_col_index, figure_.col_labels_are_positions);
    for (const Label& label : row_labels_) row_band_ = std::max(row_band_, width(label.text, label_size_));
    double widest_column = 0.0;
    for (const Label& label : col_labels_) widest_column = std::max(widest_column, width(label.text, label_size_));
    columns_vertical_ = label_step_ > 1 || widest_column > cell_ - label_gap(label_size_);
    column_band_ = columns_vertical_ ? widest_column : line_height(label_size_);
    geometry_.column_labels_vertical = columns_vertical_;
    if (label_step_ > 1) {
      notes_.push_back("Only every " + ordinal(label_step_) +
                       " token is labelled (the cells are too small for all), each with its position counting from 0.");
    }
  }

  [[nodiscard]] std::string value_text(float value) const {
    return figure_.value_scientific ? scientific_text(value) : fixed_text(value, figure_.value_decimals);
  }

  [[nodiscard]] bool shows_value(const FigurePanel& panel, std::size_t index) const {
    const bool masked = !panel.masked.empty() && panel.masked[index] != 0;
    const float value = panel.values.data[index];
    return std::isfinite(value) && !masked;
  }

  void choose_values() {
    if (figure_.binary || figure_.values == ValuesMode::Off) return;
    double widest = 0.0;
    const double full_size = size_px(kValuePt);
    for (const FigurePanel& panel : figure_.panels) {
      for (std::size_t i = 0; i < panel.values.data.size(); ++i) {
        if (shows_value(panel, i)) widest = std::max(widest, width(value_text(panel.values.data[i]), full_size));
      }
    }
    if (widest <= 0.0) return;
    const double full_height = line_height(full_size);
    value_size_ = full_size * std::min({1.0, 0.86 * cell_ / widest, 0.8 * cell_ / full_height});
    const double readable = std::max(size_px(kMinValuePt), 7.0);
    const int n = std::max(rows(), cols());
    values_shown_ = figure_.values == ValuesMode::On ? value_size_ >= 4.0 : n <= 24 && value_size_ >= readable;
    geometry_.values_shown = values_shown_;
    if (figure_.values == ValuesMode::On && !values_shown_) {
      // The cell size at which the numbers reach the smallest readable size.
      const double factor = readable / full_size;
      const int needed = static_cast<int>(std::ceil(std::max(factor * widest / 0.86, factor * full_height / 0.8)));
      warnings_.push_back("--values on: numbers left out, cells of " + std::to_string(cell_) +
                          " pixels are too small for them; they need --cell " + std::to_string(needed) +
                          " or more, or fewer rows and columns (--rows, --cols)");
    }
  }

  // Values the colour range does not reach are drawn in its end colours: the colorbar gets a
  // triangle at that end (as matplotlib's extend), and a note says how many.
  void find_values_beyond_range() {
    if (figure_.binary) return;
    int below = 0;
    int above = 0;
    for (const FigurePanel& panel : figure_.panels) {
      for (std::size_t i = 0; i < panel.values.data.size(); ++i) {
        const float value = panel.values.data[i];
        const bool hidden = !panel.masked.empty() && panel.masked[i] != 0 && figure_.masked_style == MaskedCellStyle::Replace;
        if (hidden || !std::isfinite(value)) continue;
        if (value < figure_.range_low || (figure_.log_scale && value <= 0.0f)) ++below;
        if (value > figure_.range_high) ++above;
      }
    }
    geometry_.extends_low = below > 0;
    geometry_.extends_high = above > 0;
    const auto cells = [](int count) { return std::to_string(count) + (count == 1 ? " cell" : " cells"); };
    if (below > 0) {
      notes_.push_back(cells(below) + " below " + short_number(figure_.range_low) +
                       " drawn in the bottom colour (the triangle under the colorbar).");
    }
    if (above > 0) {
      notes_.push_back(cells(above) + " above " + short_number(figure_.range_high) +
                       " drawn in the top colour (the triangle over the colorbar).");
    }
  }

  [[nodiscard]] int triangle_height() const { return px(7.0); }

  // Offsets of the matrix inside a panel, and the panel's size.
  void lay_out_panel_frame() {
    const int gap = px(3.0);
    const bool has_heading = !figure_.panels.front().heading.empty();
    double top = 0.0;
    if (has_heading) top += line_height(size_px(kHeadingPt), true) + gap;
    if (!figure_.col_axis_title.empty()) top += line_height(size_px(kAxisTitlePt)) + gap;
    top += column_band_ + gap;
    // The colorbar starts level with the matrix; its upper triangle needs room above.
    if (geometry_.extends_high) top = std::max(top, static_cast<double>(triangle_height() + 2 * px(0.6)));
    double left = 0.0;
    if (!figure_.row_axis_title.empty()) left += line_height(size_px(kAxisTitlePt)) + gap;
    left += row_band_ + gap;
    matrix_left_ = static_cast<int>(std::ceil(left));
    matrix_top_ = static_cast<int>(std::ceil(top));
    // Titles centred over the matrix must not start left of the panel.
    const double matrix_width = static_cast<double>(cols()) * cell_;
    double widest_title = 0.0;
    for (const FigurePanel& panel : figure_.panels) widest_title = std::max<double>(widest_title, width(panel.heading, size_px(kHeadingPt), true));
    widest_title = std::max<double>(widest_title, width(figure_.col_axis_title, size_px(kAxisTitlePt)));
    const double overhang = widest_title / 2.0 - (matrix_left_ + matrix_width / 2.0);
    if (overhang > 0) matrix_left_ += static_cast<int>(std::ceil(overhang));
    panel_width_ = std::max(matrix_left_ + static_cast<int>(matrix_width),
                            static_cast<int>(std::ceil(matrix_left_ + matrix_width / 2.0 + widest_title / 2.0)));
    // The row axis title, upright beside the matrix, hangs down from its top when longer than
    // the matrix is tall (tiny cells) instead of running into the column labels.
    const double matrix_height = static_cast<double>(rows()) * cell_;
    row_title_hangs_ = width(figure_.row_axis_title, size_px(kAxisTitlePt)) > matrix_height;
    const double row_title_length = row_title_hangs_ ? width(figure_.row_axis_title, size_px(kAxisTitlePt)) : 0.0;
    panel_height_ = matrix_top_ + static_cast<int>(std::ceil(std::max(matrix_height, row_title_length)));
  }

  [[nodiscard]] int grid_width() const { return grid_columns() * panel_width_ + (grid_columns() - 1) * gap_x(); }
  [[nodiscard]] int gap_x() const { return px(22.0); }
  [[nodiscard]] int gap_y() const { return px(16.0); }

  // The colorbar's size, ticks and texts (positions come in place_colorbar).
  void choose_colorbar() {
    const int grid_span = (grid_rows() - 1) * (panel_height_ + gap_y()) + rows() * cell_;
    const double label_size = size_px(kAxisTitlePt);
    const double tick_size = size_px(kTickPt);
    if (!figure_.binary) {
      const double low = figure_.range_low;
      const double high = figure_.range_high;
      std::string exponent;
      // Ticks from the minimum height first: the label's length depends on the exponent.
      colorbar_h_ = std::max(grid_span, px(kMinColorbarPt));
      const int target = std::clamp(colorbar_h_ / px(36.0), 3, 8);
      if (figure_.log_scale) {
        ticks_ = log_ticks(low, high, target);
        for (const PowerText& text : log_tick_texts(ticks_)) tick_texts_.push_back(power_runs(text, tick_size));
      } else {
        ticks_ = nice_ticks(low, high, target);
        for (const std::string& text : linear_tick_texts(ticks_, exponent)) tick_texts_.push_back({{text, tick_size, 0.0}});
      }
      geometry_.tick_exponent = exponent;
      // "Vulkan - Eigen (×10⁻⁸)": the ticks' common power of ten goes with the label.
      if (!exponent.empty()) {
        const std::string open = figure_.colorbar_label.empty() ? "×10" : figure_.colorbar_label + " (×10";
        colorbar_label_ = {{open, label_size, 0.0}, {exponent, label_size * kExponentScale, 0.42 * label_size}};
        if (!figure_.colorbar_label.empty()) colorbar_label_.push_back({")", label_size, 0.0});
      } else if (!figure_.colorbar_label.empty()) {
        colorbar_label_ = {{figure_.colorbar_label, label_size, 0.0}};
      }
      // Long enough for its label, which stands beside it.
      colorbar_h_ = std::max(colorbar_h_, static_cast<int>(std::ceil(runs_width(colorbar_label_))) + px(8.0));
      double widest = 0.0;
      for (const auto& text : tick_texts_) widest = std::max(widest, runs_width(text));
      colorbar_width_ = px(16.0) + px(11.0) + px(5.0) + static_cast<int>(std::ceil(widest));
      if (!colorbar_label_.empty()) colorbar_width_ += px(6.0) + static_cast<int>(std::ceil(line_height(label_size)));
    }
    // Titles and notes wrap at the figure's width (a long title must not widen the image).
    const int body_width = grid_width() + colorbar_width_;
    text_width_ = std::max(static_cast<double>(body_width), size_px(kMinTextWidthPt));
  }

  // Lines of `text` from `y` (the top of the first line); returns the y below the last line.
  double add_wrapped(const std::string& text, double x, double y, double size, Rgb colour, bool bold, double spacing,
                     int* lines = nullptr, std::string_view separator = {}) {
    const std::vector<std::string> parts = wrapped(text, size, bold, separator);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      add_text(parts[i], x, y + ascent(size, bold), size, TextAnchor::Start, colour, bold);
      extent_.include(x + width(parts[i], size, bold), y + line_height(size, bold));
      y += line_height(size, bold) * (i + 1 < parts.size() ? spacing : 1.0);
    }
    if (lines != nullptr) *lines = static_cast<int>(parts.size());
    return y;
  }

  void place() {
    scene_.dpi = figure_.dpi;
    scene_.title = figure_.title + (figure_.subtitle.empty() ? "" : " — " + figure_.subtitle);
    scene_.font_family = fonts_.regular->family();
    scene_.hatch_period = std::max(4, px(4.0));
    scene_.hatch_width = std::max(1, scene_.hatch_period / 3);
    const int margin = px(14.0);
    double y = margin;
    if (!figure_.title.empty()) {
      y = add_wrapped(figure_.title, margin, y, size_px(kTitlePt), kTextColour, true, 1.05, &geometry_.title_lines) + px(2.0);
    }
    if (!figure_.subtitle.empty()) {
      y = add_wrapped(figure_.subtitle, margin, y, size_px(kSubtitlePt), kMutedText, false, 1.1, nullptr, " · ");
    }
    y += px(10.0);

    const int top = static_cast<int>(std::ceil(y));
    int panels_bottom = top;
    for (std::size_t i = 0; i < figure_.panels.size(); ++i) {
      const int column = static_cast<int>(i) % grid_columns();
      const int row = static_cast<int>(i) / grid_columns();
      const int origin_x = margin + column * (panel_width_ + gap_x());
      const int origin_y = top + row * (panel_height_ + gap_y());
      place_panel(figure_.panels[i], origin_x, origin_y);
      panels_bottom = std::max(panels_bottom, origin_y + panel_height_);
      extent_.include(origin_x + panel_width_, origin_y + panel_height_);
    }
    int bottom = panels_bottom;
    if (!figure_.binary) bottom = std::max(bottom, place_colorbar(margin + grid_width()));
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
      // Vertical, reading upward, centred on the matrix (or hanging from its top when longer).
      if (row_title_hangs_) {
        add_text(figure_.row_axis_title, origin_x + ascent(size), matrix_y, size, TextAnchor::End, kMutedText, false, true);
      } else {
        add_text(figure_.row_axis_title, origin_x + ascent(size), matrix_y + matrix_h / 2.0, size, TextAnchor::Middle,
                 kMutedText, false, true);
      }
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
    block.log_scale = figure_.log_scale;
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
    for (const Label& label : row_labels_) {
      const double centre = matrix_y + (label.index + 0.5) * cell_;
      add_text(label.text, matrix_x - gap, centred_baseline(centre, label_size_), label_size_, TextAnchor::End, kTextColour);
    }
    for (const Label& label : col_labels_) {
      const double centre = matrix_x + (label.index + 0.5) * cell_;
      if (columns_vertical_) {
        // Reading upward from just above the matrix; the glyph box is centred on the column.
        add_text(label.text, centre + (label_ascent - label_descent) / 2.0, matrix_y - gap, label_size_, TextAnchor::Start,
                 kTextColour, false, true);
      } else {
        add_text(label.text, centre, matrix_y - gap - label_descent, label_size_, TextAnchor::Middle, kTextColour);
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

  // Where a tick value sits on the colour scale, 0 (bottom) to 1 (top).
  [[nodiscard]] double tick_position(double tick) const {
    return colormap_position(figure_.range_low, figure_.range_high, figure_.log_scale, static_cast<float>(tick));
  }

  // A triangle beyond one end of the bar (apex away from it), framed like the bar.
  void add_extension(int x, int w, double base_y, double direction, Rgb colour) {
    const double frame = std::max(1, px(0.6));
    const double tip = base_y + direction * triangle_height();
    const double centre = x + w / 2.0;
    // The frame: the same triangle grown by the frame's width (its apex by about twice that).
    scene_.shapes.emplace_back(Triangle{static_cast<float>(x - frame), static_cast<float>(base_y),
                                        static_cast<float>(x + w + frame), static_cast<float>(base_y),
                                        static_cast<float>(centre), static_cast<float>(tip + direction * 2.2 * frame), kFrameColour});
    scene_.shapes.emplace_back(Triangle{static_cast<float>(x), static_cast<float>(base_y), static_cast<float>(x + w),
                                        static_cast<float>(base_y), static_cast<float>(centre), static_cast<float>(tip), colour});
  }

  // Returns the bottom of the colorbar and its labels.
  int place_colorbar(int panels_right) {
    const PanelGeometry& first = geometry_.panels.front();
    const int x = panels_right + px(16.0);
    const int y = first.matrix_y;
    const int w = px(11.0);
    const int h = colorbar_h_;
    const int frame = std::max(1, px(0.6));
    const Colormap& map = colormap(figure_.colormap);
    if (geometry_.extends_low) add_extension(x, w, y + h + frame, 1.0, map.at(0.0f));
    if (geometry_.extends_high) add_extension(x, w, y - frame, -1.0, map.at(1.0f));
    scene_.shapes.emplace_back(FillRect{x - frame, y - frame, w + 2 * frame, h + 2 * frame, kFrameColour});
    const ColourRamp ramp{x, y, w, h, figure_.colormap};
    scene_.shapes.emplace_back(ramp);
    geometry_.colorbar = ramp;

    const double size = size_px(kTickPt);
    const int tick_w = std::max(1, px(0.75));
    double widest = 0.0;
    for (std::size_t i = 0; i < ticks_.size(); ++i) {
      const double ty = y + h - tick_position(ticks_[i]) * h;
      scene_.shapes.emplace_back(FillRect{x + w, static_cast<int>(std::lround(ty - tick_w / 2.0)), px(3.0), tick_w, kFrameColour});
      add_runs(tick_texts_[i], x + w + px(5.0), centred_baseline(ty, size), TextAnchor::Start, kTextColour);
      widest = std::max(widest, runs_width(tick_texts_[i]));
      extent_.include(x + w + px(5.0) + runs_width(tick_texts_[i]), ty + descent(size));
    }
    double right = x + w + px(5.0) + widest;
    if (!colorbar_label_.empty()) {
      const double label_size = size_px(kAxisTitlePt);
      const double baseline_x = right + px(6.0) + ascent(label_size);
      add_runs(colorbar_label_, baseline_x, y + h / 2.0, TextAnchor::Middle, kTextColour, true);
      right = baseline_x + descent(label_size);
      extent_.include(right, y + h / 2.0 + runs_width(colorbar_label_) / 2.0);
    }
    const int bottom = y + h + frame + (geometry_.extends_low ? triangle_height() + 3 * frame : 0);
    extent_.include(right, bottom);
    return bottom;
  }

  void place_legend(int x, int y) {
    const double size = size_px(kLegendPt);
    const int swatch = px(10.0);
    const int frame = std::max(1, px(0.5));
    const int spacing = px(14.0);
    double cursor = x;
    int line_top = y;
    bool any_item = false;
    auto item = [&](const std::string& text, const std::optional<Rgb>& fill, const std::optional<HatchStyle>& hatch) {
      const double item_width = swatch + px(4.0) + width(text, size);
      // Items side by side while they fit the figure's width, then on the next line.
      if (any_item && cursor + item_width > x + text_width_) {
        cursor = x;
        line_top += swatch + px(6.0);
      }
      const int left = static_cast<int>(cursor);
      scene_.shapes.emplace_back(FillRect{left - frame, line_top - frame, swatch + 2 * frame, swatch + 2 * frame, kFrameColour});
      if (fill) scene_.shapes.emplace_back(FillRect{left, line_top, swatch, swatch, *fill});
      if (hatch) scene_.shapes.emplace_back(HatchRect{left, line_top, swatch, swatch, *hatch});
      const double text_x = cursor + swatch + px(4.0);
      add_text(text, text_x, centred_baseline(line_top + swatch / 2.0, size), size, TextAnchor::Start, kTextColour);
      extent_.include(text_x + width(text, size), line_top + swatch + frame);
      cursor = text_x + width(text, size) + spacing;
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
    double line_y = any_item ? line_top + swatch + px(6.0) : y;
    std::vector<std::string> notes = figure_.notes;
    notes.insert(notes.end(), notes_.begin(), notes_.end());
    for (const std::string& note : notes) {
      line_y = add_wrapped(note, x, line_y, size, kMutedText, false, 1.15) + line_height(size) * 0.25;
    }
  }

  const HeatmapFigure& figure_;
  const FontPair& fonts_;
  double px_per_pt_;
  Scene scene_;
  FigureGeometry geometry_;
  std::vector<std::string> warnings_;
  std::vector<std::string> notes_;  // the layout's own, after the figure's
  Extent extent_;

  int cell_ = 1;
  std::vector<Label> row_labels_;
  std::vector<Label> col_labels_;
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
  bool row_title_hangs_ = false;
  bool any_masked_ = false;
  int colorbar_h_ = 0;
  int colorbar_width_ = 0;
  std::vector<double> ticks_;
  std::vector<std::vector<Run>> tick_texts_;
  std::vector<Run> colorbar_label_;
  double text_width_ = 0.0;
};

}  // namespace

LaidOutFigure lay_out(const HeatmapFigure& figure, const FontPair& fonts) {
  return FigureBuilder(figure, fonts).build();
}

int min_matrix_side_px(int dpi) { return static_cast<int>(std::lround(kMinMatrixSidePt * dpi / 72.0)); }

}  // namespace attnviz::exporting
