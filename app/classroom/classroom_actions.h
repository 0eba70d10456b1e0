#pragma once
// Every classroom action, what key does it, and what it changes: pure functions over the
// Document, the ViewState, the ui::ClassroomState and the views' ViewStates, tested without a window. The Classroom
// menu turns key presses and menu items into actions; presentation mode itself (theme, full
// screen, keyboard navigation) stays with the menu, which owns the ImGui side.

#include <optional>
#include <span>
#include <string>

#include "app/classroom/view_states.h"
#include "app/ui/classroom_state.h"
#include "app/ui/view_state.h"

namespace attnviz::document {
class Document;
}

namespace attnviz::classroom {

enum class Action {
  None,
  NextStep,
  PreviousStep,
  FirstStep,
  LastStep,
  NextQuery,
  PreviousQuery,
  NextHead,
  PreviousHead,
  ToggleCausal,
  CycleMask,
  ToggleScaling,
  HotterTemperature,  // T: flatter weights
  ColderTemperature,  // Shift+T: sharper weights
  ToggleCross,        // cross-attention on / off
  NextCompareAxis,    // compare view: masks → heads → K/V heads
  PreviousCompareAxis,
  ToggleCompareCount,  // compare view: 2 ↔ 4 copies
  WiderWindow,         // compare view: window r + 1 (sliding window, Longformer)
  NarrowerWindow,
  ToggleCompareScores,  // compare view: weights ↔ scaled scores
  ShowHeatmaps,
  ShowStep,
  ShowCompare,
  ShowCross,
  ShowTiled,
  ShowDecode,
  ShowModelView,  // the desktop's Model view, while a model is open
  TogglePlay,     // Tiled and Decode views: play / pause the steps
  TogglePresentation,
  LeavePresentation,
  ToggleHelp,
  CloseHelp,  // Esc over the Help window: it closes first, before presentation mode is left
};

// The action of a key (GLFW key code) pressed with or without Shift, given what is on screen.
// Step keys act only in the views that step (Step by step, Tiled, Decode), compare keys only in
// the compare view, P only in the Tiled and Decode views, Esc only while presenting or while the
// Help window is open (which it closes: the innermost thing open goes first).
Action action_for_key(int key, bool shift, ui::MainView shown, bool presenting, bool help_open);

// The keys whose presses repeat while held (stepping, following, the window radius).
bool key_repeats(int key);
std::span<const int> classroom_keys();
// "Right", "Page Down", "A", "F11": how the Help window writes a key.
const char* key_name(int key);

// The query the view on screen follows: the pinned one; with none pinned, the step view
// follows the first token (its pages always follow one), the other views none.
std::optional<int> followed_query(const std::optional<int>& pinned, ui::MainView shown, int queries);

// What an action changes. heads and queries: the computed problem's (0 when nothing is
// computed: head and query actions do nothing then); tiles and decode_steps: how many steps
// the Tiled and Decode views have for it (view_steps.h); now: the time, for the play button.
struct ActionTarget {
  document::Document& document;
  ui::ViewState& view;
  ui::ClassroomState& state;
  ViewStates& views;
  int heads = 0;
  int queries = 0;
  int tiles = 0;
  int decode_steps = 0;
  double now = 0.0;
  bool model_open = false;  // a pretrained model is open: 7 shows its Model view
};

// Carries out everything but TogglePresentation / LeavePresentation (the menu's). Returns a
// short notice for changes that are not visible at once ("Mask: causal"), else "".
std::string apply_action(Action action, ActionTarget& target);

}  // namespace attnviz::classroom
