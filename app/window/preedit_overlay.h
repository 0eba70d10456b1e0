#pragma once
// The pre-edit drawn at the caret of the active text field. Dear ImGui 1.86 has no pre-edit
// API (its IME support positions the Windows IME window only), so this one file reads what
// its internals expose: which text field is active (ImGuiInputTextState) and where its caret
// was drawn (the position InputText keeps for the Windows IME).

#include <optional>

#include "app/window/preedit.h"
#include "app/window/x11_input_method.h"

namespace attnviz::window {

// The text field that has the keyboard in this frame and its caret; nullopt when none.
[[nodiscard]] std::optional<TextCaret> active_text_caret();

// Draws `preedit` at `caret`, underlined, on the field's background (it covers the text after
// the caret rather than moving it: the field's text is ImGui's until the syllable commits).
void draw_preedit(const Preedit& preedit, const TextCaret& caret);

}  // namespace attnviz::window
