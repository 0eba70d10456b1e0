#pragma once
// The window's look: a light theme with strong contrast (it is projected in classrooms),
// generous spacing, everything scaled by the UI scale (HiDPI, --ui-scale).

struct ImVec4;

namespace attnviz::ui {

// Replaces ImGui's style; call again when the scale changes.
void apply_theme(float ui_scale);

// The colour the window is cleared with (RGBA, 0..1): the theme's background.
const float* clear_colour();

// The strong blue of selected buttons and pills (white text on it), and under the mouse: the
// theme's, or presentation mode's darker one while it sets its own (apply_theme resets them).
// Sliders keep a light grab: ImGui draws a slider's value over it.
ImVec4 accent_colour();
ImVec4 accent_hover_colour();
void set_accent_colours(int fill_rgb, int hovered_rgb);

}  // namespace attnviz::ui
