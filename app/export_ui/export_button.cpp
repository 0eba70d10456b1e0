// The Export button in a heatmap's title line and Copy as CSV (its menu, or Ctrl+C over the
// heatmap). The button is a small grey glyph (a frame only when hovered), so the title keeps
// its formula and a row of three heatmaps does not read as a toolbar.

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <optional>
#include <string>

#include "app/compute/compute_session.h"
#include "app/export_ui/export_ui.h"
#include "app/export_ui/window_source.h"
#include "app/i18n/translate.h"
#include "app/ui/keys.h"
#include "app/ui/notices.h"
#include "app/ui/view_state.h"

namespace attnviz::export_ui {
namespace {

float icon_side() { return std::round(ImGui::GetFontSize() * 1.1f); }

std::string popup_id(Quantity quantity) { return std::string("##export_menu_") + exporting::quantity_name(quantity); }

// A "save to disk" glyph: an arrow down into an open tray, drawn (the fonts may lack one).
// Grey like the formulas beside it, dark with a light frame when hovered.
void draw_export_icon(ImVec2 at, float side, bool hovered, float scale) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  if (hovered) {
    list->AddRectFilled(at, ImVec2(at.x + side, at.y + side), ImGui::GetColorU32(ImGuiCol_ButtonHovered),
                        style.FrameRounding);
  }
  const ImU32 colour = ImGui::GetColorU32(hovered ? ImGuiCol_Text : ImGuiCol_TextDisabled);
  const float thick = std::max(1.5f * scale, 1.0f);
  const float cx = std::round(at.x + side * 0.5f) + 0.5f;
  const auto y = [&](float f) { return at.y + side * f; };
  const auto x = [&](float f) { return at.x + side * f; };
  list->AddLine(ImVec2(cx, y(0.14f)), ImVec2(cx, y(0.62f)), colour, thick);
  list->AddLine(ImVec2(x(0.30f), y(0.42f)), ImVec2(cx, y(0.64f)), colour, thick);
  list->AddLine(ImVec2(x(0.70f), y(0.42f)), ImVec2(cx, y(0.64f)), colour, thick);
  const ImVec2 tray[] = {ImVec2(x(0.16f), y(0.60f)), ImVec2(x(0.16f), y(0.84f)), ImVec2(x(0.84f), y(0.84f)),
                         ImVec2(x(0.84f), y(0.60f))};
  list->AddPolyline(tray, 4, colour, ImDrawFlags_None, thick);
}

}  // namespace

std::optional<ExportButtonPlace> place_export_button(float title_left, float title_right, float cells_end,
                                                     float visible_right, float side, float spacing) {
  // Right-aligned with the cells, or just after a long title (large text), reaching at most
  // one spacing past the cells as the titles do. A title longer still (a narrow heatmap): no
  // button rather than one over the title; Ctrl+C and Export all still reach the matrix.
  ExportButtonPlace place;
  place.left = std::max(cells_end - side, title_right + 0.5f * spacing);
  if (cells_end <= visible_right) {
    if (place.left + side > cells_end + spacing) return std::nullopt;
    return place;
  }
  // A heatmap scrolled partly out of view (or wider than its panel): the button moves into
  // the visible part, over the end of a title the window's edge cuts anyway, so that it shows
  // as long as the title does.
  place.left = std::min(place.left, visible_right - side);
  place.over_title = title_right + 0.5f * spacing > place.left;
  if (place.left < title_left) return std::nullopt;  // the title is out of view too
  return place;
}

// The panel's title lines reach 8 px (scaled) past the cells; two item spacings keep a formula
// clear of the button even then.
float export_button_room() { return icon_side() + 2.0f * ImGui::GetStyle().ItemSpacing.x; }

GlyphButton export_glyph_button(ui::UiContext& ui, const char* id, float line_end) {
  const float side = icon_side();
  const ImVec2 title_min = ImGui::GetItemRectMin();
  const ImVec2 title_max = ImGui::GetItemRectMax();
  const ImVec2 saved = ImGui::GetCursorPos();
  const float to_screen = ImGui::GetCursorScreenPos().x - saved.x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const std::optional<ExportButtonPlace> place = place_export_button(
      title_min.x, title_max.x, to_screen + line_end, ImGui::GetCurrentWindow()->InnerClipRect.Max.x, side, spacing);
  if (!place) return {};
  const float left = place->left;
  ImGui::SetCursorScreenPos(ImVec2(left, title_min.y + std::max((title_max.y - title_min.y - side) * 0.5f, 0.0f)));
  ImGui::PushID(id);
  GlyphButton button;
  button.clicked = ImGui::InvisibleButton("##export", ImVec2(side, side));
  button.hovered = ImGui::IsItemHovered();
  if (place->over_title) {  // the glyph on a plain background, not tangled with the title's letters
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(left - 0.5f * spacing, title_min.y),
                                              ImVec2(left + side, title_max.y), ImGui::GetColorU32(ImGuiCol_WindowBg));
  }
  draw_export_icon(ImGui::GetItemRectMin(), side, button.hovered, ui.ui_scale);
  ImGui::PopID();
  ImGui::SetCursorPos(saved);
  return button;
}

void heatmap_export_button(ui::UiContext& ui, Quantity quantity, float line_end) {
  if (!has_something_to_export(ui)) return;
  const GlyphButton button = export_glyph_button(ui, exporting::quantity_name(quantity), line_end);
  if (button.hovered) {
    ImGui::SetTooltip(
        i18n::tr("Export the %s as shown (head %d, its colours and zoom):\nPNG, SVG, CSV, NPY or JSON; or copy as CSV"),
        quantity_label(quantity), exports_model_layer(ui) ? ui.view.model_head : ui.view.selected_head);
  }
  const std::string menu = popup_id(quantity);
  ImGui::PushID(exporting::quantity_name(quantity));
  if (button.clicked) ImGui::OpenPopup(menu.c_str());
  if (ImGui::BeginPopup(menu.c_str())) {
    if (ImGui::MenuItem(i18n::tr_label("Export\xE2\x80\xA6").c_str())) open_export(ui, quantity);
    if (ImGui::MenuItem(i18n::tr_label("Copy as CSV").c_str(), i18n::tr("Ctrl+C over it"))) copy_as_csv(ui, quantity);
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("Export all\xE2\x80\xA6").c_str(), "Ctrl+E")) open_export_all(ui);
    ImGui::EndPopup();
  }
  ImGui::PopID();
}

void copy_reporting_failure(ui::UiContext& ui, const std::function<void()>& copy) {
  try {
    copy();
  } catch (const std::exception& error) {
    ui.notices.post(ui::NoticeLevel::Error, i18n::format(i18n::tr("Copy as CSV failed: %s"), error.what()));
  }
}

void ctrl_c_copies(ui::UiContext& ui, bool hovered, const char* what, const std::function<void()>& copy) {
  if (!hovered) return;
  if (ui::keys::ctrl_pressed(ui::keys::kC, false)) copy_reporting_failure(ui, copy);
  // Appends to the panel's tooltip of the hovered cell (ImGui merges tooltips of one frame).
  ImGui::BeginTooltip();
  ImGui::TextDisabled(i18n::tr("Ctrl+C copies %s as CSV"), what);
  ImGui::EndTooltip();
}

void heatmap_hover_actions(ui::UiContext& ui, Quantity quantity, bool hovered) {
  if (!has_something_to_export(ui)) return;
  ctrl_c_copies(ui, hovered, i18n::tr("this matrix"), [&] { copy_as_csv(ui, quantity); });
}

void copy_as_csv(ui::UiContext& ui, Quantity quantity) {
  if (!has_something_to_export(ui)) return;
  copy_reporting_failure(ui, [&] {
    const ShownState shown = shown_state(ui);
    const std::string csv = csv_as_shown(quantity, shown, export_source(ui));
    ImGui::SetClipboardText(csv.c_str());
    const std::optional<exporting::CellWindow> window = shown_window(quantity, shown);
    ui.notices.post(ui::NoticeLevel::Info,
                    i18n::format(window ? i18n::tr("Copied the %s of head %d (the zoomed cells) as CSV")
                                        : i18n::tr("Copied the %s of head %d as CSV"),
                                 quantity_label(quantity), shown.head));
  });
}

}  // namespace attnviz::export_ui
