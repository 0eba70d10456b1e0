#pragma once
// Presentation mode: the window goes full screen, text grows (1×–3×), the colours switch to a
// high-contrast light theme that survives a washed-out projector, and only the main area's
// views stay (LayoutMode::Heatmaps). Leaving restores the layout, text size and theme.

#include "app/panels/panel.h"

namespace attnviz::classroom {

void enter_presentation(ui::UiContext& ui);
void leave_presentation(ui::UiContext& ui);
void toggle_presentation(ui::UiContext& ui);

// Every frame while presenting (after the theme was applied): the high-contrast colours.
void apply_presentation_colours();

// apply_window_requests (classroom.h) carries out the full-screen requests.

}  // namespace attnviz::classroom
