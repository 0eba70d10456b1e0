#include "core/tokenizers/token_label.h"

#include <cstdio>

#include "core/text/utf8.h"

namespace attnviz::tokenizers {
namespace {

std::string byte_label(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "<0x%02X>", byte);
  return text;
}

}  // namespace

std::string readable_bytes(std::string_view bytes) {
  std::string out;
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto decoded = utf8::decode_at(bytes, i);
    if (!decoded) {
      out += byte_label(static_cast<unsigned char>(bytes[i]));
      ++i;
      continue;
    }
    const char32_t c = decoded->code_point;
    if (c == U' ') out += kSpaceSign;
    else if (c == U'\n') out += "\u21B5";  // ↵
    else if (c == U'\t') out += "\u21E5";  // ⇥
    else if (c < 0x20 || c == 0x7F || c == 0xFFFD) {
      for (std::size_t k = 0; k < decoded->length; ++k) out += byte_label(static_cast<unsigned char>(bytes[i + k]));
    } else {
      out.append(bytes.substr(i, decoded->length));
    }
    i += decoded->length;
  }
  return out;
}

}  // namespace attnviz::tokenizers
