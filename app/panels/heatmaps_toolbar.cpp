// The Heatmaps panel's toolbar: the head buttons, what to show, the matrix's shape, Unpin,
// and either the zoom (which rows and columns are shown, Show all) or the mouse hints. The
// items wrap onto more lines in a narrow panel or with large text.

#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/compute/compute_session.h"
#include "app/heatmap/axis_math.h"
#include "app/panels/heatmaps_parts.h"
#include "app/ui/flow.h"
#include "app/ui/palette.h"
#include "app/ui/theme.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {

// How the query heads share keys and values, for the toolbar: "" for multi-head attention,
// "  ·  MQA: 1 K/V head for all 4" or "  ·  GQA: 2 K/V heads, 4 queries each".
std::string kv_sharing(int heads, int kv_heads) {
  if (kv_heads >= heads || kv_heads <= 0) return "";
  if (kv_heads == 1) return "  ·  MQA: 1 K/V head for all " + std::to_string(heads);
  return "  ·  GQA: " + std::to_string(kv_heads) + " K/V heads, " + std::to_string(heads / kv_heads) + " queries each";
}

void draw_heatmaps_toolbar(ui::UiContext& ui, int head_count) {
  const float spacing = 18.0f * ui.ui_scale;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Head");
  ImGui::SameLine();
  if (head_count <= 16) {
    const float button_w = ImGui::GetFrameHeight() * 1.3f;
    for (int h = 0; h < head_count; ++h) {
      ImGui::PushID(h);
      if (h > 0) ui::same_line_if_fits(button_w, 3.0f * ui.ui_scale);
      const bool selected = h == ui.view.selected_head;
      if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ui::accent_colour());
      if (selected) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
      if (ImGui::Button(std::to_string(h).c_str(), ImVec2(button_w, 0))) ui.view.selected_head = h;
      if (selected) ImGui::PopStyleColor(2);
      ImGui::PopID();
    }
  } else {
    ImGui::SetNextItemWidth(140.0f * ui.ui_scale);
    ImGui::SliderInt("##head", &ui.view.selected_head, 0, head_count - 1);
  }
  int view = static_cast<int>(ui.view.head_view);
  const float combo_w = 190.0f * ui.ui_scale;
  ui::same_line_if_fits(combo_w, spacing);
  ImGui::SetNextItemWidth(combo_w);
  if (ImGui::Combo("##show", &view, "Auto\0All three steps\0Raw scores\0Scaled + masked\0Weights\0")) {
    ui.view.head_view = static_cast<ui::HeadView>(view);
  }
  const Problem& problem = ui.session.problem();
  char shape[128];
  std::snprintf(shape, sizeof shape, "%d × %d  ·  d_k %d, d_v %d%s", problem.n(), problem.m(), problem.d_k, problem.d_v,
                kv_sharing(problem.num_heads, problem.num_kv_heads).c_str());
  ui::same_line_if_fits(ImGui::CalcTextSize(shape).x, spacing);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", shape);
  if (ui.view.pinned_query) {
    ui::same_line_if_fits(ImGui::CalcTextSize("Unpin query").x + 2.0f * ImGui::GetStyle().FramePadding.x, spacing);
    if (ImGui::SmallButton("Unpin query")) ui.view.pinned_query.reset();
  }
  // A zoomed view says so where it cannot be missed, and how to get everything back.
  const std::string zoomed = heatmap::zoom_caption(ui.view.head_zoom, problem.n(), problem.m());
  if (!zoomed.empty()) {
    const std::string text = "Zoomed: " + zoomed;
    const char* button = "Show all (Home)";
    ui::same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x + ImGui::CalcTextSize(button).x + 3.0f * spacing,
                          spacing);
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ui::palette::vec4(ui::palette::kWarningText), "%s", text.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton(button)) ui.view.head_zoom = {0.0f, 0.0f, 0.0f, 0.0f};
    return;
  }
  const char* hint =
      "hover a cell for its numbers · click pins a query · wheel zooms · drag pans · double-click resets";
  const float w = ImGui::CalcTextSize(hint).x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  if (used + w + 30.0f * ui.ui_scale < right) {
    ImGui::SameLine(right - w);
    ImGui::TextDisabled("%s", hint);
  }
}

}  // namespace attnviz::panels
