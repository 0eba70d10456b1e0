#pragma once
// Presentation mode: the window goes full screen, text grows (1×–3×), the colours switch to a
// high-contrast light theme that survives a washed-out projector, and only the main area's
// current view stays (LayoutMode::Heatmaps, and ClassroomState::presenting: no menu bar, tab bar or
// status bar). Leaving restores the layout, text size and theme.
//
// The way around without chrome: keys 1-6, Esc / F11, F1; and for the mouse, a small overlay
// in the top-right corner with the views and "Leave", shown for a few seconds after entering
// and whenever the mouse goes to that corner (not whenever it moves: a teacher pointing at a
// cell should not make it flicker in front of the class).

#include "app/ui/panel.h"

namespace attnviz::classroom {

void enter_presentation(ui::UiContext& ui);
void leave_presentation(ui::UiContext& ui);
void toggle_presentation(ui::UiContext& ui);

// Every frame while presenting (after the theme was applied): the high-contrast colours.
void apply_presentation_colours();

// How long the overlay shows after entering presentation mode.
inline constexpr double kOverlaySeconds = 4.0;
// Whether the overlay shows: for kOverlaySeconds after entering (when hints are on), and while
// the mouse is in the top-right corner (where it is, or would be).
bool overlay_shown(double seconds_presenting, bool hints, bool mouse_in_corner);

// Every frame before the areas: whether the overlay shows, and so the strip it takes at the
// top of the window (ClassroomState::overlay_strip); the view starts below it and is never
// covered by it.
void place_presentation_overlay(ui::UiContext& ui);
// Every frame after the areas: the overlay in its strip, when place_presentation_overlay()
// gave it one.
void draw_presentation_overlay(ui::UiContext& ui);

// The desktop's frame loop carries out the full-screen requests (ClassroomState::fullscreen).

}  // namespace attnviz::classroom
