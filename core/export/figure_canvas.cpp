#include "core/export/figure_canvas.h"

#include <algorithm>
#include <cmath>

#include "core/export/text_wrap.h"

namespace attnviz::exporting {

namespace {
constexpr double kExponentScale = 0.72;  // a raised exponent's size relative to its base
}  // namespace

std::vector<Run> power_runs(const PowerText& text, double size) {
  std::vector<Run> runs{{with_minus_signs(text.base), size, 0.0}};
  if (!text.exponent.empty()) runs.push_back({with_minus_signs(text.exponent), size * kExponentScale, 0.42 * size});
  return runs;
}

int FigureCanvas::px(double points) const { return std::max(1, static_cast<int>(std::lround(points * px_per_pt_))); }

double FigureCanvas::ascent(double size, bool bold) const { return font(bold).ascent(static_cast<float>(size)); }

double FigureCanvas::descent(double size, bool bold) const { return font(bold).descent(static_cast<float>(size)); }

double FigureCanvas::width(const std::string& text, double size, bool bold) const {
  return font(bold).measure(text, static_cast<float>(size));
}

double FigureCanvas::runs_width(const std::vector<Run>& runs) const {
  double total = 0.0;
  for (const Run& run : runs) total += width(run.text, run.size);
  return total;
}

void FigureCanvas::add_text(std::string text, double x, double y, double size, TextAnchor anchor, Rgb colour, bool bold,
                            bool vertical) {
  scene_.shapes.emplace_back(TextItem{std::move(text), static_cast<float>(x), static_cast<float>(y),
                                      static_cast<float>(size), anchor, vertical, bold, colour});
}

void FigureCanvas::add_runs(const std::vector<Run>& runs, double x, double y, TextAnchor anchor, Rgb colour,
                            bool vertical) {
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

double FigureCanvas::add_wrapped(const std::string& text, double x, double y, double size, Rgb colour, bool bold,
                                 double spacing, double max_width, int* lines, std::string_view separator) {
  const auto measure = [&](const std::string& line) { return width(line, size, bold); };
  const std::vector<std::string> parts =
      separator.empty() ? wrap_text(text, max_width, measure) : wrap_parts(text, separator, max_width, measure);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    add_text(parts[i], x, y + ascent(size, bold), size, TextAnchor::Start, colour, bold);
    include(x + width(parts[i], size, bold), y + line_height(size, bold));
    y += line_height(size, bold) * (i + 1 < parts.size() ? spacing : 1.0);
  }
  if (lines != nullptr) *lines = static_cast<int>(parts.size());
  return y;
}

void FigureCanvas::include(double x, double y) {
  right_ = std::max(right_, static_cast<int>(std::ceil(x)));
  bottom_ = std::max(bottom_, static_cast<int>(std::ceil(y)));
}

}  // namespace attnviz::exporting
