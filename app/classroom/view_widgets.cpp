#include "app/classroom/view_widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "app/classroom/draw_helpers.h"
#include "app/classroom/view_steps.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "core/common/number_text.h"

namespace attnviz::classroom {

namespace {

struct Speed {
  float steps_a_second;
  const char* text;
};
// Marked here, translated where shown (the list's width is the widest translation's).
constexpr Speed kSpeeds[] = {{0.25f, N_("1 step every 4 s")}, {0.5f, N_("1 step every 2 s")},
                             {1.0f, N_("1 step a second")},   {2.0f, N_("2 steps a second")},
                             {4.0f, N_("4 steps a second")},  {8.0f, N_("8 steps a second")}};

// A choice of a few speeds rather than a slider: a slider's grab sits on its own text
// ("2 a se|cond"), and a teacher wants 1 or 2 steps a second, not 1.37.
void speed_choice(Playback& playback) {
  const char* shown = nullptr;
  for (const Speed& speed : kSpeeds) {
    if (speed.steps_a_second == playback.speed) shown = i18n::tr(speed.text);
  }
  char other[48];  // a speed from an older settings file (the slider's), said as it is
  if (shown == nullptr) {
    if (playback.speed < 1.0f)
      std::snprintf(other, sizeof other, i18n::tr("1 step every %g s"), static_cast<double>(1.0f / playback.speed));
    else
      std::snprintf(other, sizeof other, i18n::tr("%g steps a second"), static_cast<double>(playback.speed));
    shown = other;
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  float widest = 0.0f;
  for (const Speed& speed : kSpeeds) widest = std::max(widest, ImGui::CalcTextSize(i18n::tr(speed.text)).x);
  ImGui::SetNextItemWidth(widest + ImGui::GetFrameHeight() + style.FramePadding.x * 2.0f);
  if (ImGui::BeginCombo("##speed", shown)) {
    for (const Speed& speed : kSpeeds) {
      const char* text = i18n::tr(speed.text);
      const bool chosen = text == shown;
      if (ImGui::Selectable(text, chosen)) playback.speed = speed.steps_a_second;
      if (chosen) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("Playing speed"));
}

}  // namespace

float int_input_width(int largest) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const std::string digits(std::to_string(std::max(largest, 0)).size(), '0');
  const float text = ImGui::CalcTextSize(digits.c_str()).x + 2.0f * style.FramePadding.x;
  const float buttons = 2.0f * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
  return std::ceil(text + buttons);
}

void step_toolbar(Playback& playback, int& step, int count, const char* where) {
  const double now = ImGui::GetTime();
  ImGui::BeginDisabled(step <= 0);
  if (ImGui::Button("\xe2\x97\x80##back")) {  // not translated: an arrow
    playback.playing = false;
    step = moved_step(step, -1, count);
  }
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", i18n::tr("Back (Left, Page Up)"));
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(step >= count - 1);
  if (ImGui::Button("\xe2\x96\xb6##next")) {  // not translated: an arrow
    playback.playing = false;
    step = moved_step(step, 1, count);
  }
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", i18n::tr("Next (Right, Page Down)"));
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (pill(playback.playing ? i18n::tr_label("Pause", "play").c_str() : i18n::tr_label("Play", "play").c_str(),
           playback.playing))
    toggle_playback(playback, step, count, now);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr("Play the steps one after another (P)"));
  ImGui::SameLine();
  speed_choice(playback);
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  const std::string shown =
      i18n::format(where, format_grouped(std::min(step + 1, count)).c_str(), format_grouped(count).c_str());
  ImGui::TextUnformatted(shown.c_str());
}

float small_matrix_width(const SmallMatrix& m) {
  const float cells = m.cell_w * static_cast<float>(m.values ? m.values->cols : 0);
  return std::max(m.row_label_w + cells, ImGui::CalcTextSize(m.caption.c_str()).x);
}

float small_matrix_height(const SmallMatrix& m) {
  const float caption = m.caption.empty() ? 0.0f : ImGui::GetTextLineHeightWithSpacing();
  return caption + m.col_label_h + m.cell_h * static_cast<float>(m.values ? m.values->rows : 0);
}

CellsRect draw_small_matrix(ui::UiContext& ui, const SmallMatrix& m) {
  ImGui::BeginGroup();
  if (!m.caption.empty()) ImGui::TextUnformatted(m.caption.c_str());
  heatmap::HeatmapSpec spec;
  spec.source.host = m.values;
  spec.source.version = m.version;
  spec.values = m.numbers ? m.values : nullptr;
  spec.numbers = m.numbers;
  spec.range_min = m.range.min;
  spec.range_max = m.range.max;
  spec.colormap = m.colormap;
  spec.row_labels = m.row_labels;
  spec.row_label_width = m.row_labels ? m.row_label_w : 0.0f;
  spec.col_labels = m.col_labels;
  spec.col_label_height = m.col_labels ? m.col_label_h : 0.0f;
  spec.cells_width = m.cell_w * static_cast<float>(m.values->cols);
  spec.cells_height = m.cell_h * static_cast<float>(m.values->rows);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const heatmap::HeatmapHover hover = ui.heatmaps.draw(m.id.c_str(), spec);
  if (hover.hovered && hover.row >= 0 && hover.col >= 0 && hover.row < m.values->rows && hover.col < m.values->cols) {
    ImGui::SetTooltip("%s[%d, %d] = %.6g", m.caption.c_str(), hover.row, hover.col,
                      static_cast<double>(m.values->at(hover.row, hover.col)));
  }
  ImGui::EndGroup();
  CellsRect rect;
  rect.x0 = origin.x + spec.row_label_width;
  rect.y0 = origin.y + spec.col_label_height;
  rect.x1 = rect.x0 + spec.cells_width;
  rect.y1 = rect.y0 + spec.cells_height;
  return rect;
}

void value_bar(ImDrawList* list, float x0, float y0, float x1, float y1, float value, float low, float high,
               std::uint32_t colour) {
  if (!std::isfinite(value) || !(high > low)) return;
  const auto x_of = [&](float v) { return x0 + (std::clamp(v, low, high) - low) / (high - low) * (x1 - x0); };
  const float zero = x_of(std::clamp(0.0f, low, high));
  const float end = x_of(value);
  list->AddRectFilled(ImVec2(std::min(zero, end), y0), ImVec2(std::max(zero, end) + (zero == end ? 1.0f : 0.0f), y1),
                      colour);
}

std::vector<std::vector<ChartPoint>> chart_lines(const std::vector<std::vector<double>>& series, float x0, float y0,
                                                 float x1, float y1) {
  double top = 0.0;
  std::size_t longest = 0;
  for (const std::vector<double>& s : series) {
    for (const double v : s) top = std::max(top, v);
    longest = std::max(longest, s.size());
  }
  if (top <= 0.0) top = 1.0;
  const double last = longest > 1 ? static_cast<double>(longest - 1) : 1.0;
  std::vector<std::vector<ChartPoint>> lines;
  for (const std::vector<double>& s : series) {
    std::vector<ChartPoint>& line = lines.emplace_back();
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double x = static_cast<double>(i) / last;
      const double y = std::max(0.0, s[i]) / top;
      line.push_back({x0 + static_cast<float>(x) * (x1 - x0), y1 - static_cast<float>(y) * (y1 - y0)});
    }
  }
  return lines;
}

std::string short_count(double value) {
  static const char* const kUnits[] = {"", " K", " M", " G", " T", " P"};
  std::size_t unit = 0;
  while (std::fabs(value) >= 999.5 && unit + 1 < std::size(kUnits)) {
    value /= 1000.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text,
                std::fabs(value) >= 99.95 || unit == 0 ? "%.0f%s"
                : std::fabs(value) >= 9.995            ? "%.1f%s"
                                                       : "%.2f%s",
                value, kUnits[unit]);
  return text;
}

std::string short_bytes(std::uint64_t bytes) {
  static const char* const kUnits[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB"};  // not translated: units
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1023.95 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 || value >= 99.95 ? "%.0f%s" : "%.1f%s", value, kUnits[unit]);
  return text;
}

}  // namespace attnviz::classroom
