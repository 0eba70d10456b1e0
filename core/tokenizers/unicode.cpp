#include "core/tokenizers/unicode.h"

#include <utf8proc.h>

#include <cstdlib>
#include <memory>

#include "core/common/error.h"
#include "core/text/utf8.h"

namespace attnviz::tokenizers {
namespace {

utf8proc_category_t category(char32_t c) { return utf8proc_category(static_cast<utf8proc_int32_t>(c)); }

std::string normalized(std::string_view text, utf8proc_option_t options) {
  utf8proc_uint8_t* out = nullptr;
  const utf8proc_ssize_t length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                               static_cast<utf8proc_ssize_t>(text.size()), &out, options);
  const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owner(out, &std::free);
  if (length < 0) return std::string(text);  // only for invalid UTF-8, which callers never pass
  return {reinterpret_cast<const char*>(out), static_cast<std::size_t>(length)};
}

}  // namespace

bool is_letter(char32_t c) {
  const auto cat = category(c);
  return cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO;
}

bool is_number(char32_t c) {
  const auto cat = category(c);
  return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL || cat == UTF8PROC_CATEGORY_NO;
}

bool is_space(char32_t c) {
  if ((c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85) return true;
  const auto cat = category(c);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

bool is_control(char32_t c) {
  if (c == U'\t' || c == U'\n' || c == U'\r') return false;
  const auto cat = category(c);
  return cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF;
}

bool is_punctuation(char32_t c) {
  // BERT counts every non-letter, non-number ASCII symbol as punctuation ("$", "^", "`").
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
  const auto cat = category(c);
  return cat >= UTF8PROC_CATEGORY_PC && cat <= UTF8PROC_CATEGORY_PO;
}

bool is_cjk_ideograph(char32_t c) {
  // The CJK Unified Ideographs blocks, as BERT's basic tokenizer lists them (not Hangul or kana).
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

bool is_mark_nonspacing(char32_t c) { return category(c) == UTF8PROC_CATEGORY_MN; }

std::u32string decode_utf8(std::string_view text, const std::string& origin, const std::string& where) {
  std::u32string out;
  out.reserve(text.size());
  std::size_t offset = 0;
  while (offset < text.size()) {
    const auto decoded = utf8::decode_at(text, offset);
    if (!decoded) throw InputError(origin, where, "is not valid UTF-8 at byte " + std::to_string(offset));
    out.push_back(decoded->code_point);
    offset += decoded->length;
  }
  return out;
}

bool is_valid_utf8(std::string_view text) {
  for (std::size_t offset = 0; offset < text.size();) {
    const auto decoded = utf8::decode_at(text, offset);
    if (!decoded) return false;
    offset += decoded->length;
  }
  return true;
}

std::string encode_utf8(char32_t c) {
  std::string out;
  utf8::append(out, c);
  return out;
}

std::string encode_utf8(std::u32string_view text) {
  std::string out;
  for (const char32_t c : text) utf8::append(out, c);
  return out;
}

std::string nfc(std::string_view text) {
  return normalized(text, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
}

std::string nfd(std::string_view text) {
  return normalized(text, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_DECOMPOSE));
}

char32_t to_lower(char32_t c) { return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))); }

}  // namespace attnviz::tokenizers
