#include "core/export/figure_colorbar.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace attnviz::exporting {
namespace {

constexpr double kMinColorbarPt = 72.0;
constexpr double kBarGapPt = 16.0;  // from the panels to the bar
constexpr double kBarWidthPt = 11.0;
constexpr double kTickLengthPt = 3.0;
constexpr double kTickTextGapPt = 5.0;   // from the bar to the tick texts
constexpr double kLabelGapPt = 6.0;      // from the widest tick text to the label
constexpr double kTickSpacingPt = 36.0;  // about one tick per this much bar

// Shortest text that reads back as the float, as a reader writes it: "0.0001", "0.122", and
// "1e-8" rather than "1e-08" for values too small or large for plain decimals.
std::string short_number(double value) {
  char buffer[64];
  const auto single = static_cast<float>(value);
  const double magnitude = std::abs(value);
  const bool plain = magnitude == 0.0 || (magnitude >= 0.99999e-4 && magnitude < 1e6);  // 1e-4f is just under 1e-4
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, single,
                                    plain ? std::chars_format::fixed : std::chars_format::scientific);
  std::string text(buffer, result.ptr);
  if (const std::size_t e = text.find('e'); e != std::string::npos) {
    text = text.substr(0, e) + "e" + std::to_string(std::stoi(text.substr(e + 1)));
  }
  return text;
}

// "Vulkan − Eigen (×10⁻⁸)": the ticks' common power of ten goes with the label.
std::vector<Run> label_runs(const std::string& label, const std::string& exponent, double size) {
  if (exponent.empty()) return label.empty() ? std::vector<Run>{} : std::vector<Run>{{label, size, 0.0}};
  std::vector<Run> runs = power_runs({label.empty() ? "×10" : label + " (×10", exponent}, size);
  if (!label.empty()) runs.push_back({")", size, 0.0});
  return runs;
}

// A triangle beyond one end of the bar (apex away from it), framed like the bar.
void add_extension(FigureCanvas& canvas, int x, int w, double base_y, double direction, Rgb colour) {
  const double frame = std::max(1, canvas.px(0.6));
  const double tip = base_y + direction * extension_height(canvas);
  const double centre = x + w / 2.0;
  // The frame: the same triangle grown by the frame's width (its apex by about twice that).
  canvas.add_shape(Triangle{static_cast<float>(x - frame), static_cast<float>(base_y),
                            static_cast<float>(x + w + frame), static_cast<float>(base_y), static_cast<float>(centre),
                            static_cast<float>(tip + direction * 2.2 * frame), kFrameColour});
  canvas.add_shape(Triangle{static_cast<float>(x), static_cast<float>(base_y), static_cast<float>(x + w),
                            static_cast<float>(base_y), static_cast<float>(centre), static_cast<float>(tip), colour});
}

// Where a tick value sits on the colour scale, 0 (bottom) to 1 (top).
double tick_position(const HeatmapFigure& figure, double tick) {
  return colormap_position(figure.range_low, figure.range_high, figure.log_scale, static_cast<float>(tick));
}

}  // namespace

RangeOverflow find_values_beyond_range(const HeatmapFigure& figure) {
  RangeOverflow overflow;
  if (figure.binary) return overflow;
  int below = 0;
  int above = 0;
  for (const FigurePanel& panel : figure.panels) {
    for (std::size_t i = 0; i < panel.values.data.size(); ++i) {
      if (!shown_in_colour(figure, panel, i)) continue;
      const float value = panel.values.data[i];
      if (value < figure.range_low || (figure.log_scale && value <= 0.0f)) ++below;
      if (value > figure.range_high) ++above;
    }
  }
  overflow.below = below > 0;
  overflow.above = above > 0;
  const Wording& wording = figure.wording;
  if (below > 0) {
    overflow.notes.push_back(
        wording.trn("%1$s cell below %2$s drawn in the bottom colour (the triangle under the colorbar).",
                    "%1$s cells below %2$s drawn in the bottom colour (the triangle under the colorbar).",
                    static_cast<unsigned long>(below), {std::to_string(below), short_number(figure.range_low)}));
  }
  if (above > 0) {
    overflow.notes.push_back(
        wording.trn("%1$s cell above %2$s drawn in the top colour (the triangle over the colorbar).",
                    "%1$s cells above %2$s drawn in the top colour (the triangle over the colorbar).",
                    static_cast<unsigned long>(above), {std::to_string(above), short_number(figure.range_high)}));
  }
  return overflow;
}

int extension_height(const FigureCanvas& canvas) { return canvas.px(7.0); }

ColorbarPlan plan_colorbar(const HeatmapFigure& figure, const FigureCanvas& canvas, int min_height) {
  ColorbarPlan plan;
  const double label_size = canvas.size_px(kAxisTitlePt);
  const double tick_size = canvas.size_px(kTickPt);
  // Ticks from the minimum height first: the label's length depends on the exponent.
  plan.height = std::max(min_height, canvas.px(kMinColorbarPt));
  const int target = std::clamp(plan.height / canvas.px(kTickSpacingPt), 3, 8);
  if (figure.log_scale) {
    plan.ticks = log_ticks(figure.range_low, figure.range_high, target);
    for (const PowerText& text : log_tick_texts(plan.ticks)) plan.tick_texts.push_back(power_runs(text, tick_size));
  } else {
    plan.ticks = nice_ticks(figure.range_low, figure.range_high, target);
    for (const std::string& text : linear_tick_texts(plan.ticks, plan.tick_exponent)) {
      plan.tick_texts.push_back({{with_minus_signs(text), tick_size, 0.0}});
    }
  }
  plan.label = label_runs(figure.colorbar_label, plan.tick_exponent, label_size);
  // Long enough for its label, which stands beside it.
  plan.height = std::max(plan.height, static_cast<int>(std::ceil(canvas.runs_width(plan.label))) + canvas.px(8.0));
  double widest = 0.0;
  for (const auto& text : plan.tick_texts) widest = std::max(widest, canvas.runs_width(text));
  plan.width =
      canvas.px(kBarGapPt) + canvas.px(kBarWidthPt) + canvas.px(kTickTextGapPt) + static_cast<int>(std::ceil(widest));
  if (!plan.label.empty())
    plan.width += canvas.px(kLabelGapPt) + static_cast<int>(std::ceil(canvas.line_height(label_size)));
  return plan;
}

PlacedColorbar draw_colorbar(FigureCanvas& canvas, const HeatmapFigure& figure, const ColorbarPlan& plan,
                             const RangeOverflow& overflow, int panels_right, int top) {
  const int x = panels_right + canvas.px(kBarGapPt);
  const int y = top;
  const int w = canvas.px(kBarWidthPt);
  const int h = plan.height;
  const int frame = std::max(1, canvas.px(0.6));
  const Colormap& map = colormap(figure.colormap);
  if (overflow.below) add_extension(canvas, x, w, y + h + frame, 1.0, map.at(0.0f));
  if (overflow.above) add_extension(canvas, x, w, y - frame, -1.0, map.at(1.0f));
  canvas.add_shape(FillRect{x - frame, y - frame, w + 2 * frame, h + 2 * frame, kFrameColour});
  const ColourRamp ramp{x, y, w, h, figure.colormap};
  canvas.add_shape(ramp);

  const double size = canvas.size_px(kTickPt);
  const int tick_w = std::max(1, canvas.px(0.75));
  const int text_x = x + w + canvas.px(kTickTextGapPt);
  double widest = 0.0;
  for (std::size_t i = 0; i < plan.ticks.size(); ++i) {
    const double ty = y + h - tick_position(figure, plan.ticks[i]) * h;
    canvas.add_shape(FillRect{x + w, static_cast<int>(std::lround(ty - tick_w / 2.0)), canvas.px(kTickLengthPt), tick_w,
                              kFrameColour});
    canvas.add_runs(plan.tick_texts[i], text_x, canvas.centred_baseline(ty, size), TextAnchor::Start, kTextColour);
    widest = std::max(widest, canvas.runs_width(plan.tick_texts[i]));
    canvas.include(text_x + canvas.runs_width(plan.tick_texts[i]), ty + canvas.descent(size));
  }
  double right = text_x + widest;
  if (!plan.label.empty()) {
    const double label_size = canvas.size_px(kAxisTitlePt);
    const double baseline_x = right + canvas.px(kLabelGapPt) + canvas.ascent(label_size);
    canvas.add_runs(plan.label, baseline_x, y + h / 2.0, TextAnchor::Middle, kTextColour, true);
    right = baseline_x + canvas.descent(label_size);
    canvas.include(right, y + h / 2.0 + canvas.runs_width(plan.label) / 2.0);
  }
  const int bottom = y + h + frame + (overflow.below ? extension_height(canvas) + 3 * frame : 0);
  canvas.include(right, bottom);
  return {ramp, bottom};
}

}  // namespace attnviz::exporting
