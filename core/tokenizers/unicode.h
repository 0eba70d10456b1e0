#pragma once
// The character classes and normalisations the model tokenizers need, from utf8proc's Unicode
// tables (never hand tables): letters and numbers as the pre-tokenizers' \p{L} and \p{N}, white
// space as Python's and JavaScript's \s, NFC / NFD, lower case and accent stripping for BERT.

#include <string>
#include <string_view>
#include <vector>

namespace attnviz::tokenizers {

bool is_letter(char32_t c);       // \p{L}: Lu, Ll, Lt, Lm, Lo
bool is_number(char32_t c);       // \p{N}: Nd, Nl, No
bool is_space(char32_t c);        // \s: Zs, Zl, Zp and the ASCII/Latin-1 controls that are spaces
bool is_control(char32_t c);      // Cc, Cf (BERT drops them), but not tab, newline, return
bool is_punctuation(char32_t c);  // BERT's: every P* and the ASCII symbols
bool is_cjk_ideograph(char32_t c);
bool is_mark_nonspacing(char32_t c);  // Mn: what accent stripping drops after NFD

// The code points of valid UTF-8 text; throws InputError(origin, where, ...) naming the byte
// offset of the first malformed sequence.
std::u32string decode_utf8(std::string_view text, const std::string& origin, const std::string& where);
bool is_valid_utf8(std::string_view text);
std::string encode_utf8(char32_t c);
std::string encode_utf8(std::u32string_view text);

std::string nfc(std::string_view text);  // valid UTF-8 in and out
std::string nfd(std::string_view text);
char32_t to_lower(char32_t c);

}  // namespace attnviz::tokenizers
