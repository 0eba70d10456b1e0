#pragma once
// The window's look: a light theme with strong contrast (it is projected in classrooms) or a
// dark one (View ▸ Theme, remembered in window.json), generous spacing, everything scaled by the
// UI scale (HiDPI, --ui-scale). Presentation mode keeps its own light look over either.

#include <optional>
#include <string>

struct ImGuiStyle;
struct ImVec4;

namespace attnviz::ui {

enum class Theme { Light, Dark };

// "light", "dark" (window.json), and back.
const char* theme_code(Theme theme);
std::optional<Theme> theme_from_code(const std::string& code);

// Replaces ImGui's style; call again when the scale or the theme changes.
void apply_theme(float ui_scale, Theme theme);

// Only the theme's colours, into `style` (presentation mode starts from the light ones).
void set_theme_colours(ImGuiStyle& style, Theme theme);

// The colour the window is cleared with (RGBA, 0..1): the theme's background.
const float* clear_colour(Theme theme);

// The strong blue of selected buttons and pills (white text on it), and under the mouse: the
// theme's, or presentation mode's darker one while it sets its own (apply_theme resets them).
// Sliders keep a light grab: ImGui draws a slider's value over it.
ImVec4 accent_colour();
ImVec4 accent_hover_colour();
void set_accent_colours(int fill_rgb, int hovered_rgb);

}  // namespace attnviz::ui
