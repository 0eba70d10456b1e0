#include "app/window/preedit.h"

#include <algorithm>

#include "core/text/utf8.h"

namespace attnviz::window {

std::size_t Preedit::clamp(int value, std::size_t limit) {
  return value <= 0 ? 0 : std::min(static_cast<std::size_t>(value), limit);
}

void Preedit::draw(int first, int length, std::u32string_view replacement, int caret) {
  const std::size_t from = clamp(first, text_.size());
  const std::size_t count = clamp(length, text_.size() - from);
  text_.replace(from, count, replacement);
  caret_ = clamp(caret, text_.size());
}

std::string Preedit::utf8() const { return to_utf8(text_); }

std::string to_utf8(std::u32string_view text) {
  std::string out;
  for (const char32_t c : text) utf8::append(out, c);
  return out;
}

std::u32string from_utf8(std::string_view text) {
  std::u32string out;
  for (std::size_t at = 0; at < text.size();) {
    const auto decoded = utf8::decode_at(text, at);
    out += decoded ? decoded->code_point : char32_t{0xFFFD};
    at += decoded ? decoded->length : 1;
  }
  return out;
}

}  // namespace attnviz::window
