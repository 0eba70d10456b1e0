// The Heatmaps panel's toolbar: the head buttons, what to show, the matrix's shape, Unpin,
// and either the zoom (which rows and columns are shown, Show all) or the mouse hints. The
// items wrap onto more lines in a narrow panel or with large text.

#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/i18n/translate.h"
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
  if (kv_heads == 1) return i18n::format(i18n::tr("  \u00B7  MQA: 1 K/V head for all %d"), heads);
  const int group = heads / kv_heads;
  // TRANSLATORS: grouped-query attention: K/V heads, then query heads sharing each one.
  return i18n::format(i18n::trn("  \u00B7  GQA: %d K/V heads, %d query each",
                                "  \u00B7  GQA: %d K/V heads, %d queries each", static_cast<unsigned long>(group)),
                      kv_heads, group);
}

void draw_heatmaps_toolbar(ui::UiContext& ui, int head_count) {
  const float spacing = 18.0f * ui.ui_scale;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Head"));
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
  // ImGui's list: each item ends with '\0'.
  std::string items;
  for (const char* item : {N_("Auto"), N_("All three steps"), N_("Raw scores"), N_("Scaled + masked"), N_("Weights")}) {
    items += i18n::tr(item);
    items += '\0';
  }
  if (ImGui::Combo("##show", &view, items.c_str())) {
    ui.view.head_view = static_cast<ui::HeadView>(view);
  }
  const Problem& problem = ui.session.problem();
  char shape[128];
  std::snprintf(shape, sizeof shape, "%d × %d  ·  d_k %d, d_v %d%s",  // not translated: symbols
                problem.n(), problem.m(), problem.d_k, problem.d_v,
                kv_sharing(problem.num_heads, problem.num_kv_heads).c_str());
  ui::same_line_if_fits(ImGui::CalcTextSize(shape).x, spacing);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", shape);
  if (ui.view.pinned_query) {
    const std::string unpin = i18n::tr_label("Unpin query");
    ui::same_line_if_fits(ImGui::CalcTextSize(i18n::tr("Unpin query")).x + 2.0f * ImGui::GetStyle().FramePadding.x,
                          spacing);
    if (ImGui::SmallButton(unpin.c_str())) ui.view.pinned_query.reset();
  }
  // A zoomed view says so where it cannot be missed, and how to get everything back.
  const std::string zoomed = heatmap::zoom_caption(ui.view.head_zoom, problem.n(), problem.m());
  if (!zoomed.empty()) {
    const std::string text = i18n::format(i18n::tr("Zoomed: %s"), zoomed.c_str());
    const std::string button = i18n::tr_label("Show all (Home)");
    ui::same_line_if_fits(
        ImGui::CalcTextSize(text.c_str()).x + ImGui::CalcTextSize(i18n::tr("Show all (Home)")).x + 3.0f * spacing,
        spacing);
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ui::palette::vec4(ui::palette::warning_text()), "%s", text.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton(button.c_str())) ui.view.head_zoom = {0.0f, 0.0f, 0.0f, 0.0f};
    return;
  }
  const char* hint =
      i18n::tr("hover a cell for its numbers · click pins a query · wheel zooms · drag pans · double-click resets");
  const float w = ImGui::CalcTextSize(hint).x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  if (used + w + 30.0f * ui.ui_scale < right) {
    ImGui::SameLine(right - w);
    ImGui::TextDisabled("%s", hint);
  }
}

}  // namespace attnviz::panels
