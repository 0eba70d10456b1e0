#include "app/heatmap/query_bars.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/heatmap/axis_math.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/heatmap/value_range.h"
#include "app/i18n/translate.h"
#include "app/window/fonts.h"
#include "core/common/number_text.h"

namespace attnviz::heatmap {
namespace {

constexpr ImU32 kBarColour = 0xff6e655cu;  // slate grey (ABGR 0xAABBGGRR): bars without colours
constexpr ImU32 kMaskedColour = 0xffa0a0a0u;
// Where a diverging map's bars take their colours: near its ends, clearly blue or red.
constexpr float kDivergingEnd = 0.12f;

std::string label_of(const BarChart& chart, int i) {
  if (chart.labels != nullptr && i < static_cast<int>(chart.labels->size()))
    return (*chart.labels)[static_cast<std::size_t>(i)];
  return format_grouped(i);
}

// Keys under the bars: horizontal when every label fits its bar, else turned and, for many
// keys, thinned like the heatmaps' labels, each thinned one with its index ("120 sat").
void draw_labels(ImDrawList* list, const BarChart& chart, ImVec2 origin, float bar_w) {
  if (chart.label_height <= 0.0f) return;
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const float top = origin.y + chart.height + 3.0f;
  float widest = 0.0f;
  for (int i = 0; i < std::min(chart.count, 512); ++i) {
    widest = std::max(widest, ImGui::CalcTextSize(label_of(chart, i).c_str()).x);
  }
  const float line_h = ImGui::GetTextLineHeight();
  // Labels a little wider than their bar take turns on two lines, as the heatmaps' column labels do.
  const bool staggered = widest > bar_w - 2.0f && widest <= 2.0f * bar_w - 4.0f && chart.label_height >= 2.0f * line_h;
  const bool horizontal = widest <= bar_w - 2.0f || staggered;
  const float text_w = staggered ? 2.0f * bar_w - 4.0f : bar_w;
  const int step = horizontal ? 1 : nice_label_step(bar_w, size * 1.15f);
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
  list->PushClipRect(ImVec2(origin.x, top), ImVec2(origin.x + chart.width, top + chart.label_height), true);
  auto draw_one = [&](int i, ImU32 c) {
    const float cx = origin.x + (static_cast<float>(i) + 0.5f) * bar_w;
    const std::string full = step > 1 ? format_grouped(i) + " " + label_of(chart, i) : label_of(chart, i);
    const std::string text = ellipsize(font, size, full, horizontal ? text_w : chart.label_height - 4.0f);
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    if (horizontal) {
      const float y = staggered && i % 2 == 1 ? top + line_h : top;
      // Wider than its bar, the first and last labels would be cut at the chart's edges.
      const float x = std::clamp(std::round(cx - w * 0.5f), origin.x, std::max(origin.x, origin.x + chart.width - w));
      list->AddText(ImVec2(x, y), c, text.c_str());
    } else {  // reading upwards, ending just under its bar
      // Kept within the chart: the first and last keys' labels would stick out of the panel.
      const float x = std::clamp(std::round(cx - size * 0.5f), origin.x, origin.x + chart.width - size);
      add_vertical_text(list, font, size, x, top + w, c, text);
    }
  };
  for (int i = 0; i < chart.count; i += step) {
    if (i != chart.highlight) draw_one(i, colour);
  }
  if (chart.highlight >= 0 && chart.highlight < chart.count) draw_one(chart.highlight, kHighlightColour);
  list->PopClipRect();
}

}  // namespace

std::uint32_t bar_colour(const BarColours& colours, float value) {
  float t = 0.0f;
  if (is_diverging(colours.colormap))
    t = value < 0.0f ? kDivergingEnd : 1.0f - kDivergingEnd;
  else
    t = colormap_position(value, {colours.min, colours.max}, colours.log_scale);
  const Rgb c = sample(colours.colormap, t);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
}

BarChart weights_row_chart(const Matrix& weights, const MaskMatrix& mask, int row,
                           const std::vector<std::string>* keys) {
  BarChart chart;
  chart.values = weights.row(row);
  chart.count = weights.cols;
  chart.labels = keys;
  chart.visible = &mask.visible[static_cast<std::size_t>(row) * static_cast<std::size_t>(mask.cols)];
  return chart;
}

int draw_bar_chart(const char* id, const BarChart& chart) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 total(chart.width, chart.height + chart.label_height);
  ImGui::InvisibleButton(id, ImVec2(std::max(total.x, 1.0f), std::max(total.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  if (chart.count <= 0 || chart.values == nullptr) return -1;

  ImDrawList* list = ImGui::GetWindowDrawList();
  const float bar_w = chart.width / static_cast<float>(chart.count);
  ImFont* small = window::fonts().small != nullptr ? window::fonts().small : ImGui::GetFont();
  const float small_size = small->FontSize * ImGui::GetIO().FontGlobalScale;
  // Values go above (below, when negative) their bars, on the plot's light background: the
  // value axis leaves a line of text free at the top (and bottom) so the tallest bar's value
  // is not drawn over the bar itself and no bar reaches the plot's edge.
  const bool values = chart.count <= 24;
  const bool negative = chart.range_min < 0.0f;
  const float headroom = small_size + 3.0f;  // the values, or the axis's top value
  const float plot_top = origin.y + headroom;
  const float plot_bottom = origin.y + chart.height - (negative ? headroom : 0.0f);
  const float span = std::max(chart.range_max - chart.range_min, 1e-30f);
  auto y_of = [&](float v) {
    return plot_bottom -
           (plot_bottom - plot_top) * (std::clamp(v, chart.range_min, chart.range_max) - chart.range_min) / span;
  };
  const float base = y_of(std::clamp(0.0f, chart.range_min, chart.range_max));
  list->AddRectFilled(origin, ImVec2(origin.x + chart.width, origin.y + chart.height),
                      ImGui::GetColorU32(ImGuiCol_FrameBg));
  const float gap = bar_w >= 6.0f ? std::max(1.0f, bar_w * 0.15f) : 0.0f;
  for (int i = 0; i < chart.count; ++i) {
    const float x0 = origin.x + static_cast<float>(i) * bar_w + gap * 0.5f;
    const float x1 = origin.x + static_cast<float>(i + 1) * bar_w - gap * 0.5f;
    const bool masked = chart.visible != nullptr && chart.visible[i] == 0;
    if (masked) {
      list->AddRectFilled(ImVec2(x0, base - 2.0f), ImVec2(std::max(x1, x0 + 1.0f), base), kMaskedColour);
      continue;
    }
    const float v = chart.values[i];
    ImU32 colour = chart.colours ? bar_colour(*chart.colours, v) : kBarColour;
    if (i == chart.highlight) colour = kHighlightColour;
    const float y = y_of(v);
    list->AddRectFilled(ImVec2(x0, std::min(y, base)), ImVec2(std::max(x1, x0 + 1.0f), std::max(y, base)), colour);
  }
  list->AddLine(ImVec2(origin.x, base), ImVec2(origin.x + chart.width, base), ImGui::GetColorU32(ImGuiCol_Border));
  const ImU32 text_colour = ImGui::GetColorU32(ImGuiCol_Text);
  // One format for every bar, as in the heatmaps' cells, or none when it does not fit.
  CellNumbers numbers;
  if (values) {
    float low = 0.0f;
    float high = 0.0f;
    for (int i = 0; i < chart.count; ++i) {
      if (chart.visible != nullptr && chart.visible[i] == 0) continue;
      low = std::min(low, chart.values[i]);
      high = std::max(high, chart.values[i]);
    }
    const auto width = [&](const std::string& t) { return small->CalcTextSizeA(small_size, 1e9f, 0.0f, t.c_str()).x; };
    numbers = cell_numbers_that_fit(low, high, bar_w - 0.3f * small_size, width);  // a gap between neighbours
  }
  if (!numbers.shown()) {  // no values on the bars: the axis says what the top of the plot is
    const std::string top = compact_number(chart.range_max, 6);
    list->AddLine(ImVec2(origin.x, plot_top), ImVec2(origin.x + chart.width, plot_top),
                  ImGui::GetColorU32(ImGuiCol_Border, 0.6f));
    list->AddText(small, small_size, ImVec2(origin.x + 3.0f, origin.y + 1.0f),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), top.c_str());
  }
  for (int i = 0; i < chart.count && numbers.shown(); ++i) {
    if (chart.visible != nullptr && chart.visible[i] == 0) continue;
    const std::string text = numbers.text(chart.values[i]);
    const ImVec2 extent = small->CalcTextSizeA(small_size, 1e9f, 0.0f, text.c_str());
    const float v = chart.values[i];
    const float y = v >= 0.0f ? y_of(v) - extent.y - 1.0f : y_of(v) + 1.0f;
    const float cx = origin.x + (static_cast<float>(i) + 0.5f) * bar_w;
    list->AddText(small, small_size, ImVec2(std::round(cx - extent.x * 0.5f), std::round(y)), text_colour,
                  text.c_str());
  }
  draw_labels(list, chart, origin, bar_w);

  int hovered_bar = -1;
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x - origin.x;
    hovered_bar = std::clamp(static_cast<int>(mx / bar_w), 0, chart.count - 1);
    const bool masked = chart.visible != nullptr && chart.visible[hovered_bar] == 0;
    ImGui::BeginTooltip();
    ImGui::Text("%s", label_of(chart, hovered_bar).c_str());
    if (masked)
      ImGui::TextDisabled("%s", i18n::tr("masked"));
    else
      ImGui::Text("%.6g", static_cast<double>(chart.values[hovered_bar]));
    ImGui::EndTooltip();
  }
  return hovered_bar;
}

}  // namespace attnviz::heatmap
