#pragma once
// What the main area's tabs and presentation mode share with the layout: which view is on
// screen (and its step, for file names), presentation mode, and requests the frame loop carries
// out (full screen, selecting a view's tab). Plain UI state like ViewState: the desktop owns one
// and hands it to every panel in the UiContext. What each classroom view shows (its page, its
// variants, its tile) is the views' own: app/classroom/view_states.h.

#include <optional>
#include <string>

#include "app/i18n/translate.h"
#include "app/ui/view_state.h"

namespace attnviz::ui {

// The tabs of the main area the classroom knows about, in the order of their number keys
// (1 Heatmaps … 6 Decode).
enum class MainView { Heatmaps, Step, Compare, Cross, Tiled, Decode };
inline constexpr MainView kMainViews[] = {MainView::Heatmaps, MainView::Step,  MainView::Compare,
                                          MainView::Cross,    MainView::Tiled, MainView::Decode};
const char* to_string(MainView view);  // "heatmaps", "step", "compare", "cross", "tiled", "decode"
std::optional<MainView> main_view_from_string(const std::string& name);
const char* tab_title(MainView view);  // the panel title: "Heatmaps", "Step by step", ...
// The desktop's last tab (app/panels/model_view.cpp), after the six: key 7 while a model is open.
inline constexpr const char* kModelViewTitle = N_("Model view");
inline bool model_view_shown(const ViewState& view) { return view.shown_main_tab == kModelViewTitle; }
// The Training view (app/panels/training_view.h), after the Model view: key 8.
inline constexpr const char* kTrainingViewTitle = N_("Training");
inline bool training_view_shown(const ViewState& view) { return view.shown_main_tab == kTrainingViewTitle; }

struct ClassroomState {
  // A view playing its steps asks for frames to keep coming (the window otherwise sleeps
  // until an event); the frame loop clears it before each frame's UI.
  bool wants_frames = false;

  // Presentation mode (F11): full screen, large high-contrast text, the view alone. The window
  // then shows content, not chrome: no menu bar, status bar or tab bar (keys 1-7 and a corner
  // overlay switch views); app/classroom/presentation.cpp sets it, the layout honours it.
  bool presenting = false;
  float presentation_text_scale = 1.6f;  // 1×–3×
  // While presenting, heatmaps up to this many tokens keep cells large enough for their numbers
  // (the page scrolls rather than the numbers going: a projector's 1280 × 720 has room for an
  // 8 × 8 comparison or an 18-token sentence with numbers, not without scrolling for both).
  static constexpr int kNumberedWhilePresenting = 20;
  // The height the presentation overlay takes at the top of the window in this frame (0 while
  // hidden): the layout starts the view below it, so it never covers a heading.
  float overlay_strip = 0.0f;
  LayoutMode layout_before = LayoutMode::Full;
  float text_scale_before = 1.0f;
  double presenting_since = 0.0;  // ImGui::GetTime() when presentation mode began
  // Transient hints (the presentation overlay that shows for a few seconds after F11). Off in
  // screenshot and measuring runs: their pictures are what the audience sees after that.
  bool hints = true;
  // The overlay's size when it was last drawn: the corner that brings it back is where it shows.
  float overlay_width = 0.0f;
  float overlay_height = 0.0f;
  // Arrow keys step through the lesson while presenting; ImGui's keyboard navigation (off
  // meanwhile) would move a focus rectangle around at the same time.
  bool nav_was_enabled = false;

  bool help_open = false;

  // Requests, taken by whoever carries them out.
  std::optional<MainView> select_tab;  // the layout selects this tab in the next frame
  std::optional<bool> fullscreen;      // the frame loop enters (true) or leaves full screen

  // From the command line: enter presentation mode in the first frame; a view was asked
  // for (then loading a cross-attention scenario does not switch to the Cross view).
  bool start_presenting = false;
  bool start_view_given = false;

  // The tab the main area showed in the last frame (keys act on what is on screen).
  MainView shown = MainView::Heatmaps;
  int shown_frame = -1;
  // The shown view's page, tile or decoding step (0-based; 0 for a view without steps): what
  // File > Save view as image names the file after.
  int shown_step = 0;
};

// `main_view` is on screen: while the Model view is, none of the six is (`shown` falls back to
// Heatmaps then).
inline bool on_screen(const ClassroomState& state, const ViewState& view, MainView main_view) {
  return state.shown == main_view && !model_view_shown(view);
}

}  // namespace attnviz::ui
