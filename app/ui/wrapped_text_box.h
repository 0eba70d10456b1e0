#pragma once
// A multiline text box whose long lines wrap at the box's width, as a sentence box should:
// Dear ImGui 1.86's InputTextMultiline only scrolls them sideways, so a typed sentence hid all
// but its last words.
//
// Wrapping turns the space before a word that would overflow into a '\n' of the box's own
// buffer (a soft break). A space and a newline are one byte and one character each, so ImGui's
// caret, selection and undo, and the input method's composition at the caret, stay where they
// were. text() is the text with the soft breaks back as spaces; newlines the user typed stay.

#include <imgui.h>

#include <functional>
#include <string>
#include <string_view>

namespace attnviz::ui {

// The advance of one Unicode code point, in pixels.
using CharAdvance = std::function<float(char32_t)>;

// `text` with the space before each word that would end past `width` made a '\n' (a word
// wider than the line stays whole on its own line). Existing newlines start new lines.
std::string wrap_at_spaces(std::string_view text, float width, const CharAdvance& advance);

// `shown` (after an edit) back as text: characters that came unchanged from `before_shown`
// (the shown text before the edit, `before_text` its text) take their text's character, so a
// soft break is a space again; the edited part is as typed.
std::string unwrap_after_edit(std::string_view shown, std::string_view before_shown, std::string_view before_text);

class WrappedTextBox {
 public:
  // What the box shows while the user is not typing in it (the document's text).
  void set_text(std::string_view text);

  // Draws the box (`size` as InputTextMultiline takes it); true when the user changed the
  // text this frame, text() then holding it.
  bool draw(const char* id, ImVec2 size);

  [[nodiscard]] const std::string& text() const { return text_; }
  // What the box draws: text() with its soft breaks.
  [[nodiscard]] const std::string& shown() const { return shown_; }

 private:
  static int on_edit(ImGuiInputTextCallbackData* data);
  [[nodiscard]] static float wrap_width(ImVec2 size);
  void rewrap(float width);
  void take_edit(std::string_view edited);  // the box now shows `edited`

  std::string text_;        // what the user wrote
  std::string shown_;       // ImGui's buffer
  std::string wrapped_;     // what the box shows as far as we know: text_ with soft breaks
  float width_ = -1.0f;     // the width wrapped_ was wrapped at
  float font_size_ = 0.0f;  // and the font size it was measured at
};

}  // namespace attnviz::ui
