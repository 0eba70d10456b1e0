#pragma once
// Wrapped text that breaks lines at spaces only. Dear ImGui 1.86 also breaks after ',' and
// '.', so a grouped number at a line's end was cut in two ("sees 35,777 of 65," then "536
// keys"), which a projected slide cannot afford: every wrapped sentence here carries numbers.

#include <imgui.h>

#include <functional>
#include <string>
#include <string_view>

namespace attnviz::ui {

// `text` with a '\n' put in place of the space before each word that would pass `width`
// (as `measure` measures a run of text); existing line breaks kept. A word wider than a whole
// line stays whole on a line of its own: ImGui's own wrapping then cuts it anywhere. A product
// ("1,024 × 1,024") counts as one word. With a `hanging_indent`, the lines after each
// paragraph's first have that much less room (they are drawn indented).
std::string break_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& measure,
                            float hanging_indent = 0.0f);

// Draws `text` in the current colour, wrapped at spaces where ImGui::TextWrapped would wrap (the
// pushed wrap position, else the end of the line).
void text_lines(std::string_view text);
// The same in the disabled (grey) colour.
void text_lines_disabled(std::string_view text);
// ImGui::TextWrapped's printf-style call, breaking at spaces only.
void text_wrapped(const char* format, ...) IM_FMTARGS(1);
// The same in the disabled (grey) colour.
void text_wrapped_disabled(const char* format, ...) IM_FMTARGS(1);

}  // namespace attnviz::ui
