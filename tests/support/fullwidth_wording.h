#pragma once
// A Wording (core/common/wording.h) that writes every message's Latin letters in their
// fullwidth forms (ａｂｃ, ＡＢＣ), leaving the %N$s placeholders for the arguments: a figure
// or page made with it shows ASCII words only where something bypassed its Wording (or where
// the arguments put them: tokens, numbers, names the test chose). Unlike brackets, fullwidth
// letters survive a text wrapped onto several lines.

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/common/wording.h"

namespace attnviz::testing {

inline std::string fullwidth_letters(const char* msgid) {
  std::string out;
  for (const char* c = msgid; *c != '\0'; ++c) {
    const bool placeholder = c[0] == '%' && c[1] >= '1' && c[1] <= '9' && c[2] == '$' && c[3] == 's';
    if (placeholder) {
      out.append(c, 4);
      c += 3;
    } else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')) {
      // U+FF21 'Ａ' … U+FF5A 'ｚ': 0xFF01 + (c − '!') for the printable ASCII range.
      const unsigned code = 0xFF01u + static_cast<unsigned>(*c - '!');
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += *c;
    }
  }
  return out;
}

inline Wording fullwidth_wording() {
  return Wording([](const char* msgid) { return fullwidth_letters(msgid); },
                 [](const char* singular, const char* plural, unsigned long n) {
                   return fullwidth_letters(n == 1 ? singular : plural);
                 });
}

// The ASCII words of two letters or more in `texts`, less those `allowed`.
inline std::vector<std::string> ascii_words(const std::vector<std::string>& texts,
                                            const std::set<std::string>& allowed = {}) {
  std::vector<std::string> found;
  const std::regex word("[A-Za-z]{2,}");
  for (const std::string& text : texts) {
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it) {
      if (!allowed.contains(it->str())) found.push_back(it->str() + " in \"" + text.substr(0, 60) + "\"");
    }
  }
  return found;
}

}  // namespace attnviz::testing
