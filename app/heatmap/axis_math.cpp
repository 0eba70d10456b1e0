#include "app/heatmap/axis_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app/i18n/translate.h"
#include "core/common/number_text.h"

namespace attnviz::heatmap {

int nice_label_step(float cell_px, float label_px) {
  if (!(cell_px > 0.0f)) return 1;
  const float needed = label_px / cell_px;
  if (needed <= 1.0f) return 1;
  for (int decade = 1; decade <= 100000000; decade *= 10) {
    for (int mantissa : {1, 2, 5}) {
      const int step = mantissa * decade;
      if (static_cast<float>(step) >= needed) return step;
    }
  }
  return 1000000000;
}

ColumnLabelPlan plan_column_labels(float widest_at_full, float full, float min_size, float cell, float max_height,
                                   float pad) {
  ColumnLabelPlan plan;
  const float base = std::clamp(cell, min_size, full);  // labels shrink with narrow cells first
  // The largest size (up to base) at which the widest label is at most `room` wide (a pixel
  // spare: text widths are rounded up, not exactly proportional to the size).
  const auto size_for = [&](float room) {
    return std::min(base, full * (room - 1.0f) / std::max(widest_at_full, 1e-3f));
  };
  // Side by side, neighbours need a gap that reads as one (a quarter of the text's size):
  // labels that fill their cells run together ("고파서치킨을"). Only when that leaves the
  // text below the smallest size do they take the whole cell less two pixels.
  const float gap = std::max(2.0f, 0.25f * full);
  const float spaced = size_for(cell - gap);
  const float horizontal = spaced >= min_size ? spaced : size_for(cell - 2.0f);
  const float staggered = size_for(2.0f * cell - 4.0f);
  const bool room_for_two_lines = 2.0f * staggered <= max_height;
  // Horizontal unless two staggered lines allow clearly larger text.
  if (horizontal >= min_size && (horizontal >= 0.9f * staggered || !room_for_two_lines)) {
    plan.mode = ColumnLabelMode::Horizontal;
    plan.size = horizontal;
    plan.height = horizontal + 2.0f * pad;
  } else if (staggered >= min_size && room_for_two_lines) {
    plan.mode = ColumnLabelMode::Staggered;
    plan.size = staggered;
    plan.height = 2.0f * staggered + 2.0f * pad;
  } else {
    // Turned labels keep the same gap: Hangul fills its whole em, so labels as tall as a cell is
    // wide ran together (고파서치킨을). Smaller text first, down to the smallest size, then the
    // pitch thins them (draw_col_labels: every 2nd, 5th, ... label).
    plan.size = std::clamp(cell - gap, min_size, full);
    plan.height = std::min(widest_at_full * plan.size / full, max_height) + 2.0f * pad;
    plan.pitch = plan.size + gap;
  }
  return plan;
}

bool label_gives_way(int index, int hovered, float cell, float size) {
  return hovered >= 0 && index != hovered && std::abs(static_cast<float>(index - hovered)) * cell < size;
}

CellWindow full_window(int rows, int cols) {
  return {0.0f, 0.0f, static_cast<float>(std::max(rows, 1)), static_cast<float>(std::max(cols, 1))};
}

namespace {

void clamp_axis(float& first, float& count, int total, float min_cells) {
  const auto n = static_cast<float>(std::max(total, 1));
  if (!(count > 0.0f)) {  // "all of it" (also catches NaN)
    first = 0.0f;
    count = n;
    return;
  }
  count = std::clamp(count, std::min(min_cells, n), n);
  first = std::clamp(first, 0.0f, n - count);
}

// Within a thousandth of a cell of the whole axis counts as the whole axis (float sums).
bool whole_axis(float first, float count, int total) {
  return first <= 1e-3f && count >= static_cast<float>(std::max(total, 1)) - 1e-3f;
}

// Whole cells [begin, end) at least partly in view.
int first_cell(float first) { return static_cast<int>(std::floor(first + 1e-3f)); }
int end_cell(float first, float count) { return static_cast<int>(std::ceil(first + count - 1e-3f)); }

}  // namespace

CellWindow clamp_window(CellWindow w, int rows, int cols, float min_cells) {
  clamp_axis(w.first_row, w.rows, rows, min_cells);
  clamp_axis(w.first_col, w.cols, cols, min_cells);
  return w;
}

CellWindow kept_window(CellWindow w, int rows, int cols) {
  w = clamp_window(w, rows, cols);
  if (whole_axis(w.first_row, w.rows, rows)) w.first_row = w.rows = 0.0f;
  if (whole_axis(w.first_col, w.cols, cols)) w.first_col = w.cols = 0.0f;
  return w;
}

bool is_zoomed(const CellWindow& window, int rows, int cols) {
  const CellWindow w = clamp_window(window, rows, cols);
  return !whole_axis(w.first_row, w.rows, rows) || !whole_axis(w.first_col, w.cols, cols);
}

std::string zoom_caption(const CellWindow& window, int rows, int cols) {
  const CellWindow w = clamp_window(window, rows, cols);
  const bool rows_cut = !whole_axis(w.first_row, w.rows, rows);
  const bool cols_cut = !whole_axis(w.first_col, w.cols, cols);
  if (!rows_cut && !cols_cut) return "";
  const auto range = [](float first, float count) {
    return format_grouped(first_cell(first)) + "\u2013" + format_grouped(end_cell(first, count) - 1);
  };
  // In the window's language (app/i18n): "rows 3–10 of 40", "행 3–10 / 40".
  if (rows_cut && !cols_cut) {
    return i18n::format(i18n::tr("rows %s of %s"), range(w.first_row, w.rows).c_str(), format_grouped(rows).c_str());
  }
  if (cols_cut && !rows_cut) {
    return i18n::format(i18n::tr("columns %s of %s"), range(w.first_col, w.cols).c_str(), format_grouped(cols).c_str());
  }
  return i18n::format(i18n::tr("rows %s, columns %s of %s \u00D7 %s"), range(w.first_row, w.rows).c_str(),
                      range(w.first_col, w.cols).c_str(), format_grouped(rows).c_str(), format_grouped(cols).c_str());
}

CellWindow zoom_window(CellWindow w, float factor, float anchor_row, float anchor_col, int rows, int cols) {
  const CellWindow before = clamp_window(w, rows, cols);
  CellWindow after = before;
  after.rows = before.rows * factor;
  after.cols = before.cols * factor;
  after = clamp_window(after, rows, cols);
  // The anchor keeps its relative position inside the window.
  const float fr = (anchor_row - before.first_row) / before.rows;
  const float fc = (anchor_col - before.first_col) / before.cols;
  after.first_row = anchor_row - fr * after.rows;
  after.first_col = anchor_col - fc * after.cols;
  return clamp_window(after, rows, cols);
}

CellWindow pan_window(CellWindow w, float d_rows, float d_cols, int rows, int cols) {
  w = clamp_window(w, rows, cols);
  w.first_row += d_rows;
  w.first_col += d_cols;
  return clamp_window(w, rows, cols);
}

CellPoint cell_at(const CellWindow& w, float x, float y, float x0, float y0, float x1, float y1) {
  CellPoint p;
  p.col = w.first_col + (x - x0) / std::max(x1 - x0, 1e-6f) * w.cols;
  p.row = w.first_row + (y - y0) / std::max(y1 - y0, 1e-6f) * w.rows;
  return p;
}

int fewest_decimals(float largest_magnitude) {
  if (!std::isfinite(largest_magnitude)) return 0;
  if (largest_magnitude <= 1.0f) return 2;  // weights (up to exactly 1): "0.03", never "0.0"
  return largest_magnitude < 10.0f ? 1 : 0;
}

std::string fixed_number(float value, int decimals) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0.0f ? "inf" : "-inf";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", std::clamp(decimals, 0, 6), static_cast<double>(value));
  // "-0.00" would say the value is negative and nothing else: a value that rounds to zero is 0.
  if (text[0] == '-' && std::strtod(text, nullptr) == 0.0) return text + 1;
  return text;
}

std::string short_number(float value) {
  if (!std::isfinite(value)) return fixed_number(value, 0);
  const float magnitude = std::fabs(value);
  const int decimals = magnitude < 0.995f ? 2 : magnitude < 9.95f ? 1 : 0;
  if (magnitude >= 99999.5f) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0e", static_cast<double>(value));
    return text;
  }
  std::string text = fixed_number(value, decimals);
  if (text == "0.00") return "0";
  if (text == "1.0" || text == "-1.0") return text.substr(0, text.size() - 2);  // "1", "-1"
  const std::size_t zero = text[0] == '-' ? 1 : 0;
  if (decimals == 2) text.erase(zero, 1);  // "0.03" -> ".03", "-0.41" -> "-.41"
  return text;
}

std::string compact_number(float value, int max_chars) {
  char text[32];
  if (std::isnan(value)) return "nan";
  if (value == 0.0f) return "0";
  // Fixed notation with as many decimals as fit; scientific when even 0 decimals do not fit.
  for (int decimals = 2; decimals >= 0; --decimals) {
    std::snprintf(text, sizeof text, "%.*f", decimals, static_cast<double>(value));
    std::string s = text;
    // "0.00" says nothing about a tiny non-zero value: prefer scientific then.
    const bool lost_everything = std::strtod(text, nullptr) == 0.0;
    if (static_cast<int>(s.size()) <= max_chars && !lost_everything) return s;
  }
  std::snprintf(text, sizeof text, "%.0e", static_cast<double>(value));
  return text;
}

std::string significant_number(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", static_cast<double>(value));
  return text;
}

namespace {

// Different values never share a label.
bool labels_tell_apart(const std::vector<float>& values, const std::vector<std::string>& labels) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = i + 1; j < values.size(); ++j) {
      if (values[i] != values[j] && labels[i] == labels[j]) return false;
    }
  }
  return true;
}

template <typename Format>
std::vector<std::string> format_each(const std::vector<float>& values, Format format) {
  std::vector<std::string> labels;
  labels.reserve(values.size());
  for (const float value : values) labels.push_back(value == 0.0f ? "0" : format(value));
  return labels;
}

std::string printed(const char* pattern, int precision, float value) {
  char text[48];
  std::snprintf(text, sizeof text, pattern, precision, static_cast<double>(value));
  return text;
}

}  // namespace

std::vector<std::string> distinct_numbers(const std::vector<float>& values, int max_chars) {
  std::vector<std::string> labels = format_each(values, [&](float v) { return compact_number(v, max_chars); });
  if (labels_tell_apart(values, labels)) return labels;
  // More decimals while they fit and keep every value's digits; then scientific notation.
  for (int decimals = 3; decimals <= 4; ++decimals) {
    bool fits = true;
    const std::vector<std::string> fixed = format_each(values, [&](float v) {
      std::string text = printed("%.*f", decimals, v);
      fits = fits && static_cast<int>(text.size()) <= max_chars && std::strtod(text.c_str(), nullptr) != 0.0;
      return text;
    });
    if (fits && labels_tell_apart(values, fixed)) return fixed;
  }
  for (int digits = 1; digits <= 6; ++digits) {
    labels = format_each(values, [&](float v) { return printed("%.*e", digits, v); });
    if (labels_tell_apart(values, labels)) return labels;
  }
  return labels;
}

}  // namespace attnviz::heatmap
