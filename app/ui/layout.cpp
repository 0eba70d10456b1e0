#include "app/ui/layout.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "app/document/document.h"
#include "app/document/document_names.h"
#include "app/i18n/translate.h"
#include "core/scenario/preset_titles.h"
#include "app/ui/classroom_state.h"
#include "app/ui/long_text.h"
#include "app/ui/model_layer.h"
#include "app/ui/notices.h"
#include "app/window/widget_log.h"

namespace attnviz::ui {
namespace {

constexpr ImGuiWindowFlags kAreaFlags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;

// While a pretrained model is open the column still edits the scenario, whose sentence is not
// the model's text: said once at its top, so that two sentences on screen do not read as one.
void draw_scenario_scope(const UiContext& ui) {
  if (!ui.model.has_model()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", i18n::tr("These panels edit the scenario; the model reads its own Text."));
  ImGui::PopStyleColor();
  ImGui::Separator();
}

bool begin_area(const char* id, const Rect& rect, ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos(ImVec2(rect.x, rect.y));
  ImGui::SetNextWindowSize(ImVec2(rect.w, rect.h));
  return ImGui::Begin(id, nullptr, kAreaFlags | extra);
}

}  // namespace

VisibleAreas visible_areas(LayoutMode mode) {
  switch (mode) {
    case LayoutMode::Full: return {true, true, false, true};
    case LayoutMode::Heatmaps: return {false, true, false, false};
    case LayoutMode::CompareReady: return {false, true, true, false};
  }
  return {};
}

AreaRects compute_areas(LayoutMode mode, float width, float height, float ui_scale, float menu_bar_height,
                        bool status_bar) {
  AreaRects a;
  const VisibleAreas visible = visible_areas(mode);
  const float status_h = status_bar ? std::round(26.0f * ui_scale) : 0.0f;
  a.menu_bar = {0, 0, width, menu_bar_height};
  a.status_bar = {0, height - status_h, width, status_h};
  const float top = menu_bar_height;
  const float body_h = std::max(height - top - status_h, 1.0f);
  float left = 0.0f;
  float right = width;
  if (visible.inputs) {
    const float w = std::clamp(width * 0.26f, 330.0f * ui_scale, 520.0f * ui_scale);
    a.inputs = {0, top, std::min(w, width * 0.5f), body_h};
    left = a.inputs.w;
  }
  if (visible.side) {
    const float w = std::clamp(width * 0.30f, 360.0f * ui_scale, 560.0f * ui_scale);
    a.side = {width - std::min(w, width * 0.5f), top, std::min(w, width * 0.5f), body_h};
    right = a.side.x;
  }
  a.main = {left, top, std::max(right - left, 1.0f), body_h};
  return a;
}

float Layout::draw_menu_bar(UiContext& ui) {
  float height = 0.0f;
  if (ImGui::BeginMainMenuBar()) {
    std::vector<std::string> titles;
    for (const auto& menu : menus_) {
      titles.emplace_back(i18n::tr(menu->label()));
      if (ImGui::BeginMenu(i18n::tr_label(menu->label()).c_str())) {
        menu->draw_items(ui);
        ImGui::EndMenu();
      }
    }
    // For tests that check the language (the widget log names a menu "").
    if (window::widget_log::enabled()) window::widget_log::set_menu_titles(std::move(titles));
    // "korean.json  —  Korean worked example  •": the file first, the title while it still
    // describes the content, as much as fits after the menus.
    const float margin = ImGui::GetStyle().ItemSpacing.x * 2.0f;
    const float room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - margin - 20.0f * ui.ui_scale;
    // While a pretrained model is shown, the model ("gpt2  —  GPT2LMHeadModel, 12 layers × 12 heads").
    const std::string& model = shown_model_caption(ui);
    const document::Caption named =
        model.empty() ? document::caption_of(ui.document) : document::Caption{{model}, false};
    const std::string caption = document::fitted_caption(
        named, room, [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; });
    if (!caption.empty()) {
      ImGui::SetCursorPosX(ImGui::GetWindowWidth() - ImGui::CalcTextSize(caption.c_str()).x - margin);
      ImGui::TextDisabled("%s", caption.c_str());
      if (ImGui::IsItemHovered() && model.empty() && !ui.document.title_matches() &&
          !ui.document.scenario().title.empty()) {
        ImGui::SetTooltip(i18n::tr("The title \u201C%s\u201D was written for the scenario before your edits;\n"
                                   "File > Save As\u2026 lets you give it a new one."),
                          shown_text(worded_title(ui.document.scenario().title, i18n::wording()), 200, 1).text.c_str());
      }
    }
    height = ImGui::GetWindowHeight();
    ImGui::EndMainMenuBar();
  }
  return height;
}

void Layout::draw_inputs(UiContext& ui, const Rect& rect, bool with_side) {
  if (begin_area("##inputs", rect)) {
    draw_scenario_scope(ui);
    for (const auto& panel : panels_) {
      const PanelArea area = panel->area();
      if (area != PanelArea::Inputs && !(with_side && area == PanelArea::Side)) continue;
      ImGui::PushID(panel->title());
      const ImGuiTreeNodeFlags flags = panel->open_by_default() ? ImGuiTreeNodeFlags_DefaultOpen : 0;
      if (const auto asked = pending_open_.find(panel->title()); asked != pending_open_.end()) {
        ImGui::SetNextItemOpen(asked->second);
        pending_open_.erase(asked);
      }
      const bool open = ImGui::CollapsingHeader(i18n::tr_label(panel->title()).c_str(), flags);
      panel_open_[panel->title()] = open;
      if (open) {
        ImGui::Indent(4.0f * ui.ui_scale);
        panel->draw(ui);
        ImGui::Unindent(4.0f * ui.ui_scale);
        ImGui::Spacing();
      }
      ImGui::PopID();
    }
  }
  ImGui::End();
}

void Layout::draw_main(UiContext& ui, const Rect& rect) {
  std::vector<Panel*> main;
  for (const auto& panel : panels_) {
    if (panel->area() == PanelArea::Main) main.push_back(panel.get());
  }
  const std::string select = std::exchange(ui.view.select_main_tab, std::string());
  if (!select.empty()) shown_main_ = select;
  // The tab bar is chrome the audience does not need: while presenting, the view alone (keys
  // 1-7 and the presentation overlay switch views).
  const bool tabs = main.size() > 1 && !ui.classroom.presenting;
  if (begin_area("##main", rect, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
    if (tabs && ImGui::BeginTabBar("##views")) {
      // The tab bar keeps its own selection; after a frame without it (presenting), or on a
      // request, it is told which view is on screen (decided before the loop: a tab drawn in
      // it changes shown_main_).
      const std::string wanted = tabs_hidden_ || !select.empty() ? shown_main_ : std::string();
      for (Panel* panel : main) {
        const bool select_this = !wanted.empty() && wanted == panel->title();
        if (ImGui::BeginTabItem(i18n::tr_label(panel->title()).c_str(), nullptr,
                                select_this ? ImGuiTabItemFlags_SetSelected : 0)) {
          shown_main_ = panel->title();
          panel->draw(ui);
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    } else if (!tabs && !main.empty()) {
      const auto shown =
          std::find_if(main.begin(), main.end(), [&](const Panel* p) { return shown_main_ == p->title(); });
      Panel* panel = shown != main.end() ? *shown : main.front();
      shown_main_ = panel->title();
      panel->draw(ui);
    }
  }
  ImGui::End();
  tabs_hidden_ = !tabs;
  ui.view.shown_main_tab = shown_main_;
}

void Layout::draw_side(UiContext& ui, const Rect& rect) {
  if (begin_area("##side", rect)) {
    for (const auto& panel : panels_) {
      if (panel->area() != PanelArea::Side) continue;
      ImGui::PushID(panel->title());
      if (ImGui::CollapsingHeader(i18n::tr_label(panel->title()).c_str(), ImGuiTreeNodeFlags_DefaultOpen))
        panel->draw(ui);
      ImGui::PopID();
    }
  }
  ImGui::End();
}

void Layout::draw_status_bar(UiContext& ui, const Rect& rect) {
  ImGui::SetNextWindowPos(ImVec2(rect.x, rect.y));
  ImGui::SetNextWindowSize(ImVec2(rect.w, rect.h));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(10.0f * ui.ui_scale, 3.0f * ui.ui_scale));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImGui::GetStyleColorVec4(ImGuiCol_MenuBarBg));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##status", nullptr, flags)) {
    for (const auto& panel : panels_) {
      if (panel->area() == PanelArea::StatusBar) panel->draw(ui);
    }
  }
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
}

RememberedLayout Layout::remembered(LayoutMode mode, const ViewState& view) const {
  RememberedLayout layout;
  layout.mode = mode;
  layout.model_shown = view.model_shown;
  layout.main_view = shown_main_;
  layout.open_panels = pending_open_;  // asked of a column not drawn since (another layout mode)
  for (const auto& [title, open] : panel_open_) layout.open_panels.insert_or_assign(title, open);
  return layout;
}

void Layout::restore(const RememberedLayout& layout, ViewState& view, bool keep_main_view) {
  view.layout = layout.mode;
  view.model_shown = layout.model_shown;
  const bool known = std::any_of(panels_.begin(), panels_.end(), [&](const auto& panel) {
    return panel->area() == PanelArea::Main && layout.main_view == panel->title();
  });
  if (!keep_main_view && known) view.select_main_tab = layout.main_view;
  pending_open_ = layout.open_panels;
}

RememberedLayout Layout::default_layout() const {
  RememberedLayout layout;
  for (const auto& panel : panels_) {
    if (panel->area() == PanelArea::Inputs || panel->area() == PanelArea::Side)
      layout.open_panels[panel->title()] = panel->open_by_default();
  }
  const auto first_main =
      std::find_if(panels_.begin(), panels_.end(), [](const auto& panel) { return panel->area() == PanelArea::Main; });
  if (first_main != panels_.end()) layout.main_view = (*first_main)->title();
  return layout;
}

// View > Reset layout: as a first start shows it.
void Layout::reset(ViewState& view) {
  const RememberedLayout first = default_layout();
  view.layout = first.mode;
  view.model_shown = first.model_shown;
  panel_open_.clear();
  pending_open_ = first.open_panels;
  if (!first.main_view.empty()) view.select_main_tab = first.main_view;
}

void Layout::draw(UiContext& ui) {
  if (std::exchange(ui.view.reset_layout_requested, false)) reset(ui.view);
  for (const auto& menu : menus_) menu->update(ui);
  // Presenting, the window is content only: the menus' keys still work (update() above), the
  // menu bar and the status bar are not drawn.
  const bool chrome = !ui.classroom.presenting;
  // Presenting, the corner overlay (while it shows) has a strip of its own above the view.
  const float menu_h = chrome ? draw_menu_bar(ui) : ui.classroom.overlay_strip;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const AreaRects areas = compute_areas(ui.view.layout, display.x, display.y, ui.ui_scale, menu_h, chrome);
  const VisibleAreas visible = visible_areas(ui.view.layout);
  if (visible.inputs) draw_inputs(ui, areas.inputs, visible.side_in_inputs);
  if (visible.main) draw_main(ui, areas.main);
  ui.view.main_area = {areas.main.x, areas.main.y, areas.main.w, areas.main.h};
  if (visible.side) draw_side(ui, areas.side);
  if (chrome) draw_status_bar(ui, areas.status_bar);
  for (const auto& dialog : dialogs_) dialog->update(ui);
  for (const auto& menu : menus_) menu->draw_overlay(ui);
  if (ui.view.capturing_view) return;  // the view alone goes into its image
  ui.notices.draw(display.x - 12.0f * ui.ui_scale, areas.status_bar.y - 8.0f * ui.ui_scale,
                  std::min(560.0f * ui.ui_scale, display.x * 0.6f));
}

}  // namespace attnviz::ui
