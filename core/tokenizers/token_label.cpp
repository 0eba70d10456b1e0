#include "core/tokenizers/token_label.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/text/utf8.h"

namespace attnviz::tokenizers {
namespace {

// A UTF-8 character is at most 4 bytes, so its byte numbers are ₁ to ₄ (U+2081..U+2084).
constexpr std::string_view kSubscripts[] = {"\u2081", "\u2082", "\u2083", "\u2084"};

std::optional<int> subscript_digit(std::string_view text, std::size_t at) {
  for (std::size_t d = 0; d < std::size(kSubscripts); ++d) {
    if (text.substr(at).starts_with(kSubscripts[d])) return static_cast<int>(d) + 1;
  }
  return std::nullopt;
}

// The bytes [begin, end) of the character at `start` (length `length`) as held by one token.
std::string partial_character(std::string_view text, std::size_t start, std::size_t length, std::size_t begin,
                              std::size_t end) {
  const std::string_view whole = text.substr(start, length);
  // A character that is itself shown as a sign or as bytes (a C1 control, U+FFFD) stays bytes.
  if (readable_bytes(whole) != whole) return readable_bytes(text.substr(begin, end - begin));
  std::string label(whole);
  for (std::size_t b = begin; b < end; ++b) label += kSubscripts[b - start];
  return label;
}

// Labels one run of text tokens (no special token inside) into labels[0 .. pieces.size()).
void label_run(std::span<const TokenPiece> pieces, std::string* labels) {
  std::string text;
  std::vector<std::size_t> owner;  // the token of each byte of `text`
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    text += pieces[k].bytes;
    owner.resize(text.size(), k);
  }
  std::size_t i = 0;
  while (i < text.size()) {
    const auto decoded = utf8::decode_at(text, i);
    const std::size_t length = decoded ? decoded->length : 1;
    if (owner[i] == owner[i + length - 1]) {
      labels[owner[i]] += readable_bytes(std::string_view(text).substr(i, length));
    } else {
      for (std::size_t begin = i; begin < i + length;) {
        std::size_t end = begin;
        while (end < i + length && owner[end] == owner[begin]) ++end;
        labels[owner[begin]] += partial_character(text, i, length, begin, end);
        begin = end;
      }
    }
    i += length;
  }
}

}  // namespace

std::string byte_label(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "<0x%02X>", byte);
  return text;
}

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
    if (c == U' ')
      out += kSpaceSign;
    else if (c == U'\n')
      out += "\u21B5";  // ↵
    else if (c == U'\t')
      out += "\u21E5";  // ⇥
    else if (c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0xFFFD) {
      for (std::size_t k = 0; k < decoded->length; ++k) out += byte_label(static_cast<unsigned char>(bytes[i + k]));
    } else {
      out.append(bytes.substr(i, decoded->length));
    }
    i += decoded->length;
  }
  return out;
}

std::vector<std::string> readable_labels(std::span<const TokenPiece> pieces) {
  std::vector<std::string> labels(pieces.size());
  std::size_t run_begin = 0;
  for (std::size_t i = 0; i <= pieces.size(); ++i) {
    if (i < pieces.size() && pieces[i].is_text) continue;
    label_run(pieces.subspan(run_begin, i - run_begin), labels.data() + run_begin);
    if (i < pieces.size()) labels[i] = pieces[i].bytes;
    run_begin = i + 1;
  }
  return labels;
}

std::string cut_character_note(std::string_view label) {
  std::string note;
  for (std::size_t i = 0; i < label.size();) {
    const auto decoded = utf8::decode_at(label, i);
    if (!decoded) return "";
    const std::size_t after = i + decoded->length;
    std::vector<int> held;
    for (std::size_t at = after; const auto digit = subscript_digit(label, at); at += kSubscripts[0].size())
      held.push_back(*digit);
    // Part of a character: fewer of its bytes than it has, numbered in order (not a typed ₁).
    const bool cut = !held.empty() && !subscript_digit(label, i) && held.size() < decoded->length &&
                     held.back() <= static_cast<int>(decoded->length) && std::is_sorted(held.begin(), held.end()) &&
                     std::adjacent_find(held.begin(), held.end()) == held.end();
    if (!cut) {
      i = after;
      continue;
    }
    std::string numbers;
    for (std::size_t k = 0; k < held.size(); ++k)
      numbers += (k == 0 ? "" : k + 1 == held.size() ? " and " : ", ") + std::to_string(held[k]);
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(decoded->code_point));
    const std::size_t end = after + held.size() * kSubscripts[0].size();
    note += std::string(note.empty() ? "" : "; ") + std::string(label.substr(i, end - i)) + ": " +
            (held.size() == 1 ? "byte " : "bytes ") + numbers + " of the " + std::to_string(decoded->length) +
            " that spell " + std::string(label.substr(i, decoded->length)) + " (" + code + ")";
    i = end;
  }
  if (note.empty()) return "";
  return note + ". UTF-8 spells such a character in several bytes, and the tokenizer cut it between tokens.";
}

}  // namespace attnviz::tokenizers
