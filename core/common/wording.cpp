#include "core/common/wording.h"

#include <utility>
#include <vector>

namespace attnviz {

Wording::Wording(Lookup lookup, PluralLookup plural_lookup)
    : lookup_(std::move(lookup)), plural_lookup_(std::move(plural_lookup)) {}

std::string Wording::tr(const char* msgid) const { return lookup_ ? lookup_(msgid) : std::string(msgid); }

std::string Wording::tr(const char* msgid, std::initializer_list<std::string_view> args) const {
  return fill_arguments(tr(msgid), args);
}

std::string Wording::trn(const char* singular, const char* plural, unsigned long n,
                         std::initializer_list<std::string_view> args) const {
  const std::string chosen = plural_lookup_ ? plural_lookup_(singular, plural, n) : (n == 1 ? singular : plural);
  return fill_arguments(chosen, args);
}

std::string fill_arguments(std::string_view pattern, std::initializer_list<std::string_view> args) {
  const std::vector<std::string_view> values(args);
  std::string text;
  text.reserve(pattern.size() + 16);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const bool placeholder = pattern[i] == '%' && i + 3 < pattern.size() && pattern[i + 1] >= '1' &&
                             pattern[i + 1] <= '9' && pattern[i + 2] == '$' && pattern[i + 3] == 's';
    if (placeholder && static_cast<std::size_t>(pattern[i + 1] - '1') < values.size()) {
      text += values[static_cast<std::size_t>(pattern[i + 1] - '1')];
      i += 3;
    } else if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == '%') {
      text += '%';
      ++i;
    } else {
      text += pattern[i];
    }
  }
  return text;
}

}  // namespace attnviz
