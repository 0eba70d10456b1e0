#include "app/classroom/classroom_actions.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

#include "app/classroom/classroom_edits.h"
#include "app/state/document.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

constexpr int kKeys[] = {GLFW_KEY_RIGHT, GLFW_KEY_PAGE_DOWN, GLFW_KEY_LEFT, GLFW_KEY_PAGE_UP, GLFW_KEY_HOME,
                         GLFW_KEY_END,   GLFW_KEY_DOWN,      GLFW_KEY_UP,   GLFW_KEY_H,       GLFW_KEY_C,
                         GLFW_KEY_M,     GLFW_KEY_S,         GLFW_KEY_1,    GLFW_KEY_2,       GLFW_KEY_3,
                         GLFW_KEY_4,     GLFW_KEY_F11,       GLFW_KEY_ESCAPE, GLFW_KEY_F1};

void move_step(ClassroomState& state, int delta) {
  state.step = std::clamp(state.step + delta, 0, lesson::kStepCount - 1);
}

void next_head(ActionTarget& t, int delta) {
  if (t.heads <= 0) return;
  t.view.selected_head = ((t.view.selected_head + delta) % t.heads + t.heads) % t.heads;
}

void next_query(ActionTarget& t, int delta) {
  if (t.queries <= 0) return;
  const int current = t.view.pinned_query.value_or(delta > 0 ? -1 : t.queries);
  t.view.pinned_query = std::clamp(current + delta, 0, t.queries - 1);
}

}  // namespace

Action action_for_key(int key, bool shift, MainView shown, bool presenting) {
  const bool stepping = shown == MainView::Step;
  switch (key) {
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_PAGE_DOWN: return stepping ? Action::NextStep : Action::None;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_PAGE_UP: return stepping ? Action::PreviousStep : Action::None;
    case GLFW_KEY_HOME: return stepping ? Action::FirstStep : Action::None;
    case GLFW_KEY_END: return stepping ? Action::LastStep : Action::None;
    case GLFW_KEY_DOWN: return Action::NextQuery;
    case GLFW_KEY_UP: return Action::PreviousQuery;
    case GLFW_KEY_H: return shift ? Action::PreviousHead : Action::NextHead;
    case GLFW_KEY_C: return Action::ToggleCausal;
    case GLFW_KEY_M: return Action::CycleMask;
    case GLFW_KEY_S: return Action::ToggleScaling;
    case GLFW_KEY_1: return Action::ShowHeatmaps;
    case GLFW_KEY_2: return Action::ShowStep;
    case GLFW_KEY_3: return Action::ShowCompare;
    case GLFW_KEY_4: return Action::ShowCross;
    case GLFW_KEY_F11: return Action::TogglePresentation;
    case GLFW_KEY_ESCAPE: return presenting ? Action::LeavePresentation : Action::None;
    case GLFW_KEY_F1: return Action::ToggleHelp;
    default: return Action::None;
  }
}

bool key_repeats(int key) {
  return key == GLFW_KEY_RIGHT || key == GLFW_KEY_LEFT || key == GLFW_KEY_PAGE_DOWN || key == GLFW_KEY_PAGE_UP ||
         key == GLFW_KEY_DOWN || key == GLFW_KEY_UP;
}

std::span<const int> classroom_keys() { return kKeys; }

std::string apply_action(Action action, ActionTarget& t) {
  app::Document& document = t.document;
  switch (action) {
    case Action::NextStep: move_step(t.state, 1); break;
    case Action::PreviousStep: move_step(t.state, -1); break;
    case Action::FirstStep: t.state.step = 0; break;
    case Action::LastStep: t.state.step = lesson::kStepCount - 1; break;
    case Action::NextQuery: next_query(t, 1); break;
    case Action::PreviousQuery: next_query(t, -1); break;
    case Action::NextHead: next_head(t, 1); break;
    case Action::PreviousHead: next_head(t, -1); break;
    case Action::ToggleCausal: {
      Scenario next = toggle_causal(document.scenario());
      const bool causal = next.mask.causal;
      document.apply(std::move(next), causal ? "Causal mask on" : "Causal mask off");
      return causal ? "Causal mask on" : "Causal mask off";
    }
    case Action::CycleMask: {
      Scenario next = document.scenario();
      const MaskStep step = next_mask(next.mask);
      next.mask = step.mask;
      document.apply(std::move(next), std::string("Mask: ") + step.name);
      return std::string("Mask: ") + step.name;
    }
    case Action::ToggleScaling: {
      Scenario next = toggle_scaling(document.scenario());
      const bool scaled = next.scale.kind == ScaleSetting::Kind::InvSqrtDk;
      document.apply(std::move(next), scaled ? "Scale by 1/\xe2\x88\x9a" "d_k" : "No scaling");
      return scaled ? "Scores scaled by 1/\xe2\x88\x9a" "d_k" : "No scaling: watch the softmax saturate";
    }
    case Action::ShowHeatmaps: t.state.select_tab = MainView::Heatmaps; break;
    case Action::ShowStep: t.state.select_tab = MainView::Step; break;
    case Action::ShowCompare: t.state.select_tab = MainView::Compare; break;
    case Action::ShowCross: t.state.select_tab = MainView::Cross; break;
    case Action::ToggleHelp: t.state.help_open = !t.state.help_open; break;
    case Action::TogglePresentation:
    case Action::LeavePresentation:
    case Action::None: break;
  }
  return "";
}

}  // namespace attnviz::classroom
