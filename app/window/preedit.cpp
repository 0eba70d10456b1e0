#include "app/window/preedit.h"

#include <algorithm>

#include "core/text/utf8.h"

namespace attnviz::window {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

void append_utf8(std::string& out, char32_t c) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = kReplacement;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace

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
  for (const char32_t c : text) append_utf8(out, c);
  return out;
}

std::u32string from_utf8(std::string_view text) {
  std::u32string out;
  for (std::size_t at = 0; at < text.size();) {
    const auto decoded = utf8::decode_at(text, at);
    out += decoded ? decoded->code_point : kReplacement;
    at += decoded ? decoded->length : 1;
  }
  return out;
}

}  // namespace attnviz::window
