// Going to a place in a long text (core/overview/token_search.h) with arbitrary bytes typed
// into Find over an arbitrary text: a kind and matches, never a crash; the matches lie in the
// text, ascending, a phrase's length apart from its end, and next_match lands on one of them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/overview/token_search.h"
#include "core/text/tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the mode; a NUL byte splits the text searched from what is typed.
  const attnviz::TokenizerMode modes[] = {attnviz::TokenizerMode::Words, attnviz::TokenizerMode::WordsNoPunct,
                                          attnviz::TokenizerMode::Chars};
  const attnviz::TokenizerMode mode = modes[data[0] % 3];
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t split = std::min(input.find('\0'), input.size());
  std::vector<std::string> tokens;
  try {
    tokens = attnviz::tokenize(input.substr(0, split), mode, 512);
  } catch (const attnviz::TokenizerError&) {
    return 0;  // the window never searches a text it cannot split
  }
  const std::string_view typed = split < input.size() ? input.substr(split + 1) : std::string_view{};
  const attnviz::overview::TokenMatches found = attnviz::overview::find_tokens(tokens, typed, mode);
  const auto& starts = found.starts;
  if (!std::is_sorted(starts.begin(), starts.end()) ||
      std::adjacent_find(starts.begin(), starts.end()) != starts.end()) {
    std::abort();
  }
  const int count = static_cast<int>(tokens.size());
  for (const int start : starts) {
    if (start < 0 || found.length < 1 || start + found.length > count) std::abort();
    if (attnviz::overview::match_ordinal(starts, start) == 0) std::abort();
  }
  if (found.found() != !starts.empty()) std::abort();
  const int pinned = count > 0 ? static_cast<int>(data[0]) % count : 0;
  const int next = attnviz::overview::next_match(starts, pinned, (data[0] & 0x80) != 0);
  if (starts.empty() ? next != -1 : attnviz::overview::match_ordinal(starts, next) == 0) std::abort();
  return 0;
}
