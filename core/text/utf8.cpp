#include "core/text/utf8.h"

#include <array>
#include <cstdint>

namespace attnviz::utf8 {
namespace {

bool is_continuation(unsigned char byte) { return (byte & 0xC0u) == 0x80u; }

struct Range {
  char32_t first;
  char32_t last;
};

bool in_ranges(char32_t c, const Range* begin, const Range* end) {
  for (const Range* r = begin; r != end; ++r)
    if (c >= r->first && c <= r->last) return true;
  return false;
}

}  // namespace

void append(std::string& out, char32_t c) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
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

std::optional<Decoded> decode_at(std::string_view text, std::size_t offset) {
  const auto lead = static_cast<unsigned char>(text[offset]);
  if (lead < 0x80u) return Decoded{lead, 1};

  std::size_t length = 0;
  char32_t value = 0;
  char32_t minimum = 0;  // smallest code point this length may encode (rejects overlong forms)
  if ((lead & 0xE0u) == 0xC0u) {
    length = 2, value = lead & 0x1Fu, minimum = 0x80;
  } else if ((lead & 0xF0u) == 0xE0u) {
    length = 3, value = lead & 0x0Fu, minimum = 0x800;
  } else if ((lead & 0xF8u) == 0xF0u) {
    length = 4, value = lead & 0x07u, minimum = 0x10000;
  } else {
    return std::nullopt;  // a continuation byte or 0xF8..0xFF where a character should start
  }
  if (offset + length > text.size()) return std::nullopt;
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[offset + i]);
    if (!is_continuation(byte)) return std::nullopt;
    value = (value << 6) | (byte & 0x3Fu);
  }
  if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return std::nullopt;
  return Decoded{value, length};
}

bool is_white_space(char32_t c) {
  static constexpr std::array<Range, 10> kWhiteSpace{{
      {0x0009, 0x000D},
      {0x0020, 0x0020},
      {0x0085, 0x0085},
      {0x00A0, 0x00A0},
      {0x1680, 0x1680},
      {0x2000, 0x200A},
      {0x2028, 0x2029},
      {0x202F, 0x202F},
      {0x205F, 0x205F},
      {0x3000, 0x3000},
  }};
  return in_ranges(c, kWhiteSpace.data(), kWhiteSpace.data() + kWhiteSpace.size());
}

bool is_punctuation(char32_t c) {
  static constexpr std::array<Range, 20> kPunctuation{{
      {0x0021, 0x002F}, {0x003A, 0x0040}, {0x005B, 0x0060}, {0x007B, 0x007E},  // ASCII
      {0x00A1, 0x00A1}, {0x00A7, 0x00A7}, {0x00AB, 0x00AB}, {0x00B6, 0x00B7},  // ¡ § « ¶ ·
      {0x00BB, 0x00BB}, {0x00BF, 0x00BF},                                      // » ¿
      {0x2010, 0x2027}, {0x2030, 0x205E},                                      // General Punctuation
      {0x3001, 0x3003}, {0x3008, 0x3011}, {0x3014, 0x301F},  // CJK 、。〃 〈〉《》「」『』【】
      {0x30FB, 0x30FB},                                      // ・
      {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFF3B, 0xFF40}, {0xFF5B, 0xFF65},  // fullwidth forms
  }};
  return in_ranges(c, kPunctuation.data(), kPunctuation.data() + kPunctuation.size());
}

}  // namespace attnviz::utf8
