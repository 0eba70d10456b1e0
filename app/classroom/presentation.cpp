#include "app/classroom/presentation.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/classroom/classroom.h"
#include "app/classroom/draw_helpers.h"
#include "app/compute/model_session.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/theme.h"
#include "app/ui/view_state.h"

namespace attnviz::classroom {
namespace {

ImVec4 rgb(int hex, float alpha = 1.0f) {
  return ImVec4(static_cast<float>((hex >> 16) & 0xff) / 255.0f, static_cast<float>((hex >> 8) & 0xff) / 255.0f,
                static_cast<float>(hex & 0xff) / 255.0f, alpha);
}

// Whether the mouse is in the top-right corner the overlay occupies (or a little beside it).
bool mouse_in_corner(const ui::ClassroomState& state, ImVec2 corner, float reach) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!ImGui::IsMousePosValid()) return false;  // outside the window, or ignored (screenshots)
  const float font = ImGui::GetFontSize();
  const ImVec2 size = state.overlay_width > 0.0f ? ImVec2(state.overlay_width, state.overlay_height)
                                                 : ImVec2(font * 24.0f, font * 3.0f);
  return io.MousePos.x >= corner.x - size.x - reach && io.MousePos.y <= corner.y + size.y + reach;
}

}  // namespace

void enter_presentation(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  if (state.presenting) return;
  state.presenting = true;
  state.layout_before = ui.view.layout;
  state.text_scale_before = ui.view.text_scale;
  state.presenting_since = ImGui::GetTime();
  ui.view.layout = ui::LayoutMode::Heatmaps;
  ui.view.text_scale = std::clamp(state.presentation_text_scale, 1.0f, 3.0f);
  state.fullscreen = true;
  ImGuiIO& io = ImGui::GetIO();
  state.nav_was_enabled = (io.ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) != 0;
  io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
}

void leave_presentation(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  if (!state.presenting) return;
  state.presenting = false;
  state.presentation_text_scale = ui.view.text_scale;
  ui.view.layout = state.layout_before;
  ui.view.text_scale = state.text_scale_before;
  state.fullscreen = false;
  if (state.nav_was_enabled) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ui::apply_theme(ui.ui_scale, ui.view.theme);  // the frame loop applies it again if the text size changed
}

void toggle_presentation(ui::UiContext& ui) {
  if (ui.classroom.presenting)
    leave_presentation(ui);
  else
    enter_presentation(ui);
}

void apply_presentation_colours() {
  ImGuiStyle& style = ImGui::GetStyle();
  ui::set_theme_colours(style, ui::Theme::Light);  // its own light look, whichever theme the window has
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = rgb(0x000000);
  c[ImGuiCol_TextDisabled] = rgb(0x2b2f36);
  c[ImGuiCol_WindowBg] = rgb(0xffffff);
  c[ImGuiCol_ChildBg] = rgb(0xffffff, 0.0f);
  c[ImGuiCol_PopupBg] = rgb(0xffffff);
  c[ImGuiCol_Border] = rgb(0x1b1f24, 0.75f);
  c[ImGuiCol_FrameBg] = rgb(0xf1f3f5);
  c[ImGuiCol_MenuBarBg] = rgb(0xe9ecef);
  c[ImGuiCol_Button] = rgb(0xe9ecef);
  c[ImGuiCol_ButtonHovered] = rgb(0xbcd4f0);
  c[ImGuiCol_ButtonActive] = rgb(0x8fb6e6);
  c[ImGuiCol_CheckMark] = rgb(0x0b3f86);
  c[ImGuiCol_Tab] = rgb(0xdde2e8);
  c[ImGuiCol_TabHovered] = rgb(0xbcd4f0);
  c[ImGuiCol_TabActive] = rgb(0xffffff);
  c[ImGuiCol_Separator] = rgb(0x1b1f24, 0.6f);
  c[ImGuiCol_Header] = rgb(0xdde2e8);
  style.FrameBorderSize = 1.0f;
  style.WindowBorderSize = 0.0f;
  ui::set_accent_colours(0x0b4fa8, 0x083b7e);  // selected views and tokens, darker on a projector
}

bool overlay_shown(double seconds_presenting, bool hints, bool mouse_in_corner) {
  return mouse_in_corner || (hints && seconds_presenting >= 0.0 && seconds_presenting < kOverlaySeconds);
}

namespace {

float overlay_margin(const ui::UiContext& ui) { return 8.0f * ui.ui_scale; }

ImVec2 overlay_corner(const ui::UiContext& ui) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float margin = overlay_margin(ui);
  return {viewport->WorkPos.x + viewport->WorkSize.x - margin, viewport->WorkPos.y + margin};
}

}  // namespace

void place_presentation_overlay(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  state.overlay_strip = 0.0f;
  if (!state.presenting || ui.view.capturing_view) return;  // not in an image of the view
  const float margin = overlay_margin(ui);
  if (!overlay_shown(ImGui::GetTime() - state.presenting_since, state.hints,
                     mouse_in_corner(state, overlay_corner(ui), 3.0f * margin))) {
    return;
  }
  // Its height when last drawn; before that, about two lines of its (smaller) text and a button.
  const float height = state.overlay_height > 0.0f ? state.overlay_height : ImGui::GetFontSize() * 2.6f;
  state.overlay_strip = std::ceil(height + 2.0f * margin);
}

void draw_presentation_overlay(ui::UiContext& ui) {
  ui::ClassroomState& state = ui.classroom;
  if (!state.presenting || state.overlay_strip <= 0.0f) return;
  const ImVec2 corner = overlay_corner(ui);

  ImGui::SetNextWindowPos(corner, ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(1.0f);  // nothing of the page shows through
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 1.0f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                      ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("##presentation-overlay", nullptr, kFlags)) {
    ImGui::SetWindowFontScale(0.75f);  // for the teacher, not the back row
    // Six views (seven with a model), Training and Leave: on a narrow projector they wrap rather than run
    // off the screen.
    const float right = ImGui::GetMainViewport()->WorkSize.x - 4.0f * overlay_margin(ui);
    for (ui::MainView view : ui::kMainViews) {
      const std::string label = std::to_string(static_cast<int>(view) + 1) + "  " + i18n::tr_label(ui::tab_title(view));
      if (view != ui::MainView::Heatmaps) same_line_if_fits(button_width(label.c_str()), right);
      if (pill(label.c_str(), ui::on_screen(state, ui.view, view))) state.select_tab = view;
    }
    if (ui.model.has_model()) {
      const std::string label = "7  " + i18n::tr_label(ui::kModelViewTitle);
      same_line_if_fits(button_width(label.c_str()), right);
      if (pill(label.c_str(), ui::model_view_shown(ui.view))) ui.view.select_main_tab = ui::kModelViewTitle;
    }
    const std::string training_label = "8  " + i18n::tr_label(ui::kTrainingViewTitle);
    same_line_if_fits(button_width(training_label.c_str()), right);
    if (pill(training_label.c_str(), ui::training_view_shown(ui.view)))
      ui.view.select_main_tab = ui::kTrainingViewTitle;
    const std::string leave_label = i18n::tr_label("Leave  (Esc)");
    same_line_if_fits(button_width(leave_label.c_str()) + ImGui::GetStyle().ItemSpacing.x * 3.0f, right);
    const bool leave = ImGui::Button(leave_label.c_str());
    ImGui::TextDisabled(
        "%s",
        i18n::tr("F11 or Esc leaves \xc2\xb7 F1 all shortcuts \xc2\xb7 the mouse in this corner shows this again"));
    state.overlay_width = ImGui::GetWindowSize().x;
    state.overlay_height = ImGui::GetWindowSize().y;
    if (leave) leave_presentation(ui);
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace attnviz::classroom
