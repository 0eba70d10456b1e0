// Classroom menu: the views, steps, heads, masks, presentation mode and the Help window, and
// the keyboard shortcuts behind them (presenter remotes send Page Up / Page Down, which step
// like the arrow keys). Shortcuts are ignored while a text field has the keyboard.

#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <string>

#include "app/classroom/classroom.h"
#include "app/classroom/classroom_edits.h"
#include "app/classroom/classroom_state.h"
#include "app/classroom/presentation.h"
#include "app/classroom/shortcuts.h"
#include "app/classroom/step_view.h"
#include "app/compute/compute_session.h"
#include "app/state/document.h"
#include "app/ui/notices.h"
#include "app/ui/view_state.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

constexpr Shortcut kShortcuts[] = {
    {"Right, Page Down", "next step (step view)"},
    {"Left, Page Up", "previous step (step view)"},
    {"Home / End", "first / last step"},
    {"Down / Up", "follow the next / previous query token"},
    {"H / Shift+H", "next / previous head"},
    {"C", "causal mask on / off"},
    {"M", "cycle masks: none, causal, sliding window, Longformer"},
    {"S", "scaling 1/\xe2\x88\x9a" "d_k on / off (the scaling lesson)"},
    {"1 2 3 4", "Heatmaps, Step by step, Compare, Cross-attention"},
    {"F11", "presentation mode (full screen, large text)"},
    {"Esc", "leave presentation mode"},
    {"F1", "this Help window"},
};

bool pressed(int key) { return ImGui::IsKeyPressed(key, true); }
bool pressed_once(int key) { return ImGui::IsKeyPressed(key, false); }

void select(MainView view) { classroom_state().select_tab = view; }

void next_head(ui::UiContext& ui, int delta) {
  if (!ui.session.has_result()) return;
  const int heads = ui.session.problem().num_heads;
  ui.view.selected_head = ((ui.view.selected_head + delta) % heads + heads) % heads;
}

void next_query(ui::UiContext& ui, int delta) {
  if (!ui.session.has_result()) return;
  const int n = ui.session.problem().n();
  const int current = ui.view.pinned_query.value_or(delta > 0 ? -1 : n);
  ui.view.pinned_query = std::clamp(current + delta, 0, n - 1);
}

void cycle_mask(ui::UiContext& ui) {
  Scenario next = ui.document.scenario();
  const MaskStep step = next_mask(next.mask);
  next.mask = step.mask;
  ui.document.apply(std::move(next), std::string("Mask: ") + step.name);
  ui.notices.post(ui::NoticeLevel::Info, std::string("Mask: ") + step.name, "classroom-mask");
}

void move_step(int delta) {
  ClassroomState& state = classroom_state();
  state.step = std::clamp(state.step + delta, 0, lesson::kStepCount - 1);
}

class ClassroomMenu final : public ui::Menu {
 public:
  [[nodiscard]] const char* label() const override { return "Classroom"; }

  void draw_items(ui::UiContext& ui) override {
    ClassroomState& state = classroom_state();
    for (MainView view : {MainView::Heatmaps, MainView::Step, MainView::Compare, MainView::Cross}) {
      const std::string key = std::to_string(static_cast<int>(view) + 1);
      if (ImGui::MenuItem(tab_title(view), key.c_str(), state.shown == view)) select(view);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Next step", "Right")) move_step(1);
    if (ImGui::MenuItem("Previous step", "Left")) move_step(-1);
    if (ImGui::MenuItem("Next head", "H")) next_head(ui, 1);
    if (ImGui::MenuItem("Causal mask", "C", ui.document.scenario().mask.causal))
      ui.document.apply(toggle_causal(ui.document.scenario()), "Toggle causal mask");
    if (ImGui::MenuItem("Next mask", "M")) cycle_mask(ui);
    if (ImGui::MenuItem("Scale by 1/\xe2\x88\x9a" "d_k", "S", ui.document.scenario().scale.kind == ScaleSetting::Kind::InvSqrtDk))
      ui.document.apply(toggle_scaling(ui.document.scenario()), "Toggle scaling");
    ImGui::Separator();
    if (ImGui::MenuItem("Presentation mode", "F11", state.presenting)) toggle_presentation(ui);
    float scale = state.presenting ? ui.view.text_scale : state.presentation_text_scale;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    if (ImGui::SliderFloat("presentation text", &scale, 1.0f, 3.0f, "%.1f\xc3\x97")) {
      state.presentation_text_scale = scale;
      if (state.presenting) ui.view.text_scale = scale;
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Help: shortcuts", "F1", state.help_open)) state.help_open = !state.help_open;
  }

  void update(ui::UiContext& ui) override {
    ClassroomState& state = classroom_state();
    if (state.shown_frame < ImGui::GetFrameCount() - 1) state.shown = MainView::Heatmaps;
    if (state.start_presenting) {
      state.start_presenting = false;
      enter_presentation(ui);
    }
    follow_new_source(ui);
    if (state.presenting) apply_presentation_colours();
    handle_keys(ui);
    if (std::optional<std::string> tab = take_tab_request()) ui.view.select_main_tab = *tab;
    draw_help(state);
  }

 private:
  // A scenario that gains a source (the cross-attention preset, or the Source panel) shows
  // the Cross-attention view, unless the command line asked for a view.
  void follow_new_source(const ui::UiContext& ui) {
    ClassroomState& state = classroom_state();
    const bool has_source = ui.document.scenario().source.has_value();
    if (has_source && !had_source_ && !state.start_view_given) state.select_tab = MainView::Cross;
    had_source_ = has_source;
    state.start_view_given = false;  // only the first frame is the command line's
  }

  void handle_keys(ui::UiContext& ui) {
    ClassroomState& state = classroom_state();
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
    if (pressed_once(GLFW_KEY_F11)) toggle_presentation(ui);
    if (pressed_once(GLFW_KEY_ESCAPE) && state.presenting) leave_presentation(ui);
    if (pressed_once(GLFW_KEY_F1)) state.help_open = !state.help_open;
    if (state.shown == MainView::Step) {
      if (pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_PAGE_DOWN)) move_step(1);
      if (pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_PAGE_UP)) move_step(-1);
      if (pressed_once(GLFW_KEY_HOME)) state.step = 0;
      if (pressed_once(GLFW_KEY_END)) state.step = lesson::kStepCount - 1;
    }
    if (pressed(GLFW_KEY_DOWN)) next_query(ui, 1);
    if (pressed(GLFW_KEY_UP)) next_query(ui, -1);
    if (pressed_once(GLFW_KEY_H)) next_head(ui, io.KeyShift ? -1 : 1);
    if (pressed_once(GLFW_KEY_C)) ui.document.apply(toggle_causal(ui.document.scenario()), "Toggle causal mask");
    if (pressed_once(GLFW_KEY_M)) cycle_mask(ui);
    if (pressed_once(GLFW_KEY_S)) ui.document.apply(toggle_scaling(ui.document.scenario()), "Toggle scaling");
    const int digits[] = {GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4};
    for (int i = 0; i < 4; ++i)
      if (pressed_once(digits[i])) select(static_cast<MainView>(i));
  }

  static void draw_help(ClassroomState& state) {
    if (!state.help_open) return;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f, viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("Help: classroom shortcuts", &state.help_open,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
      if (ImGui::BeginTable("##shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
        for (const Shortcut& s : classroom_shortcuts()) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(s.keys);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(s.action);
        }
        ImGui::EndTable();
      }
      ImGui::TextDisabled("Also: Ctrl+Z / Ctrl+Y undo and redo every change; Ctrl+= / Ctrl+- change the text size.");
      ImGui::TextDisabled("Keys are ignored while you type in a text field.");
    }
    ImGui::End();
  }

  bool had_source_ = false;
};

}  // namespace

std::span<const Shortcut> classroom_shortcuts() { return kShortcuts; }

std::unique_ptr<ui::Menu> make_classroom_menu() { return std::make_unique<ClassroomMenu>(); }

}  // namespace attnviz::classroom
