#pragma once
// Strict UTF-8 decoding and the two character classes the tokenizer needs. No locale and no
// ICU: the classes are fixed tables, so tokens are the same on every machine.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attnviz::utf8 {

struct Decoded {
  char32_t code_point = 0;
  std::size_t length = 0;  // bytes consumed, 1..4
};

// The code point starting at `offset`, or nullopt when the bytes there are not well-formed
// UTF-8 (stray continuation byte, truncated sequence, overlong form, surrogate, > U+10FFFF).
std::optional<Decoded> decode_at(std::string_view text, std::size_t offset);

// Appends c's UTF-8 bytes; a surrogate or a value past U+10FFFF (not a character) as U+FFFD.
void append(std::string& out, char32_t c);

// Unicode White_Space (tab, newline, space, no-break space, ideographic space, ...).
bool is_white_space(char32_t c);

// Punctuation and ASCII symbols that split words: ASCII punctuation, Latin-1 punctuation,
// General Punctuation, CJK punctuation, fullwidth forms. Letters, digits, Hangul, emoji are not.
bool is_punctuation(char32_t c);

}  // namespace attnviz::utf8
