// The Training view's right side: the loss curve (and the repeat loss for induction) with the
// shown snapshot marked, the slider over the kept snapshots, and every head's attention on the
// run's probe in that snapshot as layers × heads thumbnails (as the Model view draws them).

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/training_view.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

// The series' hues read on either theme's chart background; the box, axes and marker are the theme's.
constexpr ImU32 kLossColour = 0xffd28a3au;    // blue
constexpr ImU32 kRepeatColour = 0xff0e7fffu;  // orange

// One series as a polyline in the box, at most one point per pixel.
void polyline(ImDrawList* draw, const std::vector<float>& values, long steps, float top, ImVec2 a, ImVec2 b,
              ImU32 colour, float thickness) {
  if (values.empty() || steps <= 0 || top <= 0.0f) return;
  const float w = b.x - a.x;
  const float h = b.y - a.y;
  const std::size_t n = values.size();
  const std::size_t stride = std::max<std::size_t>(1, n / static_cast<std::size_t>(std::max(1.0f, w)));
  std::vector<ImVec2> points;
  for (std::size_t i = 0; i < n; i += stride) {
    const float x = a.x + w * static_cast<float>(i + 1) / static_cast<float>(steps);
    const float v = std::clamp(values[i] / top, 0.0f, 1.0f);
    points.emplace_back(x, b.y - h * v);
  }
  if (points.size() == 1) points.push_back(ImVec2(points[0].x + 1.0f, points[0].y));
  draw->AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, thickness);
}

}  // namespace

int shown_snapshot_index(const TrainingViewState& state) {
  const int count = static_cast<int>(state.session.snapshots().size());
  if (count == 0) return -1;
  return state.shown_snapshot < 0 || state.shown_snapshot >= count ? count - 1 : state.shown_snapshot;
}

void draw_loss_curve(const compute::TrainingSession& session, long marker_step, float width, float height) {
  const float font = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float label_w = ImGui::CalcTextSize("0.00").x + 0.5f * font;
  const ImVec2 a(origin.x + label_w, origin.y + 0.5f * font);
  const ImVec2 b(origin.x + width - 0.5f * font, origin.y + height - 1.5f * font);
  ImGui::InvisibleButton("##training-loss-curve", ImVec2(width, height));  // a widget the tests find
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 axis_colour = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
  draw->AddRect(a, b, axis_colour);
  const std::vector<float>& losses = session.losses();
  const std::vector<float>& repeat = session.repeat_losses();
  const long steps = std::max(1L, session.steps());
  float top = 0.0f;
  for (const float v : losses) top = std::max(top, std::isfinite(v) ? v : 0.0f);
  top = top > 0.0f ? std::ceil(top) : 1.0f;
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", static_cast<double>(top));
  draw->AddText(ImVec2(a.x - ImGui::CalcTextSize(text).x - 0.25f * font, a.y - 0.5f * font), axis_colour, text);
  draw->AddText(ImVec2(a.x - ImGui::CalcTextSize("0").x - 0.25f * font, b.y - 0.5f * font), axis_colour, "0");
  std::snprintf(text, sizeof text, "%ld", steps);
  draw->AddText(ImVec2(b.x - ImGui::CalcTextSize(text).x, b.y + 0.1f * font), axis_colour, text);
  const std::string step_label = i18n::tr("step");
  draw->AddText(ImVec2(a.x, b.y + 0.1f * font), axis_colour, step_label.c_str());
  if (marker_step >= 0) {
    const float x = a.x + (b.x - a.x) * static_cast<float>(marker_step) / static_cast<float>(steps);
    draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), ImGui::GetColorU32(ImGuiCol_Text, 0.6f), 1.0f);
  }
  const float thickness = std::max(1.5f, 0.12f * font);
  polyline(draw, repeat, steps, top, a, b, kRepeatColour, thickness);
  polyline(draw, losses, steps, top, a, b, kLossColour, thickness);
  if (losses.empty()) {
    const char* none = i18n::tr("The loss of each step shows here.");
    const ImVec2 size = ImGui::CalcTextSize(none);
    draw->AddText(ImVec2(0.5f * (a.x + b.x - size.x), 0.5f * (a.y + b.y - size.y)), axis_colour, none);
  }
}

void draw_training_heads(ui::UiContext& ui, TrainingViewState& state, float width, float height) {
  const compute::TrainingSession& session = state.session;
  const auto& snapshots = session.snapshots();
  const int shown = shown_snapshot_index(state);
  if (shown < 0) return;
  const compute::TrainingSnapshot& snapshot = *snapshots[static_cast<std::size_t>(shown)];
  // The slider: which kept snapshot (its step shown), the newest followed until moved.
  int index = shown;
  const int last = static_cast<int>(snapshots.size()) - 1;
  const std::string format = i18n::format(i18n::tr("step %ld"), snapshot.step);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Snapshot"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(8.0f * ImGui::GetFontSize(), width - ImGui::GetCursorPosX()));
  if (ImGui::SliderInt("##training-snapshot", &index, 0, last, format.c_str(), ImGuiSliderFlags_AlwaysClamp))
    state.shown_snapshot = index == last && session.state() == compute::TrainingState::Running ? -1 : index;
  ImGui::Spacing();
  const int layers = session.layers();
  const int heads = session.heads();
  if (layers <= 0 || heads <= 0 || static_cast<int>(snapshot.attention.size()) != layers * heads) return;
  heading(i18n::tr("Layers \xC3\x97 heads"), i18n::tr("attention on the probe: rows are queries, columns keys"), width);
  const float font = ImGui::GetFontSize();
  const float row_label_w = ImGui::CalcTextSize("L00").x + 0.5f * font;
  const float spacing = std::max(3.0f, 5.0f * ui.ui_scale);
  const float top_h = font + spacing;
  const float avail_h = height - title_height() - 2.0f * ImGui::GetFrameHeightWithSpacing();
  const float by_width = (width - row_label_w - ImGui::GetStyle().ScrollbarSize) / static_cast<float>(heads) - spacing;
  const float by_height = (avail_h - top_h) / static_cast<float>(layers) - spacing;
  const float side = std::floor(std::clamp(std::min(by_width, by_height), 24.0f * ui.ui_scale, 240.0f * ui.ui_scale));
  if (!ImGui::BeginChild("##training-grid", ImVec2(0.0f, 0.0f), false, ImGuiWindowFlags_HorizontalScrollbar)) {
    ImGui::EndChild();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorPos();
  for (int h = 0; h < heads; ++h) {
    ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(h) * (side + spacing), origin.y));
    ImGui::TextDisabled("%s", i18n::format(i18n::tr("head %d"), h).c_str());
  }
  const std::uint64_t version = session.run_id() * 1000003u + static_cast<std::uint64_t>(snapshot.step) + 1u;
  for (int l = 0; l < layers; ++l) {
    const float y = origin.y + top_h + static_cast<float>(l) * (side + spacing);
    ImGui::SetCursorPos(ImVec2(origin.x, y + 0.5f * (side - font)));
    ImGui::TextDisabled("L%d", l);
    for (int h = 0; h < heads; ++h) {
      ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(h) * (side + spacing), y));
      heatmap::HeatmapSpec spec;
      spec.source.host = &snapshot.attention[static_cast<std::size_t>(l * heads + h)];
      spec.source.version = version;
      spec.colormap = ui.view.weights_colormap;
      spec.range_min = 0.0f;
      spec.cells_width = side;
      spec.cells_height = side;
      spec.numbers = false;
      spec.max_samples = 1;
      const std::string id = "##train-thumb-" + std::to_string(l) + "-" + std::to_string(h);
      ui.heatmaps.draw(id.c_str(), spec);
    }
  }
  ImGui::EndChild();
}

}  // namespace attnviz::panels
