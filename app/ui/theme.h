#pragma once
// The window's look: a light theme with strong contrast (it is projected in classrooms),
// generous spacing, everything scaled by the UI scale (HiDPI, --ui-scale).

namespace attnviz::ui {

// Replaces ImGui's style; call again when the scale changes.
void apply_theme(float ui_scale);

// The colour the window is cleared with (RGBA, 0..1): the theme's background.
const float* clear_colour();

}  // namespace attnviz::ui
