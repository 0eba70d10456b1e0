#pragma once
// Bounded quotes of text a user gave (a field's value, a key, a file name) for messages: a
// 200 KB value is never echoed whole, and control characters never reach a terminal raw.

#include <cstddef>
#include <string>
#include <string_view>

namespace attnviz {

// At most `max_chars` characters (code points) of `text`, cut at a character boundary, with
// "…" when something was left out. Bytes that are not UTF-8 count as one character each.
std::string cut_text(std::string_view text, std::size_t max_chars);

// `text` in double quotes, JSON-escaped (\n, \", \u0007, a C1 control such as U+009B as
// \u009B, a byte that is not UTF-8 as \xNN),
// cut to `max_chars` characters; a cut one ends in …" and says how long the whole was:
//   "attnviz-scenario/2"      "aaaaaaaa…" (200000 characters)
std::string quoted_excerpt(std::string_view text, std::size_t max_chars = 60);

// A name read from a file (a tensor, a metadata key) for a message: as it is when it is at most
// `max_chars` characters of printable UTF-8 without quotes or backslashes, else quoted_excerpt
// (so an escape sequence or a NUL in a name never reaches the terminal raw or cuts the message).
std::string shown_name(std::string_view text, std::size_t max_chars = 80);

// The number of characters (code points) of `text`, invalid bytes counted one each.
std::size_t character_count(std::string_view text);

}  // namespace attnviz
