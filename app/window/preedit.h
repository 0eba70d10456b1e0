#pragma once
// The text an input method is composing (the pre-edit: 아 before it becomes a committed
// syllable, か before it becomes 課), kept as the input method describes it in X11's
// on-the-spot protocol: Start, then Draw calls that each replace a span of the text and move
// the caret, then Done. Plain data: unit-tested (tests/window/preedit_test.cpp); the X11
// callbacks (x11_input_method.cpp) only translate into these calls.

#include <cstddef>
#include <string>
#include <string_view>

namespace attnviz::window {

class Preedit {
 public:
  void start() { reset(); }
  // Replaces `length` characters from `first` with `replacement` (XIMPreeditDrawCallback's
  // chg_first, chg_length, text: a null text is an empty replacement) and puts the caret at
  // `caret`. Out-of-range spans and carets are clamped: a confused input method never crashes
  // the window.
  void draw(int first, int length, std::u32string_view replacement, int caret);
  void move_caret(int caret) { caret_ = clamp(caret, text_.size()); }
  void done() { reset(); }

  [[nodiscard]] bool empty() const { return text_.empty(); }
  [[nodiscard]] const std::u32string& text() const { return text_; }
  [[nodiscard]] std::string utf8() const;
  // Characters before the caret.
  [[nodiscard]] std::size_t caret() const { return caret_; }

 private:
  void reset() {
    text_.clear();
    caret_ = 0;
  }
  static std::size_t clamp(int value, std::size_t limit);

  std::u32string text_;
  std::size_t caret_ = 0;
};

// UTF-8 for code points (ImGui draws UTF-8); invalid code points become U+FFFD.
std::string to_utf8(std::u32string_view text);
// Code points of UTF-8 text; ill-formed bytes become U+FFFD.
std::u32string from_utf8(std::string_view text);

}  // namespace attnviz::window
