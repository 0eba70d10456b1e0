#pragma once
// The window's look: a light theme with strong contrast (it is projected in classrooms),
// generous spacing, everything scaled by the UI scale (HiDPI, --ui-scale).

struct ImVec4;

namespace attnviz::ui {

// Replaces ImGui's style; call again when the scale changes.
void apply_theme(float ui_scale);

// The colour the window is cleared with (RGBA, 0..1): the theme's background.
const float* clear_colour();

// The strong blue of selected buttons (white text on it).
ImVec4 accent_colour();

// While alive, sliders have a light grab: ImGui draws a slider's value over its grab, and the
// theme's strong blue grab (also the classroom's "selected" colour) hid the dark digits.
class ReadableSliders {
 public:
  ReadableSliders();
  ~ReadableSliders();
  ReadableSliders(const ReadableSliders&) = delete;
  ReadableSliders& operator=(const ReadableSliders&) = delete;
};

}  // namespace attnviz::ui
