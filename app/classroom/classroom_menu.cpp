// Classroom menu: the views, steps, heads, masks, presentation mode and the Help window, and
// the keyboard shortcuts behind them (presenter remotes send Page Up / Page Down, which step
// like the arrow keys). Shortcuts are ignored while a text field has the keyboard.

#include <imgui.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "app/classroom/classroom.h"
#include "app/classroom/classroom_actions.h"
#include "app/classroom/presentation.h"
#include "app/classroom/shortcuts.h"
#include "app/classroom/step_view.h"
#include "app/classroom/view_steps.h"
#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/keys.h"
#include "app/ui/notices.h"
#include "app/ui/view_state.h"
#include "core/overview/overview.h"

namespace attnviz::classroom {
namespace {

ActionTarget target_of(ui::UiContext& ui, ViewStates& views) {
  ActionTarget target{ui.document, ui.view, ui.classroom, views};
  target.now = ImGui::GetTime();
  target.decode_steps = views.decode.model_steps;
  target.model_open = ui.model.has_model();
  if (!ui.session.has_result()) {
    // A text past the materialised path's limit has no result, but the overview shows its
    // heads and pins its queries: H and Down / Up go on working there.
    target.heads = ui.document.scenario().num_heads;
    target.queries = std::min(ui.document.tokens()->query_count(), overview::kMaxOverviewTokens);
    return target;
  }
  const Problem& problem = ui.session.problem();
  target.heads = problem.num_heads;
  target.queries = problem.n();
  target.tiles = tiled_step_count(views.tiled, problem);
  if (target.decode_steps == 0)
    target.decode_steps = decode_step_count(decode_prompt(views.decode, problem.n()), problem.n());
  return target;
}

constexpr Action kShowView[] = {Action::ShowHeatmaps, Action::ShowStep,  Action::ShowCompare,
                                Action::ShowCross,    Action::ShowTiled, Action::ShowDecode};
static_assert(std::size(kShowView) == std::size(ui::kMainViews));

// Carries out an action from a key or a menu item, with a notice for changes to the scenario.
void run(ui::UiContext& ui, ViewStates& views, Action action) {
  if (action == Action::TogglePresentation) return toggle_presentation(ui);
  if (action == Action::LeavePresentation) return leave_presentation(ui);
  ActionTarget target = target_of(ui, views);
  const std::string notice = apply_action(action, target);
  if (!notice.empty()) ui.notices.post(ui::NoticeLevel::Info, notice, "classroom");
}

// A compare setting from the menu: shown at once (the compare view comes to the front).
void apply_compare(ui::UiContext& ui, ViewStates& views, Action action) {
  run(ui, views, action);
  ui.classroom.select_tab = ui::MainView::Compare;
}

class ClassroomMenu final : public ui::Menu {
 public:
  explicit ClassroomMenu(ViewStates& views) : views_(views) {}

  [[nodiscard]] const char* label() const override { return N_("Classroom"); }

  void draw_items(ui::UiContext& ui) override {
    ui::ClassroomState& state = ui.classroom;
    for (ui::MainView view : ui::kMainViews) {
      const auto index = static_cast<std::size_t>(view);
      const std::string key = std::to_string(index + 1);
      if (ImGui::MenuItem(i18n::tr_label(ui::tab_title(view)).c_str(), key.c_str(),
                          ui::on_screen(state, ui.view, view))) {
        run(ui, views_, kShowView[index]);
      }
    }
    if (ImGui::MenuItem(i18n::tr_label(ui::kModelViewTitle).c_str(), "7", ui::model_view_shown(ui.view),
                        ui.model.has_model()))
      run(ui, views_, Action::ShowModelView);
    // Key 8 itself is the Training view's (app/panels/training_close.cpp): it needs no model.
    if (ImGui::MenuItem(i18n::tr_label(ui::kTrainingViewTitle).c_str(), "8", ui::training_view_shown(ui.view)))
      ui.view.select_main_tab = ui::kTrainingViewTitle;
    ImGui::Separator();
    // Steps act on the view on screen (the menu is drawn over it): the step view's pages, the
    // Tiled view's tiles, the Decode view's tokens.
    if (ImGui::MenuItem(i18n::tr_label("Next step").c_str(), i18n::trc("key", "Right")))
      run(ui, views_, Action::NextStep);
    if (ImGui::MenuItem(i18n::tr_label("Previous step").c_str(), i18n::trc("key", "Left")))
      run(ui, views_, Action::PreviousStep);
    const bool plays = state.shown == ui::MainView::Tiled || state.shown == ui::MainView::Decode;
    const bool playing =
        state.shown == ui::MainView::Tiled ? views_.tiled.playback.playing : views_.decode.playback.playing;
    if (ImGui::MenuItem(i18n::tr_label("Play the steps (Tiled, Decode)").c_str(), "P", plays && playing, plays))
      run(ui, views_, Action::TogglePlay);
    if (ImGui::MenuItem(i18n::tr_label("Follow the next token").c_str(), i18n::trc("key", "Down")))
      run(ui, views_, Action::NextQuery);
    if (ImGui::MenuItem(i18n::tr_label("Next head").c_str(), "H")) run(ui, views_, Action::NextHead);
    if (ImGui::MenuItem(i18n::tr_label("Causal mask").c_str(), "C", ui.document.scenario().mask.causal))
      run(ui, views_, Action::ToggleCausal);
    if (ImGui::MenuItem(i18n::tr_label("Next mask").c_str(), "M")) run(ui, views_, Action::CycleMask);
    if (ImGui::MenuItem(i18n::tr_label("Scale by 1/\xe2\x88\x9a"
                                       "d_k")
                            .c_str(),
                        "S", ui.document.scenario().scale.kind == ScaleSetting::Kind::InvSqrtDk))
      run(ui, views_, Action::ToggleScaling);
    if (ImGui::MenuItem(i18n::tr_label("Higher temperature (flatter)").c_str(), "T"))
      run(ui, views_, Action::HotterTemperature);
    if (ImGui::MenuItem(i18n::tr_label("Lower temperature (sharper)").c_str(), "Shift+T"))
      run(ui, views_, Action::ColderTemperature);
    // Its own ID: the Cross-attention view's item above has the same words.
    if (ImGui::MenuItem(i18n::tr_label("Cross-attention", "cross-toggle").c_str(), "X",
                        ui.document.scenario().source.has_value()))
      run(ui, views_, Action::ToggleCross);
    ImGui::Separator();
    // The compare view's settings; its keys act while it is on screen, the menu always.
    if (ImGui::MenuItem(i18n::tr_label("Compare: next axis").c_str(), "A"))
      apply_compare(ui, views_, Action::NextCompareAxis);
    if (ImGui::MenuItem(i18n::tr_label("Compare: 4 copies").c_str(), "N", views_.compare.count == 4))
      apply_compare(ui, views_, Action::ToggleCompareCount);
    if (ImGui::MenuItem(i18n::tr_label("Compare: wider window r").c_str(), "R"))
      apply_compare(ui, views_, Action::WiderWindow);
    if (ImGui::MenuItem(i18n::tr_label("Compare: narrower window r").c_str(), "Shift+R"))
      apply_compare(ui, views_, Action::NarrowerWindow);
    if (ImGui::MenuItem(i18n::tr_label("Compare: scaled scores").c_str(), "W", views_.compare_scores))
      apply_compare(ui, views_, Action::ToggleCompareScores);
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("Presentation mode").c_str(), "F11", state.presenting))
      run(ui, views_, Action::TogglePresentation);
    float scale = state.presenting ? ui.view.text_scale : state.presentation_text_scale;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    if (ImGui::SliderFloat(i18n::tr_label("presentation text").c_str(), &scale, 1.0f, 3.0f, "%.1f\xc3\x97")) {
      state.presentation_text_scale = scale;
      if (state.presenting) ui.view.text_scale = scale;
    }
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("Help: shortcuts").c_str(), "F1", state.help_open))
      run(ui, views_, Action::ToggleHelp);
  }

  void update(ui::UiContext& ui) override {
    ui::ClassroomState& state = ui.classroom;
    if (state.shown_frame < ImGui::GetFrameCount() - 1) state.shown = ui::MainView::Heatmaps;
    if (state.start_presenting) {
      state.start_presenting = false;
      enter_presentation(ui);
    }
    follow_new_source(ui);
    if (state.presenting) apply_presentation_colours();
    place_presentation_overlay(ui);
    handle_keys(ui);
    if (std::optional<std::string> tab = take_tab_request(state)) ui.view.select_main_tab = *tab;
    draw_help(state);
  }

  void draw_overlay(ui::UiContext& ui) override { draw_presentation_overlay(ui); }

 private:
  // A scenario that gains a source (the cross-attention preset, or the Source panel) shows
  // the Cross-attention view, unless the command line asked for a view or a model is open or
  // opening: then the Heatmaps view shows the model (`--model` with such a scenario opened on
  // Cross-attention, which shows the scenario and not the model).
  void follow_new_source(const ui::UiContext& ui) {
    ui::ClassroomState& state = ui.classroom;
    const bool has_source = ui.document.scenario().source.has_value();
    const bool model_shown = ui.model.has_model() || ui.model.opening();
    if (has_source && !had_source_ && !state.start_view_given && !model_shown) state.select_tab = ui::MainView::Cross;
    had_source_ = has_source;
    state.start_view_given = false;  // only the first frame is the command line's
  }

  void handle_keys(ui::UiContext& ui) {
    const ui::ClassroomState& state = ui.classroom;
    const ImGuiIO& io = ImGui::GetIO();
    if (!ui::keys::plain_keys_free()) return;
    // The arrows, Page and Home/End keys that step this view are its own, not the navigation's.
    for (int key : classroom_keys()) {
      if (action_for_key(key, false, state.shown, state.presenting, state.help_open) != Action::None)
        ui::keys::claim_from_navigation(key);
    }
    if (io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
    for (int key : classroom_keys()) {
      if (!ImGui::IsKeyPressed(key, key_repeats(key))) continue;
      run(ui, views_, action_for_key(key, io.KeyShift, state.shown, state.presenting, state.help_open));
    }
  }

  // Every shortcut of the window (shortcuts.h), the classroom's first. The window is as wide as
  // its widest line where the screen has room, else 95 % of the screen with the actions wrapped
  // (at presentation text sizes the widest line ran past the right edge); it scrolls when it is
  // taller than the screen allows.
  static void draw_help(ui::ClassroomState& state) {
    if (!state.help_open) return;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const ImGuiStyle& style = ImGui::GetStyle();
    float keys_width = 0.0f;
    float action_width = 0.0f;
    for (const Shortcut& s : classroom_shortcuts()) {
      keys_width = std::max(keys_width, ImGui::CalcTextSize(i18n::tr(s.keys)).x);
      action_width = std::max(action_width, ImGui::CalcTextSize(i18n::tr(s.action)).x);
    }
    const float chrome = 2.0f * style.WindowPadding.x + 4.0f * style.CellPadding.x + style.ScrollbarSize;
    const float width = std::min(keys_width + action_width + chrome, viewport->WorkSize.x * 0.95f);
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f, viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
        ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, viewport->WorkSize.y * 0.85f));
    if (ImGui::Begin(
            i18n::tr_label("Help: shortcuts").c_str(), &state.help_open,
            ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
      for (const bool window : {false, true}) {
        ImGui::TextDisabled("%s", window ? i18n::tr("The window") : i18n::tr("Classroom"));
        ImGui::PushID(window ? 1 : 0);
        if (ImGui::BeginTable("##shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
          // not translated: the columns' IDs (the table shows no header row)
          ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, keys_width);  // not translated
          ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);          // not translated
          for (const Shortcut& s : classroom_shortcuts()) {
            if (s.window != window) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(i18n::tr(s.keys));
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", i18n::tr(s.action));
          }
          ImGui::EndTable();
        }
        ImGui::PopID();
        ImGui::Spacing();
      }
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled(
          "%s",
          i18n::tr("Keys are ignored while you type in a text field. Every change a key makes is undone by Ctrl+Z."));
      ImGui::PopTextWrapPos();
    }
    ImGui::End();
  }

  ViewStates& views_;
  bool had_source_ = false;
};

}  // namespace

std::unique_ptr<ui::Menu> make_classroom_menu(ViewStates& views) { return std::make_unique<ClassroomMenu>(views); }

}  // namespace attnviz::classroom
