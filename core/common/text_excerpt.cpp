#include "core/common/text_excerpt.h"

#include <cstdio>

namespace attnviz {
namespace {

// The length in bytes of the well-formed UTF-8 sequence at text[i], or 0 when there is none.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4;
  else
    return 0;
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

// U+0080..U+009F: control codes a terminal acts on (0x9B begins a command, as ESC [ does).
bool c1_control(std::string_view text, std::size_t i, std::size_t length) {
  return length == 2 && static_cast<unsigned char>(text[i]) == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
}

std::size_t step(std::string_view text, std::size_t i) {
  const std::size_t length = sequence_length(text, i);
  return length == 0 ? 1 : length;
}

}  // namespace

std::size_t character_count(std::string_view text) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); i += step(text, i)) ++count;
  return count;
}

std::string cut_text(std::string_view text, std::size_t max_chars) {
  std::size_t i = 0;
  std::size_t chars = 0;
  while (i < text.size() && chars < max_chars) {
    i += step(text, i);
    ++chars;
  }
  if (i >= text.size()) return std::string(text);
  return std::string(text.substr(0, i)) + "\u2026";
}

std::string quoted_excerpt(std::string_view text, std::size_t max_chars) {
  std::string out = "\"";
  std::size_t i = 0;
  std::size_t chars = 0;
  while (i < text.size() && chars < max_chars) {
    const std::size_t length = sequence_length(text, i);
    const auto c = static_cast<unsigned char>(text[i]);
    char escape[8];
    if (length == 0) {
      std::snprintf(escape, sizeof escape, "\\x%02X", static_cast<unsigned>(c));
      out += escape;
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(c));
      out += escape;
    } else if (c1_control(text, i, length)) {
      std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(static_cast<unsigned char>(text[i + 1])));
      out += escape;
    } else {
      out.append(text.substr(i, length));
    }
    i += length == 0 ? 1 : length;
    ++chars;
  }
  if (i >= text.size()) return out + "\"";
  return out + "\u2026\" (" + std::to_string(character_count(text)) + " characters)";
}

std::string shown_name(std::string_view text, std::size_t max_chars) {
  if (text.empty()) return quoted_excerpt(text);
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    const std::size_t length = sequence_length(text, i);
    const auto c = static_cast<unsigned char>(text[i]);
    const bool control = c < 0x20 || c == 0x7F || c1_control(text, i, length);
    if (length == 0 || control || c == '"' || c == '\\' || chars >= max_chars) {
      return quoted_excerpt(text, max_chars);
    }
    i += length;
  }
  return std::string(text);
}

}  // namespace attnviz
