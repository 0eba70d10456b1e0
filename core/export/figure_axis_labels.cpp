#include "core/export/figure_axis_labels.h"

#include <algorithm>
#include <cmath>

namespace attnviz::exporting {
namespace {

constexpr double kMinLabelPt = 5.0;
constexpr int kMaxLabelCodePoints = 20;
constexpr double kWantedPitch = 1.1;  // line heights per label

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

// Every `step`-th token from position 0 of the whole sequence; prefixed with its position when
// some are skipped, so a reader knows which token each one marks.
std::vector<AxisLabel> thinned(const std::vector<std::string>& texts, int first_index, bool are_positions, int step) {
  std::vector<AxisLabel> out;
  for (int i = 0; i < static_cast<int>(texts.size()); ++i) {
    const int position = first_index + i;
    if (position % step != 0) continue;
    const std::string text = shorten(texts[static_cast<std::size_t>(i)]);
    out.push_back({i, step > 1 && !are_positions ? std::to_string(position) + " " + text : text});
  }
  return out;
}

// The label size that fits the cells, down to a readable minimum; below that, every step-th label.
void choose_size_and_step(AxisLabels& labels, const FigureCanvas& canvas, int cell) {
  labels.size = canvas.size_px(kLabelPt);
  const double pitch = canvas.line_height(labels.size) * kWantedPitch;
  if (pitch > cell) labels.size *= cell / pitch;
  const double min_size = std::max(canvas.size_px(kMinLabelPt), 7.0);
  if (labels.size < min_size) {
    labels.size = min_size;
    labels.step = nice_step(static_cast<int>(std::ceil(canvas.line_height(labels.size) * kWantedPitch / cell)));
  }
}

}  // namespace

double label_gap(double size) { return 0.5 * size; }

double widest_column_label(const HeatmapFigure& figure, const FigureCanvas& canvas, double size) {
  double widest = 0.0;
  for (const std::string& label : figure.col_labels) widest = std::max(widest, canvas.width(shorten(label), size));
  return widest;
}

AxisLabels choose_axis_labels(const HeatmapFigure& figure, const FigureCanvas& canvas, int cell) {
  AxisLabels labels;
  choose_size_and_step(labels, canvas, cell);
  labels.rows = thinned(figure.row_labels, figure.first_row_index, figure.row_labels_are_positions, labels.step);
  labels.cols = thinned(figure.col_labels, figure.first_col_index, figure.col_labels_are_positions, labels.step);
  for (const AxisLabel& label : labels.rows)
    labels.row_band = std::max(labels.row_band, canvas.width(label.text, labels.size));
  double widest_column = 0.0;
  for (const AxisLabel& label : labels.cols)
    widest_column = std::max(widest_column, canvas.width(label.text, labels.size));
  labels.columns_vertical = labels.step > 1 || widest_column > cell - label_gap(labels.size);
  labels.column_band = labels.columns_vertical ? widest_column : canvas.line_height(labels.size);
  const std::string step = std::to_string(labels.step);
  if (labels.step > 1 && figure.cells_are_blocks) {
    labels.note = figure.wording.tr(
        "Only one block in %1$s is labelled (the blocks are too small for all), with the position of its first "
        "token counting from 0.",
        {step});
  } else if (labels.step > 1) {
    labels.note = figure.wording.tr(
        "Only one token in %1$s is labelled (the cells are too small for all), each with its position counting "
        "from 0.",
        {step});
  }
  return labels;
}

void draw_axis_labels(FigureCanvas& canvas, const AxisLabels& labels, int cell, int matrix_x, int matrix_y, int gap) {
  const double label_ascent = canvas.ascent(labels.size);
  const double label_descent = canvas.descent(labels.size);
  for (const AxisLabel& label : labels.rows) {
    const double centre = matrix_y + (label.index + 0.5) * cell;
    canvas.add_text(label.text, matrix_x - gap, canvas.centred_baseline(centre, labels.size), labels.size,
                    TextAnchor::End, kTextColour);
  }
  for (const AxisLabel& label : labels.cols) {
    const double centre = matrix_x + (label.index + 0.5) * cell;
    if (labels.columns_vertical) {
      // Reading upward from just above the matrix; the glyph box is centred on the column.
      canvas.add_text(label.text, centre + (label_ascent - label_descent) / 2.0, matrix_y - gap, labels.size,
                      TextAnchor::Start, kTextColour, false, true);
    } else {
      canvas.add_text(label.text, centre, matrix_y - gap - label_descent, labels.size, TextAnchor::Middle, kTextColour);
    }
  }
}

}  // namespace attnviz::exporting
