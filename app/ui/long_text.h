#pragma once
// Texts a user can make as long as they like (a message quoting a file, a title, a path, a
// token) are shown cut: at most a few hundred characters and a dozen lines, ending in "…", with
// the whole text a click away (Copy puts it on the clipboard). Besides being readable, this
// keeps every drawn text far inside what one ImGui draw command can hold
// (app/window/draw_list_guard.h splits what still overflows).

#include <cstddef>
#include <string>
#include <string_view>

namespace attnviz::ui {

inline constexpr std::size_t kShownCharacters = 600;
inline constexpr std::size_t kShownLines = 12;

struct ShownText {
  std::string text;  // what is drawn
  bool cut = false;  // something was left out
};

// `text` cut to `max_chars` characters and `max_lines` lines, "…" marking the cut.
ShownText shown_text(std::string_view text, std::size_t max_chars = kShownCharacters,
                     std::size_t max_lines = kShownLines);

// A token as the window writes it in a label, a pill, a tooltip or a sentence: at most
// kTokenCharacters characters, "…" after a cut (a "word" of a text without spaces can be
// megabytes long, and measuring it whole each frame took seconds), and a "##" (BERT's "##at")
// written so that a widget shows it rather than take it for the start of an ID.
inline constexpr std::size_t kTokenCharacters = 48;
std::string token_label(std::string_view token);

// The tooltip of a token's chip: `first_line` ("token 4"), then, when the token holds part of a
// character the tokenizer cut (안₁₂), which bytes of which character, wrapped.
void token_tooltip(const std::string& first_line, std::string_view token);

// Draws shown_text(text) (wrapped at spaces where the caller's PushTextWrapPos says); when it was cut, a
// "Copy whole text" button after it puts all of `text` on the clipboard. `id` tells several
// such buttons in one window apart.
void long_text(std::string_view text, const char* id, std::size_t max_chars = kShownCharacters);

}  // namespace attnviz::ui
