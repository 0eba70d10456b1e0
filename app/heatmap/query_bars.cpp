#include "app/heatmap/query_bars.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/heatmap/axis_math.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/platform/fonts.h"

namespace attnviz::heatmap {
namespace {

constexpr ImU32 kBarColour = 0xffc27a3au;      // blue (ABGR 0xAABBGGRR): weights, positive
constexpr ImU32 kNegativeColour = 0xff3a55d0u;  // red: negative context components
constexpr ImU32 kMaskedColour = 0xffa0a0a0u;

std::string label_of(const BarChart& chart, int i) {
  if (chart.labels != nullptr && i < static_cast<int>(chart.labels->size())) return (*chart.labels)[static_cast<std::size_t>(i)];
  return std::to_string(i);
}

void draw_labels(ImDrawList* list, const BarChart& chart, ImVec2 origin, float bar_w) {
  if (chart.label_height <= 0.0f) return;
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const float top = origin.y + chart.height + 3.0f;
  const int step = nice_label_step(bar_w, size * 1.15f);
  float widest = 0.0f;
  for (int i = 0; i < std::min(chart.count, 512); ++i) {
    widest = std::max(widest, ImGui::CalcTextSize(label_of(chart, i).c_str()).x);
  }
  const bool horizontal = widest <= bar_w - 2.0f;
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
  list->PushClipRect(ImVec2(origin.x, top), ImVec2(origin.x + chart.width, top + chart.label_height), true);
  for (int i = 0; i < chart.count; i += horizontal ? 1 : step) {
    const float cx = origin.x + (static_cast<float>(i) + 0.5f) * bar_w;
    const ImU32 c = i == chart.highlight ? kHighlightColour : colour;
    const std::string text = ellipsize(font, size, label_of(chart, i), horizontal ? bar_w : chart.label_height - 4.0f);
    if (horizontal) {
      const float w = ImGui::CalcTextSize(text.c_str()).x;
      list->AddText(ImVec2(std::round(cx - w * 0.5f), top), c, text.c_str());
    } else {
      const float w = ImGui::CalcTextSize(text.c_str()).x;
      // Rotated to read upwards, ending just under its bar.
      add_vertical_text(list, font, size, std::round(cx - size * 0.5f), top + w, c, text);
    }
  }
  list->PopClipRect();
}

}  // namespace

int draw_bar_chart(const char* id, const BarChart& chart) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 total(chart.width, chart.height + chart.label_height);
  ImGui::InvisibleButton(id, ImVec2(std::max(total.x, 1.0f), std::max(total.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  if (chart.count <= 0 || chart.values == nullptr) return -1;

  ImDrawList* list = ImGui::GetWindowDrawList();
  const float bar_w = chart.width / static_cast<float>(chart.count);
  const float span = std::max(chart.range_max - chart.range_min, 1e-30f);
  auto y_of = [&](float v) { return origin.y + chart.height * (1.0f - (std::clamp(v, chart.range_min, chart.range_max) - chart.range_min) / span); };
  const float base = y_of(std::clamp(0.0f, chart.range_min, chart.range_max));
  list->AddRectFilled(origin, ImVec2(origin.x + chart.width, origin.y + chart.height), ImGui::GetColorU32(ImGuiCol_FrameBg));
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
    ImU32 colour = v < 0.0f ? kNegativeColour : kBarColour;
    if (i == chart.highlight) colour = kHighlightColour;
    const float y = y_of(v);
    list->AddRectFilled(ImVec2(x0, std::min(y, base)), ImVec2(std::max(x1, x0 + 1.0f), std::max(y, base)), colour);
  }
  list->AddLine(ImVec2(origin.x, base), ImVec2(origin.x + chart.width, base), ImGui::GetColorU32(ImGuiCol_Border));

  // Values on the bars when they fit.
  ImFont* small = platform::fonts().small != nullptr ? platform::fonts().small : ImGui::GetFont();
  const float small_size = small->FontSize * ImGui::GetIO().FontGlobalScale;
  if (chart.count <= 24) {
    for (int i = 0; i < chart.count; ++i) {
      if (chart.visible != nullptr && chart.visible[i] == 0) continue;
      const std::string text = compact_number(chart.values[i], bar_w > 44.0f ? 5 : 4);
      const ImVec2 extent = small->CalcTextSizeA(small_size, 1e9f, 0.0f, text.c_str());
      if (extent.x > bar_w - 1.0f) continue;
      const float v = chart.values[i];
      const float y = v >= 0.0f ? y_of(v) - extent.y - 1.0f : y_of(v) + 1.0f;
      const float cx = origin.x + (static_cast<float>(i) + 0.5f) * bar_w;
      list->AddText(small, small_size, ImVec2(std::round(cx - extent.x * 0.5f), std::round(std::clamp(y, origin.y, origin.y + chart.height - extent.y))),
                    ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
    }
  }
  draw_labels(list, chart, origin, bar_w);

  int hovered_bar = -1;
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x - origin.x;
    hovered_bar = std::clamp(static_cast<int>(mx / bar_w), 0, chart.count - 1);
    const bool masked = chart.visible != nullptr && chart.visible[hovered_bar] == 0;
    ImGui::BeginTooltip();
    ImGui::Text("%s", label_of(chart, hovered_bar).c_str());
    if (masked) ImGui::TextDisabled("masked");
    else ImGui::Text("%.6g", static_cast<double>(chart.values[hovered_bar]));
    ImGui::EndTooltip();
  }
  return hovered_bar;
}

}  // namespace attnviz::heatmap
